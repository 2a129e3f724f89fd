// GET /api/places over the whole app (fastify.inject): the query string, errors and statuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testClock, type TestApp } from '../../helpers.js';
import { startFakeOverpass, type FakeOverpass } from '../../support/fake-overpass.js';
import { EXTRACTS } from '../../support/places.js';

const WEDNESDAY_NOON_PST = Date.parse('2026-11-18T20:00:00Z');
const LONDON_DRUGS = 'lat=49.2328094&lon=-123.0351511';

describe('GET /api/places', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ clock: testClock(WEDNESDAY_NOON_PST), imported: { extracts: [EXTRACTS.vancouver] } });
  });
  afterAll(() => t.close());

  const get = (query: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url: `/api/places?${query}`, headers });

  it('answers the nearest places for repeated active_categories, with every field', async () => {
    const response = await get(`active_categories=pharmacy&active_categories=restaurant&${LONDON_DRUGS}&radius=300`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.city_center).toEqual({ lat: 49.2328094, lon: -123.0351511 });
    expect(body.results[0]).toEqual({
      id: 'node/799580956',
      name: 'London Drugs',
      address: '3328 Kingsway, Vancouver V5R 5L1',
      address_source: 'osm',
      unnamed: false,
      lat: 49.2328094,
      lon: -123.0351511,
      distance: 0,
      phone_number: '+1 604 448 4828',
      status_label: 'Open now',
      category: 'pharmacy',
      status: 'open',
      opening_hours: 'Mo-Sa 09:00-22:00; Su 10:00-20:00; PH 09:00-21:00',
      website: null,
      wheelchair: 'yes',
      source: 'osm',
    });
    for (let i = 1; i < body.results.length; i++)
      expect(body.results[i].distance).toBeGreaterThanOrEqual(body.results[i - 1].distance);
  });

  it('takes the a[]=1&a[]=2 form, limit and open_now from the query string', async () => {
    const response = await get(
      `active_categories[]=pharmacy&active_categories[]=restaurant&${LONDON_DRUGS}&limit=2&open_now=1`,
    );
    expect(response.statusCode).toBe(200);
    const results = response.json().results as { status: string }[];
    expect(results).toHaveLength(2);
    expect(results.every((r) => r.status === 'open' || r.status === 'closing_soon')).toBe(true);
  });

  it('speaks the language of `lang`, else of Accept-Language', async () => {
    const query = `active_categories=pharmacy&${LONDON_DRUGS}&radius=10`;
    expect((await get(query, { 'accept-language': 'es-ES,es;q=0.9' })).json().results[0].status_label).toBe(
      'Abierto ahora',
    );
    expect((await get(`${query}&lang=it`, { 'accept-language': 'es' })).json().results[0].status_label).toBe(
      'Aperto ora',
    );
    expect((await get(query)).json().results[0].status_label).toBe('Open now');
  });

  it.each([
    ['lat=49.28&lon=-123.12', 'Please select at least one category'],
    ['active_categories=pizza&lat=49.28&lon=-123.12', 'Unknown category: pizza'],
    ['active_categories=pharmacy&lat=abc&lon=-123.12', 'lat: must be a number'],
    ['active_categories=pharmacy&lat=95&lon=-123.12', 'lat: must be between -90 and 90'],
    ['active_categories=pharmacy&lat=49.28&lon=-123.12&radius=60000', 'radius: must be between 1 and 50000'],
    ['active_categories=pharmacy&city=Qwxzyville', 'City not found'],
    ['active_categories=pharmacy', 'Please give lat and lon, or a city'],
  ])('?%s is a 400 {"error": "%s"}', async (query, message) => {
    const response = await get(query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: message });
  });

  it('marks an empty answer where the site holds no places at all (coverage: none), not one where it holds others', async () => {
    const paris = await get('active_categories=pharmacy&lat=48.8566&lon=2.3522');
    expect(paris.statusCode).toBe(200);
    expect(paris.json()).toEqual({ results: [], city_center: { lat: 48.8566, lon: 2.3522 }, coverage: 'none' });
    // A name search reads only the index: the same mark.
    expect((await get('q=starb&lat=48.8566&lon=2.3522')).json().coverage).toBe('none');
    // London Drugs stands here: the site covers the place, it just has no camping site within 50 m.
    const covered = await get(`active_categories=camping&${LONDON_DRUGS}&radius=50`);
    expect(covered.json()).toEqual({ results: [], city_center: { lat: 49.2328094, lon: -123.0351511 } });
  });

  it('searches around a city given by name', async () => {
    const response = await get('active_categories=library&city=Vancouver%2C%20CA');
    expect(response.statusCode).toBe(200);
    expect(response.json().city_center).toEqual({ lat: 49.24966, lon: -123.11934 });
    expect(response.json().results.length).toBeGreaterThan(0);
  });
});

describe('GET /api/places with the live source', () => {
  let fake: FakeOverpass;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeOverpass();
    t = await buildTestApp({ env: { OVERPASS_URL: fake.url, PUBLIC_ORIGIN: 'https://places.example.org' } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('fills an empty index from Overpass, naming the site in the User-Agent', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/api/places?active_categories=bank&lat=38.8977&lon=-77.0365&radius=1000',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().results.length).toBeGreaterThan(0);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].userAgent).toBe('nearby-place-finder/0.1 (+https://places.example.org)');
  });

  it('answers 503 "Service temporarily unavailable" when Overpass keeps failing', async () => {
    fake.requests = [];
    fake.script = [
      { status: 504, retryAfter: '0' },
      { status: 504, retryAfter: '0' },
      { status: 504, retryAfter: '0' },
    ];
    const response = await t.request({ method: 'GET', url: '/api/places?active_categories=museum&lat=38.7&lon=-77.4' });
    expect(response.statusCode).toBe(503);
    // Nothing in the index there either: the answer says the site has no places around.
    expect(response.json()).toEqual({ error: 'Service temporarily unavailable', coverage: 'none' });
    expect(fake.requests).toHaveLength(3);
    // Where the index holds the banks of the first test, a failure is only an outage.
    const covered = await t.request({
      method: 'GET',
      url: '/api/places?active_categories=museum&lat=38.8977&lon=-77.0365&radius=1000',
    });
    expect(covered.statusCode).toBe(503);
    expect(covered.json()).toEqual({ error: 'Service temporarily unavailable' });
  }, 15_000);
});
