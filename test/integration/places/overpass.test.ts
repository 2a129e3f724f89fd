// Issue 3, point 6: the live source, against a fake Overpass on loopback serving real DC data.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { categoriesInMask, categorize } from '../../../src/places/model/categories.js';
import type { CategoryId } from '../../../src/places/model/category-ids.js';
import { buildQuery, OverpassClient, parseRetryAfter } from '../../../src/places/search/overpass.js';
import {
  LIVE_CACHE_MS,
  PlacesService,
  SearchError,
  type SearchParams,
  type SearchResponse,
} from '../../../src/places/search/service.js';
import { distanceKm } from '../../../src/places/model/geo.js';
import { testClock, type TestClock } from '../../helpers.js';
import { dcElements, evaluateQuery, startFakeOverpass, type FakeOverpass } from '../../support/fake-overpass.js';
import { tempDb, type TempDb } from '../../support/places.js';

const WHITE_HOUSE = { lat: 38.8977, lon: -77.0365 };
const DUPONT = { lat: 38.9096, lon: -77.0434 };
/** Places the DC extract does not cover (Virginia countryside, Maryland...). */
const EMPTY_AREAS = [
  { lat: 38.7, lon: -77.4 },
  { lat: 38.6, lon: -77.5 },
  { lat: 39.1, lon: -76.9 },
  { lat: 39.2, lon: -77.2 },
];
const SITE = 'https://places.example.org';

async function search(
  service: PlacesService,
  at: { lat: number; lon: number },
  categories: CategoryId[],
  radiusM = 1000,
): Promise<SearchResponse> {
  const params: SearchParams = { active_categories: categories, lat: at.lat, lon: at.lon, radius: radiusM, lang: 'en' };
  return (await service.search(params, { allowedCategories: [], defaultCity: '' })).objects();
}

async function failure(promise: Promise<unknown>): Promise<SearchError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SearchError);
  return error as SearchError;
}

describe('the Overpass query', () => {
  it('asks for all the categories at once, around the point, with a server timeout', () => {
    const query = buildQuery(38.8977, -77.0365, 1500, ['pharmacy', 'gym', 'amenity']);
    expect(query).toMatch(/^\[out:json\]\[timeout:15\];/);
    expect(query).toContain('nwr["amenity"="pharmacy"](around:1500,38.897700,-77.036500);');
    expect(query).toContain('nwr["healthcare"="pharmacy"](around:1500,38.897700,-77.036500);');
    expect(query).toContain('nwr["leisure"="sports_centre"]["sport"="fitness"](around:1500,38.897700,-77.036500);');
    expect(query).toMatch(/nwr\["amenity"\]\["amenity"!~"\^\(bench\|waste_basket\|.*\)\$"\]\(around/);
    expect(query.trim().endsWith('out center;')).toBe(true);
  });

  it('selects in real data exactly what the category table selects', () => {
    const elements = dcElements();
    for (const categories of [
      ['pharmacy', 'bank'],
      ['amenity'],
      ['tourism', 'hotel'],
      ['parking', 'public_toilets', 'swimming_pool'],
    ] as CategoryId[][]) {
      const query = buildQuery(WHITE_HOUSE.lat, WHITE_HOUSE.lon, 2000, categories);
      const byQuery = evaluateQuery(query, elements)
        .map((e) => `${e.type}/${e.id}`)
        .sort();
      const byTable = elements
        .filter((e) => categoriesInMask(categorize(e.tags)).some((c) => categories.includes(c)))
        .filter((e) => {
          const p = e.center ?? { lat: e.lat!, lon: e.lon! };
          return distanceKm(WHITE_HOUSE.lat, WHITE_HOUSE.lon, p.lat, p.lon) <= 2;
        })
        .map((e) => `${e.type}/${e.id}`)
        .sort();
      expect(byQuery.length, categories.join()).toBeGreaterThan(0);
      expect(byQuery, categories.join()).toEqual(byTable);
    }
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(parseRetryAfter('7', 0)).toBe(7000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter(null, 0)).toBeNull();
    expect(parseRetryAfter('soon', 0)).toBeNull();
  });
});

describe('searching where the index has nothing', () => {
  let fake: FakeOverpass;
  let db: TempDb;
  let clock: TestClock;
  let service: PlacesService;
  let client: OverpassClient;

  beforeAll(async () => {
    fake = await startFakeOverpass();
  });
  afterAll(() => fake.close());

  beforeEach(async () => {
    db = await tempDb();
    clock = testClock(Date.parse('2026-11-18T17:00:00Z'));
    fake.requests = [];
    fake.maxConcurrent = 0;
    fake.script = [];
    fake.delayMs = 0;
    client = new OverpassClient({
      url: fake.url,
      userAgent: `nearby-place-finder/0.1 (+${SITE})`,
      now: clock.now,
      timeoutMs: 400,
      baseBackoffMs: 50,
      pauseAfterFailureMs: 30_000,
    });
    service = new PlacesService(db.index, client, clock.now);
  });
  afterEach(() => db.close());

  it('asks Overpass once, with a User-Agent naming the site, and keeps the answer in the index', async () => {
    const answer = await search(service, WHITE_HOUSE, ['pharmacy', 'bank'], 1500);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].userAgent).toBe(`nearby-place-finder/0.1 (+${SITE})`);
    expect(fake.requests[0].query).toContain('(around:1500,38.897700,-77.036500)');

    // what the real data has there, computed independently of the query
    const expected = dcElements()
      .filter((e) => ['pharmacy', 'bank'].includes(e.tags.amenity) || e.tags.healthcare === 'pharmacy')
      .filter((e) => {
        const p = e.center ?? { lat: e.lat!, lon: e.lon! };
        return distanceKm(WHITE_HOUSE.lat, WHITE_HOUSE.lon, p.lat, p.lon) <= 1.5;
      });
    expect(answer.results.map((r) => r.id).sort()).toEqual(expected.map((e) => `${e.type}/${e.id}`).sort());
    expect(answer.results.length).toBeGreaterThan(5);
    for (let i = 1; i < answer.results.length; i++)
      expect(answer.results[i].distance).toBeGreaterThanOrEqual(answer.results[i - 1].distance);

    const [type, id] = answer.results[0].id.split('/') as ['node' | 'way', string];
    const stored = await db.index.getByOsmId(type, Number(id));
    expect(stored).toMatchObject({
      source: 'overpass',
      fetchedAt: clock.now(),
      country: 'US',
      timezone: 'America/New_York',
    });

    // the same search again: answered from the index
    const again = await search(service, WHITE_HOUSE, ['pharmacy', 'bank'], 1500);
    expect(fake.requests).toHaveLength(1);
    expect(again.results).toEqual(answer.results);
  });

  it('does not ask again for a day about an area where Overpass found nothing', async () => {
    const empty = EMPTY_AREAS[0];
    expect((await search(service, empty, ['museum'])).results).toEqual([]);
    expect(fake.requests).toHaveLength(1);
    await search(service, empty, ['museum']);
    // a smaller circle inside the one asked is covered too
    await search(service, { lat: empty.lat + 0.001, lon: empty.lon }, ['museum'], 500);
    clock.advance(LIVE_CACHE_MS - 60_000);
    await search(service, empty, ['museum']);
    expect(fake.requests).toHaveLength(1);
    // other categories, or a larger circle, are a new question
    await search(service, empty, ['museum', 'cinema']);
    await search(service, empty, ['museum'], 3000);
    expect(fake.requests).toHaveLength(3);
    clock.advance(LIVE_CACHE_MS + 1); // a day after the last question about it
    await search(service, empty, ['museum']);
    expect(fake.requests).toHaveLength(4);
  });

  it('sends one request at a time, however many searches come at once', async () => {
    fake.delayMs = 150;
    const started = Date.now();
    await Promise.all(EMPTY_AREAS.map((area) => search(service, area, ['restaurant'])));
    expect(fake.requests).toHaveLength(EMPTY_AREAS.length);
    expect(fake.maxConcurrent).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(EMPTY_AREAS.length * 150 - 20);
  });

  it('two searches of the same area at once make one request', async () => {
    fake.delayMs = 100;
    const [a, b] = await Promise.all([
      search(service, DUPONT, ['restaurant']),
      search(service, DUPONT, ['restaurant']),
    ]);
    expect(fake.requests).toHaveLength(1);
    expect(b.results).toEqual(a.results);
    expect(a.results.length).toBeGreaterThan(0);
  });

  it('after a 429 it waits what Retry-After asks, then retries', async () => {
    fake.script = [{ status: 429, retryAfter: '1' }];
    const answer = await search(service, DUPONT, ['bank']);
    expect(fake.requests.map((r) => r.replied)).toEqual([429, 200]);
    expect(fake.requests[1].at - fake.requests[0].at).toBeGreaterThanOrEqual(990);
    expect(answer.results.length).toBeGreaterThan(0);
  });

  it('on 503 and 504 it backs off (doubling) and retries at most twice, then gives up', async () => {
    fake.script = [{ status: 504 }, { status: 503 }, { status: 504 }, { status: 200 }];
    const error = await failure(search(service, DUPONT, ['bank']));
    expect(error).toMatchObject({ kind: 'unavailable', message: 'Service temporarily unavailable' });
    expect(fake.requests.map((r) => r.replied)).toEqual([504, 503, 504]);
    expect(fake.requests[1].at - fake.requests[0].at).toBeGreaterThanOrEqual(45);
    expect(fake.requests[2].at - fake.requests[1].at).toBeGreaterThanOrEqual(95);
    expect(await db.index.count()).toBe(0);
  });

  it('a server that does not answer times out, without a retry', async () => {
    fake.script = [{ hang: true }];
    const started = Date.now();
    const error = await failure(search(service, DUPONT, ['bank']));
    expect(error.kind).toBe('unavailable');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(fake.requests).toHaveLength(1);
  });

  it('after giving up it leaves the server alone for a while', async () => {
    fake.script = [{ status: 504 }, { status: 504 }, { status: 504 }];
    await failure(search(service, DUPONT, ['bank']));
    expect(fake.requests).toHaveLength(3);
    const error = await failure(search(service, WHITE_HOUSE, ['bank']));
    expect(error.kind).toBe('unavailable');
    expect(fake.requests).toHaveLength(3); // not asked
    clock.advance(30_001);
    expect((await search(service, WHITE_HOUSE, ['bank'])).results.length).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(4);
  });

  it('a Retry-After too long to wait for fails the search at once, and is honoured afterwards', async () => {
    fake.script = [{ status: 429, retryAfter: '3600' }];
    const started = Date.now();
    await failure(search(service, DUPONT, ['bank']));
    expect(Date.now() - started).toBeLessThan(1000);
    clock.advance(60_000);
    await failure(search(service, DUPONT, ['bank']));
    expect(fake.requests).toHaveLength(1);
    clock.advance(3600_000);
    await search(service, DUPONT, ['bank']);
    expect(fake.requests).toHaveLength(2);
  });

  it('is not used at all when the index has places of the categories there', async () => {
    await search(service, DUPONT, ['restaurant'], 2000); // fills the index from Overpass
    fake.requests = [];
    const answer = await search(service, { lat: DUPONT.lat + 0.002, lon: DUPONT.lon }, ['restaurant'], 1000);
    expect(answer.results.length).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(0);
  });

  it('with OVERPASS_URL=off there is no live source: an empty area is an empty answer, marked as not covered', async () => {
    const offline = new PlacesService(db.index, null, clock.now);
    const answer = await search(offline, DUPONT, ['bank']);
    expect(answer.results).toEqual([]);
    expect(answer.coverage).toBe('none');
    expect(fake.requests).toHaveLength(0);
    // Once the index holds places there (of any category), an empty answer is just empty.
    await search(service, DUPONT, ['restaurant'], 2000);
    const covered = await search(offline, DUPONT, ['camping'], 300);
    expect(covered.results).toEqual([]);
    expect(covered.coverage).toBeUndefined();
  });

  it('a failure where the index holds nothing says so; where it holds other places, it is only an outage', async () => {
    fake.script = [{ status: 504 }, { status: 504 }, { status: 504 }];
    expect((await failure(search(service, DUPONT, ['bank']))).noCoverage).toBe(true);
    clock.advance(30_001);
    await search(service, DUPONT, ['restaurant'], 2000);
    fake.script = [{ status: 504 }, { status: 504 }, { status: 504 }];
    const error = await failure(search(service, DUPONT, ['camping'], 300));
    expect(error).toMatchObject({ kind: 'unavailable', noCoverage: false });
  });
});
