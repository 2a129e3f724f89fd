import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createQueryClient } from './app';
import { postJson } from './lib/rest';

// One visit per page load, outside React so that re-renders never count twice. Failures are only logged.
postJson('/api/visit').catch((error: unknown) => console.warn('Visit not counted', error));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={createQueryClient()} />
  </StrictMode>,
);
