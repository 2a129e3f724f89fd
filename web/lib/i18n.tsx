// The visitor's language: detected from the browser at first visit, kept in localStorage under
// 'language' (SPEC.md section 1), English as the fallback; <html lang> follows it.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { isLang, LANGUAGES, type Lang } from '../../src/i18n';

export { LANGUAGES, type Lang };
export const LANGUAGE_NAMES: Record<Lang, string> = {
  en: 'English',
  es: 'Español',
  pt: 'Português',
  it: 'Italiano',
  fr: 'Français',
};
const STORAGE_KEY = 'language';


function readStorage(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function writeStorage(lang: Lang): void {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // private mode or storage disabled: the choice lasts for this page only
  }
}

export function detectLanguage(): Lang {
  const stored = readStorage();
  if (isLang(stored)) return stored;
  const candidates = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  const found = candidates.map((tag) => tag?.toLowerCase().split('-')[0]).find(isLang) ?? 'en';
  writeStorage(found); // the detected language is cached too (SPEC.md section 1)
  return found;
}

interface LanguageState {
  lang: Lang;
  setLang(lang: Lang): void;
}

const LanguageContext = createContext<LanguageState | null>(null);

/** `initial`: a language the page was asked for (the embedded locator's), instead of the visitor's. */
export function LanguageProvider({ children, initial }: { children: ReactNode; initial?: Lang }) {
  const [lang, setLangState] = useState<Lang>(() => initial ?? detectLanguage());
  const setLang = useCallback((next: Lang) => {
    writeStorage(next);
    setLangState(next);
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  const value = useMemo(() => ({ lang, setLang }), [lang, setLang]);
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

export function useLanguage(): LanguageState {
  const state = useContext(LanguageContext);
  if (!state) throw new Error('useLanguage outside LanguageProvider');
  return state;
}

/**
 * A translator over a dictionary per language: `t('key', {count: 3})` fills `{count}`.
 * English is the type; every other language must have every key (checked by tsc and a test).
 */
export function makeTranslator<D extends Record<string, string>>(dictionaries: Record<Lang, D>) {
  return function useT() {
    const { lang } = useLanguage();
    return useCallback(
      (key: keyof D & string, params?: Record<string, string | number>) => {
        const text = dictionaries[lang][key] ?? dictionaries.en[key] ?? key;
        return params ? fillText(text, params, lang) : text;
      },
      [lang],
    );
  };
}

/** `{count, plural, one {# place} other {# places}}`: one option per plural category of the language. */
const PLURAL = /\{(\w+), plural,((?:\s*\w+\s*\{[^{}]*\})+)\s*\}/g;
const PLURAL_OPTION = /(\w+)\s*\{([^{}]*)\}/g;

/**
 * Fills a text's placeholders: `{name}` takes the value as given; a plural picks the option for
 * the number's plural category in that language (Intl.PluralRules: "1 visit", "2 visits", and
 * the rules of es/pt/it/fr), falling back to `other`, with `#` the number written in the language.
 */
export function fillText(text: string, params: Record<string, string | number>, lang: Lang): string {
  return text
    .replace(PLURAL, (whole, name: string, body: string) => {
      const value = Number(params[name]);
      if (!Number.isFinite(value)) return whole;
      const options = new Map([...body.matchAll(PLURAL_OPTION)].map((m) => [m[1], m[2]]));
      const option = options.get(new Intl.PluralRules(lang).select(value)) ?? options.get('other') ?? '';
      return option.replace(/#/g, new Intl.NumberFormat(lang).format(value));
    })
    .replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}
