// The language is in the path: English unprefixed ("/place/node/1"), the others under their code
// ("/fr/place/node/1", "/fr/" for the home page). Shared by the server and the browser.
import { LANGUAGES, type Lang } from '../../src/i18n';

const PREFIXED = new RegExp(`^/(${LANGUAGES.filter((lang) => lang !== 'en').join('|')})(/.*)?$`);

/** "/fr/contact" -> fr, "/contact"; "/contact" -> en, "/contact"; "/fr" -> fr, "/". */
export function splitLanguage(path: string): { lang: Lang; rest: string } {
  const match = PREFIXED.exec(path);
  if (!match) return { lang: 'en', rest: path || '/' };
  return { lang: match[1] as Lang, rest: match[2] || '/' };
}

/** The base the language's pages live under: "" for English, "/fr" for French. */
export const languageBase = (lang: Lang): string => (lang === 'en' ? '' : `/${lang}`);

/** A page's path in a language: ("fr", "/contact") -> "/fr/contact"; ("fr", "/") -> "/fr/". */
export function localizedPath(lang: Lang, rest: string): string {
  if (lang === 'en') return rest;
  return rest === '/' ? `/${lang}/` : `/${lang}${rest}`;
}

/** The admin panel keeps the visitor's stored language: it has no pages per language. */
export const isAdminPath = (rest: string): boolean => rest === '/admin' || rest.startsWith('/admin/');
