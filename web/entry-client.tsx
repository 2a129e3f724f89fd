// The browser's entry: hydrates the page the server rendered, with the data it was rendered with;
// the admin panel (never rendered on the server) is drawn from nothing.
import './styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, createQueryClient } from './app';
import { fillQueryClient, PAGE_DATA_ID, type PageData } from './lib/pageData';
import { postJson } from './lib/rest';

// One visit per page load, outside React so that re-renders never count twice. Failures are only logged.
postJson('/api/visit').catch((error: unknown) => console.warn('Visit not counted', error));

const root = document.getElementById('root')!;
const queryClient = createQueryClient();
const dataBlock = document.getElementById(PAGE_DATA_ID);
const app = (
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>
);
if (dataBlock) {
  fillQueryClient(queryClient, JSON.parse(dataBlock.textContent ?? '{}') as PageData);
  // As a transition, hydration yields to the browser every few milliseconds: the server's page is
  // drawn at once instead of after the whole tree, and a phone's main thread is never held long.
  // A click or key press meanwhile makes React finish hydrating first, then handle it.
  startTransition(() => {
    hydrateRoot(root, app);
  });
} else {
  createRoot(root).render(app);
}
