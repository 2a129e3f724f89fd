// The admin's texts in the five languages. English is the type: a missing key in another
// language fails tsc (`satisfies`), and test/web/admin-i18n.test.ts checks the placeholders.
import { makeTranslator } from '../../lib/i18n';
import { en } from './en';
import { es } from './es';
import { fr } from './fr';
import { it } from './it';
import { pt } from './pt';

export const adminDictionaries = { en, es, pt, it, fr };
export type TextKey = keyof typeof en;
export type Translate = (key: TextKey, params?: Record<string, string | number>) => string;

export const useT: () => Translate = makeTranslator(adminDictionaries);

/** A status banner's text; green when the English text says 'successfully'. */
export interface Notice {
  text: string;
  success: boolean;
}

export function notice(t: Translate, key: TextKey, params?: Record<string, string | number>): Notice {
  return { text: t(key, params), success: en[key].includes('successfully') };
}
