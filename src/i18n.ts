// The five languages of the site, and how a request picks one.
export const LANGUAGES = ['en', 'es', 'pt', 'it', 'fr'] as const;
export type Lang = (typeof LANGUAGES)[number];

export const isLang = (value: unknown): value is Lang => LANGUAGES.includes(value as Lang);

/** `lang` when it is one of ours, else the first of ours in Accept-Language, else English. */
export function pickLanguage(lang: string | undefined, acceptLanguage: string | undefined): Lang {
  if (isLang(lang)) return lang;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { base: tag.trim().toLowerCase().split('-')[0], q: q ? Number(q.slice(2)) || 0 : 1 };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  return ranked.map((entry) => entry.base).find(isLang) ?? 'en';
}
