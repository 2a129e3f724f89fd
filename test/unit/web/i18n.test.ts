// Every text of the site exists in all five languages (tsc checks the keys too; this test also
// catches empty texts, lost placeholders and English left in another language).
import { describe, expect, it } from 'vitest';
import { dictionaries } from '../../../web/i18n';
import { LANGUAGES } from '../../../web/lib/i18n';

const en = dictionaries.en;
// `{count}` and `{count, plural, one {...} other {...}}` both name the placeholder count.
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)(?:\}|, plural,)/g)].map((m) => m[1]).sort();

/** Texts that are rightly the same as in English in that language (names, loanwords, symbols). */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  es: ['contact.timeRange'],
  pt: ['nav.menu', 'contact.timeRange', 'category.cinema'],
  it: ['nav.home', 'nav.menu', 'contact.email', 'contact.emailUs', 'contact.timeRange'],
  fr: ['nav.contact', 'nav.menu', 'contact.message', 'contact.timeRange', 'category.pharmacy'],
};

describe('translations', () => {
  for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
    const dictionary = dictionaries[lang] as Record<string, string>;

    it(`${lang} has every key English has, and no other`, () => {
      const missing = Object.keys(en).filter((key) => !(key in dictionary));
      const extra = Object.keys(dictionary).filter((key) => !(key in en));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it(`${lang} has no empty text and keeps every placeholder`, () => {
      for (const [key, text] of Object.entries(en)) {
        expect(dictionary[key]?.trim(), `${lang} ${key}`).toBeTruthy();
        expect(placeholders(dictionary[key]), `${lang} ${key}`).toEqual(placeholders(text));
      }
    });

    it(`${lang} is translated, not English copied`, () => {
      const copied = Object.keys(en).filter(
        (key) => dictionary[key] === en[key as keyof typeof en] && !SAME_AS_ENGLISH[lang].includes(key),
      );
      expect(copied).toEqual([]);
      // The exceptions stay honest: each one really is the same text.
      expect(SAME_AS_ENGLISH[lang].filter((key) => dictionary[key] !== en[key as keyof typeof en])).toEqual([]);
    });
  }

  it('keeps the exact Spanish status labels of the spec', () => {
    expect([
      dictionaries.es['status.open'],
      dictionaries.es['status.closing_soon'],
      dictionaries.es['status.closed'],
    ]).toEqual(['Abierto ahora', 'Cierra pronto', 'Cerrado']);
  });

  it('keeps the spec texts in English', () => {
    expect(en['app.loading']).toBe('Loading...');
    expect(en['locator.search']).toBe('Search Near Me');
    expect(en['locator.searching']).toBe('Searching...');
    expect(en['locator.selectCategory']).toBe('Please select at least one category');
    expect(en['location.denied']).toBe('Location access denied. Using default location.');
    expect(en['location.insecure']).toBe(
      'Using default location. For GPS location, access via localhost or enable HTTPS.',
    );
    expect(en['location.needed']).toBe('Location access denied. Please enable location services.');
    expect(en['search.retrying']).toBe('Service temporarily unavailable. Retrying...');
    expect(en['search.unavailable']).toBe('Service temporarily unavailable. Please try again later.');
    expect(en['results.noneHint']).toBe('No results found. Try a different category or location.');
    expect(en['card.noAddress']).toBe('No address available');
    expect(en['results.loadMore']).toBe('Load More');
    expect(en['ads.sponsored']).toBe('Sponsored Ads');
    expect(en['plans.viewAll']).toBe('View All Plans');
    expect(en['plans.mostPopular']).toBe('Most Popular');
    expect(en['contact.success']).toBe('Message sent successfully');
    expect(en['contact.error']).toBe('Error sending message');
  });
});
