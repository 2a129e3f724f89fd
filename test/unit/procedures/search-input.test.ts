// plainSearchInput (GET /api/places' input without zod) answers exactly what searchInput answers,
// or leaves the input to it: over every query a generator makes of usual and unusual values.
import { describe, expect, it } from 'vitest';
import { plainSearchInput, searchInput } from '../../../src/procedures/places.js';
import { normalizeQuery } from '../../../src/rest/plugin.js';
import { placesUrl } from '../../../web/lib/rest.js';

/** Values each key may take in a query: usual ones first, then edge cases and mistakes. */
const VALUES: Record<string, [usual: unknown[], odd: unknown[]]> = {
  active_categories: [['restaurant', 'pharmacy,atm', ['restaurant', 'pharmacy'], ['a,b', 'c']], ['', ',', 'x'.repeat(50), 'x'.repeat(51), [], null, undefined, 5, ['ok', 7], Array.from({ length: 101 }, () => 'atm'), Array.from({ length: 100 }, () => 'atm')]],
  lat: [['49.2827', '-33.8', '0', '-90', '90', '12.12345678901234567'], ['90.0000001', '-0', '1e1', '.5', '5.', ' 5', '49,2', 'abc', '', null, undefined, '12.123456789012345678', '1234', 42, ['1', '2'], 'Infinity', 'NaN']],
  lon: [['-123.1207', '180', '-180', '0'], ['180.5', '-0.0', '', 'x', undefined, '001.5']],
  radius: [['5000', '1', '50000'], ['0', '50001', '2.5', '-5', '', '0005', '1e3', undefined, 'abc', '9999999']],
  limit: [['100', '12', '500', '1'], ['501', '0', '', '1.0', undefined, ' 12']],
  open_now: [['1', '0', 'true', 'false', ''], ['yes', '2', undefined, null, true, ['1']]],
  city: [['Vancouver', '  Lisbon  ', ''], ['   ', 'x'.repeat(200), ` ${'x'.repeat(200)} `, 'x'.repeat(201), undefined, null, ['a', 'b'], 3]],
  q: [['café', '  tim  ', ''], ['x'.repeat(100), 'x'.repeat(101), undefined, ['a']]],
  lang: [['en', 'es', 'xx', ''], ['x'.repeat(20), 'x'.repeat(21), undefined, null, ['en']]],
  other: [['ignored'], [undefined, ['a', 'b']]],
};

/** A small deterministic generator (the same queries at every run). */
function* queries(count: number): Generator<Record<string, unknown>> {
  // mulberry32
  let seed = 7;
  const next = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * n);
  };
  for (let i = 0; i < count; i++) {
    const query: Record<string, unknown> = {};
    for (const [key, [usual, odd]] of Object.entries(VALUES)) {
      // each key absent half of the time; present, a usual value four times in five
      if (next(2) === 0) continue;
      const values = next(5) === 0 ? odd : usual;
      query[key] = values[next(values.length)];
    }
    yield query;
  }
}

describe('plainSearchInput', () => {
  it('answers exactly what searchInput answers, or leaves the input to it', () => {
    let answered = 0;
    let refusedByZod = 0;
    const seen = new Set<string>();
    for (const query of queries(20_000)) {
      const zod = searchInput.safeParse(query);
      const plain = plainSearchInput(query);
      if (!zod.success) refusedByZod++;
      seen.add(JSON.stringify(query));
      if (plain === undefined) continue;
      answered++;
      // what it answers, zod accepts, with the same keys (also those set to undefined) and values
      expect(zod.success, JSON.stringify(query)).toBe(true);
      expect(plain, JSON.stringify(query)).toStrictEqual(zod.data);
      expect(Object.keys(plain)).toEqual(Object.keys(zod.data!));
    }
    // the battery reaches both sides
    expect(answered).toBeGreaterThan(1_000);
    expect(refusedByZod).toBeGreaterThan(1_000);
    expect(seen.size).toBeGreaterThan(15_000);
  });

  it('answers the queries the public page and the API clients send', () => {
    const pageUrl = placesUrl({ categories: ['restaurant', 'pharmacy'], position: { lat: 49.2827, lon: -123.1207 }, lang: 'es', limit: 100 });
    const sent = [
      Object.fromEntries(new URL(pageUrl, 'http://x').searchParams),
      { active_categories: ['restaurant', 'pharmacy'], lat: '49.2827', lon: '-123.1207', radius: '5000' },
      { active_categories: 'atm', city: 'Lisbon', open_now: '1', limit: '12' },
      { active_categories: ['restaurant', 'pharmacy'], lat: '49.28273456789', lon: '-123.12071234', radius: '5000', limit: '500', lang: 'fr' },
    ];
    // a repeated key, as Fastify's query parser gives it
    const repeated = normalizeQuery({ active_categories: ['restaurant', 'pharmacy'], lat: '49.2827', lon: '-123.1207' });
    for (const query of [...sent, repeated]) {
      const plain = plainSearchInput(query);
      expect(plain, JSON.stringify(query)).toBeDefined();
      expect(plain).toStrictEqual(searchInput.parse(query));
    }
  });

  it('leaves to zod what only zod can word: a refused value, one of lat and lon, a strange object', () => {
    expect(plainSearchInput({ active_categories: 'atm', lat: '91', lon: '0' })).toBeUndefined();
    expect(plainSearchInput({ active_categories: 'atm', lat: '49' })).toBeUndefined();
    expect(plainSearchInput({ active_categories: 'atm', limit: '0' })).toBeUndefined();
    expect(plainSearchInput(Object.assign(Object.create({ lat: '1', lon: '2' }), { active_categories: 'atm' }))).toBeUndefined();
    expect(plainSearchInput(null)).toBeUndefined();
    expect(plainSearchInput(['atm'])).toBeUndefined();
  });
});
