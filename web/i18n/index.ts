// The site's texts in the five languages, and the hook that picks the visitor's.
import { fillText, makeTranslator, type Lang } from '../lib/i18n';
import en, { type Dictionary, type TextKey } from './en';
import es from './es';
import fr from './fr';
import it from './it';
import pt from './pt';

export type { Dictionary, TextKey };
export const dictionaries: Record<Lang, Dictionary> = { en, es, pt, it, fr };

/** `const t = useT(); t('nav.home')`; `t('footer.copyright', { year, site })` fills placeholders. */
export const useT = makeTranslator(dictionaries);
export type Translate = ReturnType<typeof useT>;

/** The same texts outside React (the server's page heads): `translate('fr', 'nav.home')`. */
export function translate(lang: Lang, key: TextKey, params?: Record<string, string | number>): string {
  const text = dictionaries[lang][key] ?? dictionaries.en[key] ?? key;
  return params ? fillText(text, params, lang) : text;
}
