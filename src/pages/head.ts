// A page's <head>: its own title and description, its canonical URL on PUBLIC_ORIGIN, its five
// language versions (hreflang, plus x-default = the unprefixed English one), Open Graph and
// Twitter tags for link previews, and a place's JSON-LD. Built as data by each page's loader
// (pages.ts), written here, put into the template's head slot.
import type { Lang } from '../i18n.js';
import { localizedPath } from '../../web/lib/languagePath.js';

export interface PageHead {
  title: string;
  description: string;
  /** the page's path, language aside ("/place/node/1") */
  rest: string;
  /** false: a page search engines must not index (an unknown place) */
  indexable: boolean;
  jsonLd?: Record<string, unknown>;
}

/** The link-preview picture (web/static): 1200 x 630, as Open Graph consumers want. */
export const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630 };

const OG_LOCALES: Record<Lang, string> = { en: 'en_US', es: 'es_ES', pt: 'pt_PT', it: 'it_IT', fr: 'fr_FR' };

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The URL of `rest` in `lang` on the site's public origin. */
export const pageUrl = (origin: string, lang: Lang, rest: string) => origin + localizedPath(lang, rest);

/**
 * The tags. `languages`: those the site offers (each page names only those); `siteName`: the
 * site's title in the page's language.
 */
export function headHtml(
  head: PageHead,
  lang: Lang,
  origin: string,
  languages: readonly Lang[],
  siteName: string,
): string {
  const canonical = pageUrl(origin, lang, head.rest);
  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;
  const tags = [`<title>${escapeHtml(head.title)}</title>`, meta('name', 'description', head.description)];
  if (!head.indexable) tags.push(meta('name', 'robots', 'noindex'));
  else {
    tags.push(`<link rel="canonical" href="${escapeHtml(canonical)}">`);
    for (const other of languages)
      tags.push(`<link rel="alternate" hreflang="${other}" href="${escapeHtml(pageUrl(origin, other, head.rest))}">`);
    const fallback = languages.includes('en') ? 'en' : languages[0];
    tags.push(`<link rel="alternate" hreflang="x-default" href="${escapeHtml(pageUrl(origin, fallback, head.rest))}">`);
  }
  tags.push(
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', canonical),
    meta('property', 'og:locale', OG_LOCALES[lang]),
    ...languages
      .filter((other) => other !== lang)
      .map((other) => meta('property', 'og:locale:alternate', OG_LOCALES[other])),
    meta('property', 'og:image', origin + OG_IMAGE.path),
    meta('property', 'og:image:width', String(OG_IMAGE.width)),
    meta('property', 'og:image:height', String(OG_IMAGE.height)),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
  );
  if (head.jsonLd)
    tags.push(`<script type="application/ld+json">${JSON.stringify(head.jsonLd).replace(/</g, '\\u003c')}</script>`);
  return tags.join('\n    ');
}
