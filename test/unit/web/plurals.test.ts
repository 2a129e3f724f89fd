// Counted texts follow each language's plural rules ("1 visit", "2 visits"; French "0 visite"),
// in the admin's and the site's dictionaries alike.
import { describe, expect, it } from 'vitest';
import { adminDictionaries } from '../../../web/admin/i18n/index';
import { dictionaries } from '../../../web/i18n';
import { fillText, LANGUAGES } from '../../../web/lib/i18n';

const PLURAL = /\{(\w+), plural,((?:\s*\w+\s*\{[^{}]*\})+)\s*\}/g;

describe('plural texts', () => {
  it('picks the form of the language for the number, written the language’s way', () => {
    const visits = adminDictionaries.en.chartCaption;
    expect(fillText(visits, { total: 1 }, 'en')).toBe('1 visit in the last 30 days');
    expect(fillText(visits, { total: 0 }, 'en')).toBe('0 visits in the last 30 days');
    expect(fillText(visits, { total: 1234 }, 'en')).toBe('1,234 visits in the last 30 days');
    expect(fillText(adminDictionaries.fr.chartCaption, { total: 0 }, 'fr')).toBe('0 visite ces 30 derniers jours');
    expect(fillText(adminDictionaries.fr.chartCaption, { total: 2 }, 'fr')).toBe('2 visites ces 30 derniers jours');
    expect(fillText(adminDictionaries.es.searchCount, { count: 1 }, 'es')).toBe('1 búsqueda');
    expect(fillText(adminDictionaries.pt.searchCount, { count: 12345 }, 'pt')).toBe('12.345 buscas');
    expect(fillText(adminDictionaries.it.placesCount, { count: 1 }, 'it')).toBe('1 luogo');
    expect(fillText(dictionaries.en['place.closesIn'], { minutes: 1 }, 'en')).toBe('Closes in 1 minute');
    expect(fillText(dictionaries.fr['locator.selectedCount'], { count: 3 }, 'fr')).toBe('3 sélectionnées');
    // Plain placeholders beside a plural are filled too.
    expect(fillText(adminDictionaries.en.confirmRemoveSource, { name: 'Monaco', count: 1 }, 'en')).toBe(
      'Remove the source "Monaco" and its 1 place from the index?',
    );
  });

  it('leaves a plural whose value is not a number as it is, rather than guessing', () => {
    expect(fillText('{n, plural, one {# a} other {# b}}', { n: 'many' }, 'en')).toBe(
      '{n, plural, one {# a} other {# b}}',
    );
  });

  it('the searches chart has its own texts, not the visits chart’s, in every language', () => {
    for (const lang of LANGUAGES) {
      const texts = adminDictionaries[lang];
      expect(texts.searchesChartCaption, lang).not.toBe(texts.chartCaption);
      expect(texts.searchesChartSummary, lang).not.toBe(texts.chartSummary);
      expect(fillText(texts.searchesChartCaption, { total: 3 }, lang), lang).toContain(
        fillText(texts.searchCount, { count: 3 }, lang),
      );
    }
  });

  const all = LANGUAGES.flatMap((lang) => [
    ...Object.entries(adminDictionaries[lang] as Record<string, string>).map(([key, text]) => ({ lang, key, text })),
    ...Object.entries(dictionaries[lang] as Record<string, string>).map(([key, text]) => ({ lang, key, text })),
  ]);

  it('every plural has an "other" form that shows the number, and fills completely', () => {
    const plurals = all.filter(({ text }) => text.includes(', plural,'));
    expect(plurals.length).toBeGreaterThan(50);
    for (const { lang, key, text } of plurals) {
      for (const [, , body] of text.matchAll(PLURAL)) {
        const forms = new Map([...body.matchAll(/(\w+)\s*\{([^{}]*)\}/g)].map((m) => [m[1], m[2]]));
        expect(forms.get('other'), `${lang}.${key}`).toContain('#');
      }
      const params = Object.fromEntries([...text.matchAll(/\{(\w+)/g)].map((m) => [m[1], 1]));
      for (const n of [0, 1, 2, 5, 1000]) {
        const filled = fillText(text, Object.fromEntries(Object.keys(params).map((name) => [name, n])), lang);
        expect(filled, `${lang}.${key}`).not.toMatch(/[{}#]/);
      }
    }
  });

  it('no count of things is written without a plural (the "1 visits" kind)', () => {
    // A number placeholder followed by a counted noun must be a plural.
    const counted = /\{(count|total|places|imported|created|minutes)\}/;
    // "x of {total}" counts nothing; results.count.* are picked by Intl.PluralRules in the locator.
    const notCounted = new Set([
      'jobSequence',
      'ads.slide',
      'results.showing',
      'results.count.one',
      'results.count.other',
    ]);
    const sameForOneAndMany = new Set(['en.unreadCount', 'es.unreadCount', 'en.locator.selectedCount']);
    const unruled = all.filter(
      ({ lang, key, text }) => counted.test(text) && !notCounted.has(key) && !sameForOneAndMany.has(`${lang}.${key}`),
    );
    expect(unruled.map(({ lang, key }) => `${lang}.${key}`)).toEqual([]);
  });
});
