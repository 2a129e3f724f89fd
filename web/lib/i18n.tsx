// The visitor's language. On the public pages it is the path's ("/fr/..."; English unprefixed):
// the server renders that language, and the language menu moves to the same page in another.
// The choice is kept in localStorage under 'language' (the browser's language is detected at the
// first visit and kept there too); a visitor whose kept language differs from the page's is taken
// to their language's page once the page is in the browser (see useLanguageRedirect). The admin
// panel, which has no page per language, uses the kept language.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { isLang, LANGUAGES, type Lang } from '../../src/i18n';
import { localizedPath, splitLanguage } from './languagePath';

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

/** The browser's first language of ours, or English. */
function browserLanguage(): Lang {
  const candidates = typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  return candidates.map((tag) => tag?.toLowerCase().split('-')[0]).find(isLang) ?? 'en';
}

export function detectLanguage(): Lang {
  const stored = readStorage();
  if (isLang(stored)) return stored;
  const found = browserLanguage();
  writeStorage(found); // the detected language is cached too
  return found;
}

/**
 * The language a visitor on a page of `pathLang` should read, among those `offered`: the kept
 * one; at the first visit, on an unprefixed (English) page the browser's, on a prefixed page that
 * page's (they followed a link to it). The answer is kept. Browser only (reads localStorage).
 */
export function wantedLanguage(pathLang: Lang, prefixed: boolean, offered: readonly Lang[]): Lang {
  const stored = readStorage();
  if (isLang(stored) && offered.includes(stored)) return stored;
  const detected = browserLanguage();
  const wanted = !prefixed && offered.includes(detected) ? detected : pathLang;
  writeStorage(wanted);
  return wanted;
}

interface LanguageState {
  lang: Lang;
  setLang(lang: Lang): void;
}

const LanguageContext = createContext<LanguageState | null>(null);

/**
 * `pathLang`: the language of the page's path (public pages, rendered on the server too); null on
 * the admin panel, which reads the kept language (browser only). `initial`: without a path, a
 * language the page was asked for (the embedded locator's), instead of the visitor's.
 */
export function LanguageProvider({
  pathLang = null,
  initial,
  children,
}: {
  pathLang?: Lang | null;
  initial?: Lang;
  children: ReactNode;
}) {
  const [keptLang, setKeptLang] = useState<Lang>(() => pathLang ?? initial ?? detectLanguage());
  const lang = pathLang ?? keptLang;
  // the root router's navigate: absolute paths, whatever the language's base
  const [, navigate] = useLocation();
  const setLang = useCallback(
    (next: Lang) => {
      writeStorage(next);
      setKeptLang(next);
      if (pathLang === null) return;
      const { rest } = splitLanguage(window.location.pathname);
      navigate(localizedPath(next, rest) + window.location.search);
    },
    [pathLang, navigate],
  );
  // Into the admin from a public page: the page's language was the visitor's.
  useEffect(() => {
    if (pathLang) setKeptLang(pathLang);
  }, [pathLang]);
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
