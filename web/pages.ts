// The public pages: path (under the language's base) -> component. The server renders each with
// the data its loader reads (src/pages/pages.ts has a loader and a head for every kind here); the
// browser hydrates the same components. A new public page is a line here and one there.
import type { ComponentType } from 'react';
import type { TextKey } from './i18n';
import { ContactPage } from './public/ContactPage';
import { GroupPage } from './public/GroupPage';
import { Home } from './public/Home';
import { PrivacyPage, TermsPage } from './public/LegalPage';
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
  group: { path: '/places/:category/:town', component: GroupPage as PublicPage['component'] },
  privacy: { path: '/privacy', component: PrivacyPage },
  terms: { path: '/terms', component: TermsPage },
} satisfies Record<string, PublicPage>;

export type PageKind = keyof typeof PUBLIC_PAGES;

/** The pages whose title is a text of theirs before the site's ("Contact us · Site"); the home is the site's title. */
export const PAGE_TITLE_KEYS = {
  '/contact': 'contact.heading',
  '/plans': 'plans.heading',
  '/privacy': 'footer.privacy',
  '/terms': 'footer.terms',
} as const satisfies Record<string, TextKey>;

/** A page's title as the server's head gives it, for a page reached in the browser (a place's is its own). */
export function pageTitle(path: string, siteTitle: string, t: (key: TextKey) => string): string {
  const key = PAGE_TITLE_KEYS[path as keyof typeof PAGE_TITLE_KEYS];
  return key ? `${t(key)} · ${siteTitle}` : siteTitle;
}
