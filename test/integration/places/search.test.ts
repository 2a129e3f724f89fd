// Issue 3, points 3, 4 and 5 through the places.search procedure (tRPC caller, no HTTP).
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gazetteer } from '../../../src/places/model/gazetteer.js';
import { distanceKm } from '../../../src/places/model/geo.js';
import { adminSession, buildTestApp, callerFor, expectTRPCError, testClock, type TestApp } from '../../helpers.js';
import { EXTRACTS, placesCaller, zonedTime, type LogLine } from '../../support/places.js';

/** Wednesday 18 November 2026, noon in Vancouver. */
const WEDNESDAY_NOON_PST = zonedTime('2026-11-18T12:00:00', 'America/Vancouver');
const DOWNTOWN = { lat: 49.2827, lon: -123.1207 };
const LONDON_DRUGS = { lat: 49.2328094, lon: -123.0351511 };
const ANDORRA_LA_VELLA = { lat: 42.5078, lon: 1.5342 };

describe('places.search', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({
      clock: testClock(WEDNESDAY_NOON_PST),
      imported: { extracts: [EXTRACTS.vancouver, EXTRACTS.andorra, EXTRACTS.monaco] },
    });
  });
  afterAll(() => t.close());

  // Through the procedure an admin uses, so that any settings cache sees the change.
  const setSetting = async (key: string, value: unknown) =>
    (await callerFor(t, { session: await adminSession(t) })).settings.save({ [key]: value });

  it('answers the nearest places of the categories, within 5 km by default, with every field', async () => {
    const answer = await placesCaller(t).search({ active_categories: ['restaurant', 'pharmacy'], ...DOWNTOWN });
    expect(answer.city_center).toEqual(DOWNTOWN);
    expect(answer.error).toBeUndefined();
    expect(answer.results.length).toBe(100); // the default limit; downtown has more
    for (const [i, r] of answer.results.entries()) {
      expect(Object.keys(r).sort()).toEqual([
        'address',
        'address_source',
        'category',
        'distance',
        'id',
        'lat',
        'lon',
        'name',
        'opening_hours',
        'phone_number',
        'source',
        'status',
        'status_label',
        'unnamed',
        'website',
        'wheelchair',
      ]);
      expect(r.source).toBe('osm');
      expect(r.id).toMatch(/^(node|way|relation)\/\d+$/);
      expect(['restaurant', 'pharmacy']).toContain(r.category);
      expect(r.distance).toBeCloseTo(distanceKm(DOWNTOWN.lat, DOWNTOWN.lon, r.lat, r.lon), 3);
      expect(r.distance).toBeLessThanOrEqual(5);
      if (i > 0) expect(r.distance).toBeGreaterThanOrEqual(answer.results[i - 1].distance);
      expect(['open', 'closing_soon', 'closed', 'unknown']).toContain(r.status);
      expect([null, 'yes', 'limited', 'no']).toContain(r.wheelchair);
      expect(r.address === null || r.address.length > 0).toBe(true);
    }
  });

  it('honours radius (metres) and limit', async () => {
    const all = await placesCaller(t).search({
      active_categories: ['restaurant'],
      ...DOWNTOWN,
      radius: '800',
      limit: '500',
    });
    expect(all.results.length).toBeGreaterThan(20);
    expect(all.results.length).toBeLessThan(500);
    expect(Math.max(...all.results.map((r) => r.distance))).toBeLessThanOrEqual(0.8);
    const three = await placesCaller(t).search({ active_categories: 'restaurant', ...DOWNTOWN, radius: 800, limit: 3 });
    expect(three.results).toEqual(all.results.slice(0, 3));
  });

  it('accepts what a query string sends: strings, repeated or comma-separated categories, empty values', async () => {
    const fromStrings = await placesCaller(t).search({
      active_categories: 'restaurant,pharmacy',
      lat: '49.2827',
      lon: '-123.1207',
      open_now: '0',
      city: '',
      limit: '10',
    });
    const fromValues = await placesCaller(t).search({
      active_categories: ['restaurant', 'pharmacy'],
      ...DOWNTOWN,
      limit: 10,
    });
    expect(fromStrings).toEqual(fromValues);
  });

  it('refuses a search without a category, with unknown categories, or outside the allowed ones', async () => {
    await expectTRPCError(
      placesCaller(t).search({ ...DOWNTOWN }),
      'BAD_REQUEST',
      /^Please select at least one category$/,
    );
    await expectTRPCError(
      placesCaller(t).search({ active_categories: [], ...DOWNTOWN }),
      'BAD_REQUEST',
      /^Please select at least one category$/,
    );
    await expectTRPCError(
      placesCaller(t).search({ active_categories: ' , ', ...DOWNTOWN }),
      'BAD_REQUEST',
      /^Please select at least one category$/,
    );
    await expectTRPCError(
      placesCaller(t).search({ active_categories: ['pizza'], ...DOWNTOWN }),
      'BAD_REQUEST',
      /^Unknown category: pizza$/,
    );
    await expectTRPCError(
      placesCaller(t).search({ active_categories: ['pizza', 'restaurant', 'bar'], ...DOWNTOWN }),
      'BAD_REQUEST',
      /^Unknown categories: pizza, bar$/,
    );
    await setSetting('allowed_categories', ['restaurant', 'pharmacy']);
    try {
      await expectTRPCError(
        placesCaller(t).search({ active_categories: ['restaurant', 'camping'], ...DOWNTOWN }),
        'BAD_REQUEST',
        /^Category not allowed: camping$/,
      );
      await expectTRPCError(
        placesCaller(t).search({ active_categories: ['wifi', 'camping'], ...DOWNTOWN }),
        'BAD_REQUEST',
        /^Categories not allowed: wifi, camping$/,
      );
      expect(
        (await placesCaller(t).search({ active_categories: ['pharmacy'], ...DOWNTOWN })).results.length,
      ).toBeGreaterThan(0);
    } finally {
      await setSetting('allowed_categories', []);
    }
    // an empty list allows every category
    expect((await placesCaller(t).search({ active_categories: ['wifi'], ...DOWNTOWN })).results.length).toBeGreaterThan(
      0,
    );
  });

  it.each([
    [{ lat: 91, lon: 0 }, /^lat: must be between -90 and 90$/],
    [{ lat: -90.5, lon: 0 }, /^lat: must be between -90 and 90$/],
    [{ lat: 0, lon: 180.01 }, /^lon: must be between -180 and 180$/],
    [{ lat: 'north', lon: 0 }, /^lat: must be a number$/],
    [{ lat: 49.28 }, /^lon: is required with lat$/],
    [{ lon: -123 }, /^lat: is required with lon$/],
    [{ ...DOWNTOWN, radius: 50_001 }, /^radius: must be between 1 and 50000$/],
    [{ ...DOWNTOWN, radius: 0 }, /^radius: must be between 1 and 50000$/],
    [{ ...DOWNTOWN, limit: 501 }, /^limit: must be between 1 and 500$/],
    [{ ...DOWNTOWN, limit: 2.5 }, /^limit: must be a whole number$/],
    [{ ...DOWNTOWN, open_now: 'maybe' }, /^open_now: must be 1 or 0$/],
  ])('refuses %j: %s', async (input, message) => {
    await expectTRPCError(
      placesCaller(t).search({ active_categories: ['restaurant'], ...input }),
      'BAD_REQUEST',
      message,
    );
  });

  it('allows the largest radius and limit', async () => {
    const wide = await placesCaller(t).search({
      active_categories: ['hospital'],
      ...DOWNTOWN,
      radius: 50_000,
      limit: 500,
    });
    expect(wide.results.length).toBeGreaterThan(5);
  });

  it('names a place in the request’s language when it has name:<lang>, else by its own name', async () => {
    const at = { active_categories: ['restaurant'], ...ANDORRA_LA_VELLA, radius: 100 };
    const inSpanish = await placesCaller(t).search({ ...at, lang: 'es' });
    const inEnglish = await placesCaller(t).search({ ...at, lang: 'en' });
    const es = inSpanish.results.find((r) => r.id === 'node/4448379096')!;
    const en = inEnglish.results.find((r) => r.id === 'node/4448379096')!;
    expect(es.name).toBe('Tertúlia'); // name:es
    expect(en.name).toBe('Tertulia'); // no name:en: the name
    const hotel = { active_categories: ['hotel'], lat: 42.5085179, lon: 1.5326672, radius: 10 };
    expect((await placesCaller(t).search({ ...hotel, lang: 'fr' })).results[0].name).toBe('Hôtel Valmar');
    expect((await placesCaller(t).search({ ...hotel, lang: 'it' })).results[0].name).toBe('Hotel Valmar');
  });

  it('an unnamed place shows its category’s name in the language, marked unnamed, with an address from around it', async () => {
    const library = { active_categories: ['library'], lat: 49.2195944, lon: -123.0668488, radius: 5 };
    const es = (await placesCaller(t).search({ ...library, lang: 'es' })).results[0];
    expect(es).toMatchObject({
      id: 'node/249407303',
      name: 'Biblioteca',
      unnamed: true,
      address: 'Argyle Street, Vancouver V5P 3Y9',
      address_source: 'nearby',
      category: 'library',
      phone_number: null,
    });
    expect((await placesCaller(t).search({ ...library, lang: 'pt' })).results[0].name).toBe('Biblioteca');
    expect((await placesCaller(t).search({ ...library, lang: 'fr' })).results[0].name).toBe('Bibliothèque');
  });

  it('shows each place under the most specific requested category', async () => {
    const near = { ...LONDON_DRUGS, radius: 20 };
    const asked = await placesCaller(t).search({ active_categories: ['amenity', 'healthcare', 'pharmacy'], ...near });
    expect(asked.results.find((r) => r.id === 'node/799580956')!.category).toBe('pharmacy');
    const broad = await placesCaller(t).search({ active_categories: ['amenity', 'healthcare'], ...near });
    expect(broad.results.find((r) => r.id === 'node/799580956')!.category).toBe('healthcare');
  });

  it('tells open now in the request’s language (Spanish: Abierto ahora / Cierra pronto / Cerrado)', async () => {
    const near = { active_categories: ['pharmacy'], ...LONDON_DRUGS, radius: 20 };
    const es = (await placesCaller(t).search({ ...near, lang: 'es' })).results.find((r) => r.id === 'node/799580956')!;
    expect(es).toMatchObject({
      status: 'open',
      status_label: 'Abierto ahora',
      opening_hours: 'Mo-Sa 09:00-22:00; Su 10:00-20:00; PH 09:00-21:00',
    });
    // the language of the request context (Accept-Language) when `lang` is absent or not ours
    const fr = await placesCaller(t, { lang: 'fr' }).search({ ...near, lang: 'de' });
    expect(fr.results.find((r) => r.id === 'node/799580956')!.status_label).toBe('Ouvert maintenant');

    t.clock.set(zonedTime('2026-11-18T21:30:00', 'America/Vancouver')); // 21:30, it closes at 22:00
    try {
      const soon = (await placesCaller(t).search({ ...near, lang: 'es' })).results.find(
        (r) => r.id === 'node/799580956',
      )!;
      expect(soon).toMatchObject({ status: 'closing_soon', status_label: 'Cierra pronto' });
      t.clock.set(zonedTime('2026-11-18T23:00:00', 'America/Vancouver'));
      const closed = (await placesCaller(t).search({ ...near, lang: 'es' })).results.find(
        (r) => r.id === 'node/799580956',
      )!;
      expect(closed).toMatchObject({ status: 'closed', status_label: 'Cerrado' });
    } finally {
      t.clock.set(WEDNESDAY_NOON_PST);
    }
  });

  it('open_now=1 keeps only places that are open or closing soon', async () => {
    const base = { active_categories: ['restaurant', 'pharmacy', 'bank'], ...DOWNTOWN, radius: 1500, limit: 500 };
    const every = await placesCaller(t).search(base);
    expect(every.results.length).toBeLessThan(500); // all of them, so the filtered list can be compared
    const open = await placesCaller(t).search({ ...base, open_now: '1' });
    expect(open.results.length).toBeGreaterThan(0);
    expect(open.results.every((r) => r.status === 'open' || r.status === 'closing_soon')).toBe(true);
    expect(open.results).toEqual(every.results.filter((r) => r.status === 'open' || r.status === 'closing_soon'));
    expect(every.results.some((r) => r.status === 'unknown')).toBe(true);
  });

  it('searches around a city when there is no position, and answers its centre', async () => {
    const vancouver = gazetteer().find('Vancouver')!;
    const answer = await placesCaller(t).search({ active_categories: ['library'], city: 'vancouver, ca' });
    expect(answer.city_center).toEqual({ lat: vancouver.lat, lon: vancouver.lon });
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results[0].distance).toBeCloseTo(
      distanceKm(vancouver.lat, vancouver.lon, answer.results[0].lat, answer.results[0].lon),
      3,
    );
    // with a position too, the search is at the position; city_center is still the city's
    const both = await placesCaller(t).search({ active_categories: ['library'], city: 'Vancouver', ...LONDON_DRUGS });
    expect(both.city_center).toEqual({ lat: vancouver.lat, lon: vancouver.lon });
    expect(both.results[0].distance).toBeCloseTo(
      distanceKm(LONDON_DRUGS.lat, LONDON_DRUGS.lon, both.results[0].lat, both.results[0].lon),
      3,
    );
  });

  it('an unknown city is a 400 "City not found"', async () => {
    await expectTRPCError(
      placesCaller(t).search({ active_categories: ['library'], city: 'Atlantis of the Deep' }),
      'BAD_REQUEST',
      /^City not found$/,
    );
    await expectTRPCError(
      placesCaller(t).search({ active_categories: ['library'], city: 'Qwxzyville', ...DOWNTOWN }),
      'BAD_REQUEST',
      /^City not found$/,
    );
  });

  it('uses the default_city setting when there is neither position nor city', async () => {
    await expectTRPCError(
      placesCaller(t).search({ active_categories: ['bank'] }),
      'BAD_REQUEST',
      /^Please give lat and lon, or a city$/,
    );
    await setSetting('default_city', 'Andorra la Vella');
    try {
      const answer = await placesCaller(t).search({ active_categories: ['bank'] });
      const andorra = gazetteer().find('Andorra la Vella')!;
      expect(answer.city_center).toEqual({ lat: andorra.lat, lon: andorra.lon });
      expect(answer.results.length).toBeGreaterThan(0);
      await setSetting('default_city', 'Nowhere Town Of Nothing');
      const logs: LogLine[] = [];
      await expectTRPCError(
        placesCaller(t, { logs }).search({ active_categories: ['bank'] }),
        'BAD_REQUEST',
        /^Please give lat and lon, or a city$/,
      );
      expect(logs.some((l) => l.level === 'warn' && JSON.stringify(l.obj).includes('Nowhere Town'))).toBe(true);
    } finally {
      await setSetting('default_city', '');
    }
  });

  it('always answers city_center, even with no results', async () => {
    const answer = await placesCaller(t).search({ active_categories: ['camping'], lat: 10, lon: 10 });
    expect(answer).toEqual({ results: [], city_center: { lat: 10, lon: 10 }, coverage: 'none' });
  });

  it('throws only TRPCErrors', async () => {
    const error = await placesCaller(t)
      .search({ active_categories: ['nope'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCError);
  });
});
