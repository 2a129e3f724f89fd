// The public pages: path (under the language's base) -> component. The server renders each with
// the data its loader reads (src/pages/pages.ts has a loader and a head for every kind here); the
// browser hydrates the same components. A new public page is a line here and one there.
import type { ComponentType } from 'react';
import { ContactPage } from './public/ContactPage';
import { Home } from './public/Home';
import { PlacePage } from './public/PlacePage';
import { PlansPage } from './public/PlansPage';

export interface PublicPage {
  path: string;
  component: ComponentType<{ params: Record<string, string> }>;
}

export const PUBLIC_PAGES = {
  home: { path: '/', component: Home },
  contact: { path: '/contact', component: ContactPage },
  plans: { path: '/plans', component: PlansPage },
  place: { path: '/place/:type/:id', component: PlacePage as PublicPage['component'] },
} satisfies Record<string, PublicPage>;

export type PageKind = keyof typeof PUBLIC_PAGES;
