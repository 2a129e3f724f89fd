// The public site's rules that need no browser: plan arithmetic, description parsing, the retry
// rule, the places query, settings normalisation, colours, media and phone links, formatting.
import { describe, expect, it } from 'vitest';
import { contrastRatio, readableShade, safeFontFamily, themeVariables } from '../../../web/lib/color';
import { formatDistance, formatPrice, weekdayName } from '../../../web/lib/format';
import { isLocalHost } from '../../../web/lib/geolocation';
import { isVideoMedia, safeLink } from '../../../web/lib/media';
import { backoffMs, isRetryable, MAX_RETRIES, searchWithRetry } from '../../../web/lib/placeSearch';
import { EVERYDAY_CATEGORIES, splitCategories } from '../../../web/lib/categories';
import { textBlocks } from '../../../web/lib/textBlocks';
import { dictionaries } from '../../../web/i18n/index';
import { CATEGORY_IDS } from '../../../src/places/model/category-ids';
import { annualPrice, annualSaving, isHighlighted, parseDescription } from '../../../web/lib/plans';
import { ApiError, locatorLink, placesUrl, readLocatorLink, type PlacesResponse } from '../../../web/lib/rest';
import { DEFAULT_SITE_SETTINGS, normalizeSettings } from '../../../web/lib/settings';
import { isSuccessText } from '../../../web/public/StatusBanner';
import { telLink } from '../../../web/public/ResultCards';

describe('plans', () => {
  it('annual price is round(12 x price x 0.8) and the saving round(12 x price x 0.2)', () => {
    expect([annualPrice(10), annualSaving(10)]).toEqual([96, 24]);
    expect([annualPrice(9.99), annualSaving(9.99)]).toEqual([96, 24]);
    expect([annualPrice(4.5), annualSaving(4.5)]).toEqual([43, 11]);
    expect([annualPrice(0), annualSaving(0)]).toEqual([0, 0]);
  });

  it('highlights premium by type or by a name with premium or full', () => {
    expect(isHighlighted({ type: 'premium', name: 'Gold' })).toBe(true);
    expect(isHighlighted({ type: 'pro', name: 'Premium Plus' })).toBe(true);
    expect(isHighlighted({ type: 'basic', name: 'FULL service' })).toBe(true);
    expect(isHighlighted({ type: 'pro', name: 'Pro' })).toBe(false);
  });

  it('reads a description as text, an object, or a JSON string of one', () => {
    expect(parseDescription('Just text')).toEqual({ text: 'Just text', features: [], languages: [] });
    expect(parseDescription({ features: ['A'], languages: ['en'] })).toEqual({
      text: null,
      features: ['A'],
      languages: ['en'],
    });
    expect(parseDescription('{"features":["A","B"],"languages":["fr"]}')).toEqual({
      text: null,
      features: ['A', 'B'],
      languages: ['fr'],
    });
    expect(parseDescription('{not json')).toEqual({ text: '{not json', features: [], languages: [] });
  });
});

describe("the locator's categories", () => {
  it('shows the everyday ones first, the others behind More categories, each once', () => {
    const { first, more } = splitCategories(CATEGORY_IDS);
    expect(first).toEqual(EVERYDAY_CATEGORIES);
    expect([...first, ...more].sort()).toEqual([...CATEGORY_IDS].sort());
    expect(more[0]).toBe('healthcare');
  });

  it('tops up the first row from the rest when the admin offers few everyday ones', () => {
    const offered = [
      'bank',
      'museum',
      'park',
      'library',
      'cinema',
      'theater',
      'gym',
      'playground',
      'camping',
      'wifi',
      'police',
    ] as const;
    const { first, more } = splitCategories(offered);
    expect(first).toEqual(['bank', 'museum', 'park', 'library', 'cinema', 'theater', 'gym', 'playground']);
    expect(more).toEqual(['camping', 'wifi', 'police']);
  });

  it('hides nothing behind More categories for one or two', () => {
    expect(splitCategories(['restaurant', 'pharmacy', 'bank'])).toEqual({
      first: ['restaurant', 'pharmacy', 'bank'],
      more: [],
    });
    const ten = [...EVERYDAY_CATEGORIES, 'museum', 'park'] as const;
    expect(splitCategories(ten)).toEqual({ first: [...ten], more: [] });
  });
});

describe("the legal pages' plain text", () => {
  it('reads paragraphs, "## " headings, "- " lists and line breaks, never markup', () => {
    const text = 'First line\r\nsame paragraph\n\n## Heading\n- one\n- two\n\n<b>Not bold</b>';
    expect(textBlocks(text)).toEqual([
      { kind: 'paragraph', lines: ['First line', 'same paragraph'] },
      { kind: 'heading', text: 'Heading' },
      { kind: 'list', items: ['one', 'two'] },
      { kind: 'paragraph', lines: ['<b>Not bold</b>'] },
    ]);
    expect(textBlocks('  \n\n ')).toEqual([]);
  });

  it('gives every default text headings and lists in all five languages', () => {
    for (const dictionary of Object.values(dictionaries)) {
      for (const key of ['legal.privacyDefault', 'legal.termsDefault'] as const) {
        const kinds = textBlocks(dictionary[key]).map((block) => block.kind);
        expect(kinds.filter((kind) => kind === 'heading').length).toBeGreaterThanOrEqual(4);
        expect(kinds[0]).toBe('paragraph');
      }
      expect(textBlocks(dictionary['legal.privacyDefault']).filter((block) => block.kind === 'list').length).toBe(3);
    }
  });
});

describe('place search retries', () => {
  const ok: PlacesResponse = { results: [], city_center: { lat: 1, lon: 2 } };

  it('waits 1 s then 2 s, at most 2 retries', () => {
    expect(MAX_RETRIES).toBe(2);
    expect([backoffMs(0), backoffMs(1)]).toEqual([1000, 2000]);
  });

  it('retries 429, 503 and "Service temporarily unavailable", nothing else', () => {
    expect(isRetryable(new ApiError(503, 'Service temporarily unavailable'))).toBe(true);
    expect(isRetryable(new ApiError(429, null))).toBe(true);
    expect(isRetryable(new ApiError(502, 'Service temporarily unavailable: upstream'))).toBe(true);
    expect(isRetryable(new ApiError(400, 'Please select at least one category'))).toBe(false);
    expect(isRetryable(new TypeError('Failed to fetch'))).toBe(false);
    // The source failed where the site holds no places: no retry, the page says so at once.
    expect(isRetryable(new ApiError(503, 'Service temporarily unavailable', true))).toBe(false);
  });

  it('succeeds after two failures, having waited 1 s and 2 s', async () => {
    const waits: number[] = [];
    let calls = 0;
    const result = await searchWithRetry('/api/places', {
      sleep: async (ms) => void waits.push(ms),
      fetchPlaces: async () => {
        if (++calls < 3) throw new ApiError(503, 'Service temporarily unavailable');
        return ok;
      },
    });
    expect(result).toBe(ok);
    expect(waits).toEqual([1000, 2000]);
  });

  it('gives up after the third failure, and at once on an error that is not retried', async () => {
    let calls = 0;
    const failWith = (error: Error) => ({
      sleep: async () => undefined,
      fetchPlaces: async (): Promise<PlacesResponse> => {
        calls++;
        throw error;
      },
    });
    await expect(searchWithRetry('/x', failWith(new ApiError(503, null)))).rejects.toThrow(ApiError);
    expect(calls).toBe(3);
    calls = 0;
    await expect(searchWithRetry('/x', failWith(new ApiError(400, 'lat: bad')))).rejects.toMatchObject({ status: 400 });
    expect(calls).toBe(1);
  });

  it('builds the query: one active_categories per category, position, city, open_now, lang', () => {
    const url = new URL(
      placesUrl({
        categories: ['restaurant', 'bank'],
        lang: 'es',
        position: { lat: 38.9072, lon: -77.0369 },
        openNow: true,
        limit: 500,
      }),
      'http://x',
    );
    expect(url.pathname).toBe('/api/places');
    expect(url.searchParams.getAll('active_categories')).toEqual(['restaurant', 'bank']);
    expect([url.searchParams.get('lat'), url.searchParams.get('lon')]).toEqual(['38.907200', '-77.036900']);
    expect([url.searchParams.get('open_now'), url.searchParams.get('lang'), url.searchParams.get('limit')]).toEqual([
      '1',
      'es',
      '500',
    ]);
    const byCity = new URL(placesUrl({ categories: ['park'], lang: 'en', city: '  Lisbon ' }), 'http://x');
    expect([
      byCity.searchParams.get('city'),
      byCity.searchParams.get('lat'),
      byCity.searchParams.get('open_now'),
    ]).toEqual(['Lisbon', null, null]);
    const access = new URL(
      placesUrl({
        categories: ['park'],
        lang: 'en',
        city: 'Lisbon',
        wheelchair: 'limited',
        travel: 'bike',
        openNow: true,
      }),
      'http://x',
    );
    expect([
      access.searchParams.get('wheelchair'),
      access.searchParams.get('travel'),
      access.searchParams.get('open_now'),
    ]).toEqual(['limited', 'bike', '1']);
  });

  it('keeps the wheelchair filter and the way of travelling in the page address, with open now and categories', () => {
    const link = locatorLink({
      categories: ['pharmacy', 'atm'],
      city: 'Lisbon',
      openNow: true,
      wheelchair: 'yes',
      travel: 'walk',
    });
    expect(link).toBe('/?c=pharmacy,atm&city=Lisbon&open=1&wc=yes&by=walk');
    expect(readLocatorLink(link.slice(1))).toMatchObject({
      categories: ['pharmacy', 'atm'],
      openNow: true,
      wheelchair: 'yes',
      travel: 'walk',
    });
    // values it does not know are left out, not passed on
    expect(readLocatorLink('?c=park&wc=maybe&by=fly')).toMatchObject({ wheelchair: undefined, travel: undefined });
  });
});

describe('settings', () => {
  it('accepts lists as JSON strings and the camelCase names', () => {
    const settings = normalizeSettings({
      siteTitle: 'Mine',
      fontFamily: 'Lato, sans-serif',
      allowed_categories: '["bank","atm"]',
      languages: '["es","xx","fr"]',
    });
    expect(settings).toMatchObject({
      siteTitle: 'Mine',
      fontFamily: 'Lato, sans-serif',
      allowedCategories: ['bank', 'atm'],
      languages: ['es', 'fr'],
    });
  });

  it('fills defaults for what is missing', () => {
    expect(normalizeSettings(null)).toEqual(DEFAULT_SITE_SETTINGS);
    expect(normalizeSettings({ site_title: '  ', languages: [] }).languages).toEqual(['en', 'es', 'pt', 'it', 'fr']);
  });
});

describe('colours', () => {
  it('darkens a theme colour just enough for white text (4.5:1)', () => {
    for (const colour of ['#3B82F6', '#10B981', '#FFFF00', '#FF8800']) {
      const shade = readableShade(colour, '#3B82F6');
      expect(contrastRatio(shade, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    }
    expect(readableShade('#1e3a8a', '#3B82F6')).toBe('#1e3a8a'); // already dark enough
  });

  it('puts only a safe font list in the style', () => {
    expect(safeFontFamily('Open Sans, sans-serif')).toBe('Open Sans, sans-serif');
    expect(safeFontFamily('x;}body{display:none')).toBe('xbodydisplaynone');
    expect(themeVariables('red', '#10B981', '')['--color-primary-raw']).toBe('#3B82F6');
  });
});

describe('small rules', () => {
  it('tells video media by name', () => {
    expect(['/uploads/a.mp4', 'https://x/b.webm?x=1', 'c.OGG', '/uploads/d.ogv'].every(isVideoMedia)).toBe(true);
    expect(['/uploads/a.png', 'https://x/video.jpg'].some(isVideoMedia)).toBe(false);
  });

  it('follows only http(s) links', () => {
    expect(safeLink('https://example.com/a')).toBe('https://example.com/a');
    expect(safeLink('javascript:alert(1)')).toBe(null);
    expect(safeLink('')).toBe(null);
  });

  it('makes a dialable tel: link, or none', () => {
    expect(telLink('+1 (202) 555-0100')).toBe('tel:+12025550100');
    expect(telLink('+34 912 345 678; +34 600 000 000')).toBe('tel:+34912345678');
    expect(telLink(null)).toBe(null);
    expect(telLink('n/a')).toBe(null);
  });

  it('knows the local hosts', () => {
    expect(['localhost', 'app.localhost', '127.0.0.1', '[::1]'].every(isLocalHost)).toBe(true);
    expect(['places.test', '192.168.1.10', 'example.com'].some(isLocalHost)).toBe(false);
  });

  it('colours a banner green only when its English text says successfully', () => {
    expect(isSuccessText('Message sent successfully')).toBe(true);
    expect(isSuccessText('Error sending message')).toBe(false);
  });

  it('formats with Intl in the chosen language', () => {
    expect(formatDistance(0.347, 'en')).toBe('350 m');
    expect(formatDistance(1.234, 'en')).toBe('1.2 km');
    expect(formatDistance(1.234, 'fr')).toBe(
      new Intl.NumberFormat('fr', { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 }).format(1.2),
    );
    expect(formatPrice(9.99, 'en')).toBe('$9.99');
    expect(formatPrice(96, 'en')).toBe('$96');
    expect(weekdayName(0, 'es')).toBe('lunes');
    expect(weekdayName(6, 'en')).toBe('Sunday');
  });
});

describe('distance units', async () => {
  const { distanceUnit } = await import('../../../web/lib/format');
  it('follows the setting, else the region the locale names', () => {
    expect(distanceUnit('auto', 'en-US')).toBe('mi');
    expect(distanceUnit('auto', 'en-GB')).toBe('mi');
    expect(distanceUnit('auto', 'en')).toBe('km');
    expect(distanceUnit('auto', 'en-IE')).toBe('km');
    expect(distanceUnit('auto', 'pt-BR')).toBe('km');
    expect(distanceUnit('auto', undefined)).toBe('km');
    expect(distanceUnit('auto', 'not a locale!')).toBe('km');
    expect(distanceUnit('km', 'en-US')).toBe('km');
    expect(distanceUnit('mi', 'fr-FR')).toBe('mi');
  });
  it('formats miles and feet through Intl', () => {
    expect(formatDistance(1.609344 * 2.34, 'en', 'mi')).toBe('2.3 mi');
    expect(formatDistance(1.609344 * 12.4, 'en', 'mi')).toBe('12 mi');
    expect(formatDistance(0.1, 'en', 'mi')).toBe('330 ft');
    expect(formatDistance(1.609344 * 0.5, 'fr', 'mi')).toBe(
      new Intl.NumberFormat('fr', { style: 'unit', unit: 'mile', maximumFractionDigits: 1 }).format(0.5),
    );
    expect(formatDistance(1.234, 'en', 'km')).toBe('1.2 km');
  });
});

describe("the place page's next change", async () => {
  const { nextChangeText } = await import('../../../web/public/PlacePage');
  const { dictionaries } = await import('../../../web/i18n');
  const { fillText } = await import('../../../web/lib/i18n');
  const translator = (lang: 'en' | 'es') =>
    ((key: string, params: Record<string, string | number> = {}) =>
      fillText((dictionaries[lang] as Record<string, string>)[key]!, params, lang)) as Parameters<
      typeof nextChangeText
    >[1];
  // Wednesday (weekday 2) is today in these hours.
  const hours = (next_change: { local_time: string; weekday: number; opens: boolean; in_minutes: number }) => ({
    timezone: 'Europe/Madrid',
    days: Array.from({ length: 7 }, (_, weekday) => ({
      date: `2026-11-${16 + weekday}`,
      weekday,
      today: weekday === 2,
      intervals: [],
    })),
    next_change: { at: '2026-11-18T08:00:00.000Z', ...next_change },
  });

  it('says when it opens: today at a time, or on another day', () => {
    expect(
      nextChangeText(hours({ local_time: '09:00', weekday: 2, opens: true, in_minutes: 90 }), translator('en'), 'en'),
    ).toBe('Opens at 9:00 AM');
    expect(
      nextChangeText(hours({ local_time: '09:00', weekday: 2, opens: true, in_minutes: 90 }), translator('es'), 'es'),
    ).toBe('Abre a las 9:00');
    expect(
      nextChangeText(hours({ local_time: '09:00', weekday: 0, opens: true, in_minutes: 5000 }), translator('en'), 'en'),
    ).toBe('Opens Monday at 9:00 AM');
    expect(
      nextChangeText(hours({ local_time: '10:30', weekday: 3, opens: true, in_minutes: 2000 }), translator('es'), 'es'),
    ).toBe('Abre el jueves a las 10:30');
  });

  it('says when it closes: in minutes within the hour, else at a time', () => {
    expect(
      nextChangeText(hours({ local_time: '21:40', weekday: 2, opens: false, in_minutes: 40 }), translator('en'), 'en'),
    ).toBe('Closes in 40 minutes');
    expect(
      nextChangeText(hours({ local_time: '22:00', weekday: 2, opens: false, in_minutes: 600 }), translator('es'), 'es'),
    ).toBe('Cierra a las 22:00');
    expect(
      nextChangeText(hours({ local_time: '00:00', weekday: 3, opens: false, in_minutes: 0 }), translator('en'), 'en'),
    ).toBe('Closes in 1 minute');
    expect(
      nextChangeText(hours({ local_time: '00:00', weekday: 3, opens: false, in_minutes: 1 }), translator('es'), 'es'),
    ).toBe('Cierra en 1 minuto');
  });
});
