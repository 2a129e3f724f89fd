// Reads from other sites: CORS on the public reads (and nowhere else), CORS_ORIGINS, and site
// keys: managed by the administrator over REST, checked on every keyed read (origin, unknown or
// deleted key, daily quota), counted against the key and not the address. On both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers.js';

const OTHER = 'http://127.0.0.2:8080';
const PUBLIC_READS = [
  '/api/places?lat=43.73&lon=7.42&q=x',
  '/api/places/node/1',
  '/api/settings',
  '/api/ads',
  '/api/plans',
  '/api/openapi.json',
  '/tiles.json',
  '/tiles/0/0/0.pbf',
];

/** A request from another site's page: its Origin, and what a browser says of a cross-site fetch. */
const fromOther = (origin = OTHER) => ({ origin, 'sec-fetch-site': 'cross-site' });

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { RATE_LIMIT: 'on' } });
  cookie = await t.login();
});

afterAll(async () => {
  await t?.close();
});

const corsHeaders = (headers: Record<string, unknown>) =>
  Object.keys(headers).filter((name) => name.startsWith('access-control-'));

async function createKey(body: object) {
  const response = await t.request({ method: 'POST', url: '/api/admin/keys', cookie, payload: body });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { success: true; id: number; key: string };
}

describe('CORS on the public reads', () => {
  it('answers a preflight with 204, GET, X-Api-Key and a max age, from any origin', async () => {
    for (const url of PUBLIC_READS) {
      const response = await t.request({
        method: 'OPTIONS',
        url,
        headers: {
          ...fromOther(),
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key',
        },
      });
      expect([url, response.statusCode]).toEqual([url, 204]);
      expect(response.headers).toMatchObject({
        'access-control-allow-origin': OTHER,
        'access-control-allow-methods': 'GET',
        'access-control-allow-headers': 'X-Api-Key',
        'access-control-max-age': '7200',
        vary: 'Origin',
      });
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('lets any page read them anonymously by default, and browsers keep the answer (no same-origin CORP)', async () => {
    for (const url of PUBLIC_READS) {
      const response = await t.request({ method: 'GET', url, headers: fromOther() });
      expect([url, response.headers['access-control-allow-origin']]).toEqual([url, '*']);
      expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    }
    const places = await t.request({
      method: 'GET',
      url: '/api/places?lat=43.73&lon=7.42&q=pharmacie',
      headers: fromOther(),
    });
    expect(places.statusCode).toBe(200);
  });

  it('answers no CORS on admin paths, writes or other paths', async () => {
    for (const [method, url] of [
      ['OPTIONS', '/api/admin/keys'],
      ['OPTIONS', '/api/contact'],
      ['OPTIONS', '/api/admin/status'],
      ['OPTIONS', '/trpc/keys.list'],
      ['GET', '/api/admin/keys'],
      ['GET', '/api/admin/status'],
      ['GET', '/api/messages'],
      ['POST', '/api/contact'],
      ['POST', '/api/visit'],
      ['POST', '/api/places'],
      ['GET', '/healthz'],
    ] as const) {
      const response = await t.request({
        method,
        url,
        headers: { ...fromOther(), 'access-control-request-method': 'GET' },
        payload: method === 'POST' ? {} : undefined,
      });
      expect([method, url, corsHeaders(response.headers)]).toEqual([method, url, []]);
      if (method === 'POST') expect(response.statusCode).toBe(403); // a cross-site write
    }
  });
});

describe('CORS_ORIGINS', () => {
  it('limits anonymous reads to the origins listed, or to none with off', async () => {
    const listed = await buildTestApp({ env: { CORS_ORIGINS: 'https://partner.example, http://127.0.0.2:8080' } });
    const off = await buildTestApp({ env: { CORS_ORIGINS: 'off' } });
    try {
      const allowed = await listed.request({ method: 'GET', url: '/api/settings', headers: fromOther() });
      expect(allowed.headers).toMatchObject({ 'access-control-allow-origin': OTHER, vary: 'Origin' });
      const other = await listed.request({
        method: 'GET',
        url: '/api/settings',
        headers: fromOther('https://elsewhere.example'),
      });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      expect(other.headers.vary).toBe('Origin');
      const none = await off.request({ method: 'GET', url: '/api/settings', headers: fromOther() });
      expect(none.headers['access-control-allow-origin']).toBeUndefined();
      // Keys still work from their own origins (they need the preflight).
      expect((await off.request({ method: 'OPTIONS', url: '/api/settings', headers: fromOther() })).statusCode).toBe(
        204,
      );
    } finally {
      await listed.close();
      await off.close();
    }
  });
});

describe('site keys', () => {
  it('are created, listed, edited and deleted by the administrator only, with clear refusals', async () => {
    const refused = await t.request({ method: 'GET', url: '/api/admin/keys' });
    expect(refused.statusCode).toBe(401);
    for (const [body, message] of [
      [{ name: '', origins: [], daily_limit: 10 }, /^name: is required/],
      [
        { name: 'x', origins: ['example.org'], daily_limit: 10 },
        /^origins\.0: must be origins such as https:\/\/example\.org/,
      ],
      [{ name: 'x', origins: ['https://example.org/page'], daily_limit: 10 }, /^origins\.0: /],
      [{ name: 'x', origins: ['ftp://example.org'], daily_limit: 10 }, /^origins\.0: /],
      [{ name: 'x', origins: [], daily_limit: 0 }, /^daily_limit: must be a whole number from 1 to 100000000/],
      [{ name: 'x', origins: [], daily_limit: 1.5 }, /^daily_limit: /],
    ] as const) {
      const response = await t.request({ method: 'POST', url: '/api/admin/keys', cookie, payload: body });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(message);
    }
    const created = await createKey({
      name: 'Town hall',
      origins: ['https://town.example/', OTHER],
      daily_limit: 1000,
    });
    expect(created.key).toMatch(/^pk_[A-Za-z0-9_-]{24}$/);
    const list = (await t.request({ method: 'GET', url: '/api/admin/keys', cookie })).json();
    expect(list).toContainEqual({
      id: created.id,
      name: 'Town hall',
      key: created.key,
      origins: ['https://town.example', OTHER],
      daily_limit: 1000,
      used_today: 0,
      created_at: expect.any(String),
    });
    const edit = await t.request({
      method: 'PUT',
      url: '/api/admin/keys',
      cookie,
      payload: { id: created.id, daily_limit: 2000 },
    });
    expect(edit.json()).toEqual({ success: true });
    const edited = (await t.request({ method: 'GET', url: '/api/admin/keys', cookie }))
      .json()
      .find((k: { id: number }) => k.id === created.id);
    expect(edited).toMatchObject({ name: 'Town hall', daily_limit: 2000, origins: ['https://town.example', OTHER] });
    expect(
      (await t.request({ method: 'PUT', url: '/api/admin/keys', cookie, payload: { id: 999999, name: 'x' } }))
        .statusCode,
    ).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/api/admin/keys?id=${created.id}`, cookie })).json()).toEqual({
      success: true,
    });
    expect((await t.request({ method: 'DELETE', url: `/api/admin/keys?id=${created.id}`, cookie })).statusCode).toBe(
      404,
    );
    // A cross-site write to the keys is refused like any other.
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/admin/keys',
          cookie,
          headers: fromOther(),
          payload: { name: 'x', origins: [], daily_limit: 1 },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('a keyed read: its origins, a server (no Origin) and the site itself pass; another origin 403, an unknown key 401', async () => {
    const { key } = await createKey({ name: 'Partner', origins: [OTHER], daily_limit: 100 });
    const byHeader = await t.request({
      method: 'GET',
      url: '/api/settings',
      headers: { ...fromOther(), 'x-api-key': key },
    });
    expect(byHeader.statusCode).toBe(200);
    expect(byHeader.headers).toMatchObject({
      'access-control-allow-origin': OTHER,
      vary: 'Origin',
      'cross-origin-resource-policy': 'cross-origin',
    });
    const byQuery = await t.request({
      method: 'GET',
      url: `/api/places?lat=43.73&lon=7.42&q=x&key=${key}`,
      headers: fromOther(),
    });
    expect(byQuery.statusCode).toBe(200);
    const server = await t.request({
      method: 'GET',
      url: `/api/plans?key=${key}`,
      headers: { origin: undefined, 'sec-fetch-site': undefined },
    });
    expect(server.statusCode).toBe(200);
    const own = await t.request({ method: 'GET', url: `/api/ads?key=${key}` });
    expect(own.statusCode).toBe(200);

    const elsewhere = await t.request({
      method: 'GET',
      url: '/api/settings',
      headers: { ...fromOther('https://scraper.example'), 'x-api-key': key },
    });
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json()).toEqual({ error: 'This API key may not be used from this origin' });
    for (const unknown of ['pk_nothing_like_a_key_here', 'x', '']) {
      const response = await t.request({
        method: 'GET',
        url: '/api/settings',
        headers: { ...fromOther(), 'x-api-key': unknown },
      });
      expect([unknown, response.statusCode, response.json()]).toEqual([
        unknown,
        401,
        { error: 'Unknown or deleted API key' },
      ]);
    }
    // Admin paths take no key: it is not a way in.
    expect(
      (await t.request({ method: 'GET', url: `/api/admin/keys?key=${key}`, headers: { 'x-api-key': key } })).statusCode,
    ).toBe(401);
  });

  it('counts against the key, not the address: past the daily limit 429 until midnight UTC, while the address is not limited', async () => {
    const { id, key } = await createKey({ name: 'Quota', origins: [OTHER], daily_limit: 320 });
    // A fresh minute for the address's limits (the earlier tests' reads are in the last one).
    t.clock.advance(60_000);
    // 320 keyed reads from one address: beyond the address's 300 a minute, within the key's quota.
    for (let i = 0; i < 320; i++) {
      const response = await t.request({
        method: 'GET',
        url: '/api/settings',
        headers: { ...fromOther(), 'x-api-key': key },
      });
      if (response.statusCode !== 200) throw new Error(`read ${i + 1}: ${response.statusCode} ${response.body}`);
    }
    const over = await t.request({
      method: 'GET',
      url: '/api/settings',
      headers: { ...fromOther(), 'x-api-key': key },
    });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ error: 'This API key has used its requests for today' });
    // the test clock stands at 12:00 UTC
    expect(over.headers['retry-after']).toBe(String(12 * 3600 - 60));
    expect(over.headers['access-control-allow-origin']).toBe(OTHER);
    expect(over.headers['access-control-expose-headers']).toBe('Retry-After');
    // The address itself was not charged: its 300 anonymous reads a minute are all still there.
    for (let i = 0; i < 300; i++) {
      const response = await t.request({ method: 'GET', url: '/api/settings', headers: fromOther() });
      if (response.statusCode !== 200) throw new Error(`anonymous read ${i + 1}: ${response.statusCode}`);
    }
    expect((await t.request({ method: 'GET', url: '/api/settings', headers: fromOther() })).statusCode).toBe(429);
    const listed = (await t.request({ method: 'GET', url: '/api/admin/keys', cookie }))
      .json()
      .find((k: { id: number }) => k.id === id);
    expect(listed.used_today).toBe(320);
    // A new UTC day starts the count again.
    t.clock.advance(12 * 3600_000);
    expect(
      (await t.request({ method: 'GET', url: '/api/settings', headers: { ...fromOther(), 'x-api-key': key } }))
        .statusCode,
    ).toBe(200);
  });

  it('a deleted key answers 401 at once', async () => {
    cookie = await t.login(); // the clock moved a day on
    const { id, key } = await createKey({ name: 'Short-lived', origins: [OTHER], daily_limit: 10 });
    expect(
      (await t.request({ method: 'GET', url: '/api/settings', headers: { ...fromOther(), 'x-api-key': key } }))
        .statusCode,
    ).toBe(200);
    await t.request({ method: 'DELETE', url: `/api/admin/keys?id=${id}`, cookie });
    expect(
      (await t.request({ method: 'GET', url: '/api/settings', headers: { ...fromOther(), 'x-api-key': key } }))
        .statusCode,
    ).toBe(401);
  });
});
