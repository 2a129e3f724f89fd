// Walks the REST table: every path of SPEC.md section 7 exists, and each route answers a good
// call, refuses bad input with 400 and changes nothing, and (admin paths) refuses a visitor
// with 401 and another site with 403.
import { sql } from 'kysely';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskOf } from '../../../src/places/model/categories.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { routes } from '../../../src/rest/routes.js';
import { writeImported } from '../../support/places.js';
import { buildTestApp, type TestApp } from '../../helpers.js';

/** (method, path) pairs of SPEC.md section 7, read from the spec itself. */
function specCalls(): string[] {
  const spec = readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'SPEC.md'), 'utf8');
  const section = spec.slice(spec.indexOf('## 7. Calls'), spec.indexOf('## 8.'));
  const calls: string[] = [];
  for (const line of section.split('\n')) {
    const match = /^\|\s*([A-Z, ]+?)\s+(\/api\/\S+)\s*\|/.exec(line);
    if (!match) continue;
    const path = match[2].replace(/\?.*$/, '').replace(/\{(\w+)\}/g, ':$1');
    for (const method of match[1].split(',')) calls.push(`${method.trim()} ${path}`);
  }
  return calls;
}

type Case = {
  admin: boolean;
  good: InjectOptions;
  /** expected status of the good call; default 200 */
  status?: number;
  bad?: InjectOptions;
  /** sent without the session cookie (a login must not end the session the other cases use) */
  anonymous?: boolean;
};

const json = (payload: object): Partial<InjectOptions> => ({
  payload,
  headers: { 'content-type': 'application/json' },
});
const plan = {
  name: 'Basic',
  price: 9.99,
  type: 'basic',
  description: 'Starter',
  link: 'https://pay.example.org/basic',
};

/** One case per route; a route without a case fails the test below. */
const cases: Record<string, Case> = {
  'GET /api/places': {
    admin: false,
    good: { url: '/api/places?active_categories=pharmacy&lat=49.28&lon=-123.12' },
    bad: { url: '/api/places?active_categories=pharmacy&lat=95&lon=0' },
  },
  'GET /api/places/:type/:id': {
    admin: false,
    good: { url: '/api/places/node/1?lang=es' },
    bad: { url: '/api/places/planet/1' },
  },
  'GET /api/settings': { admin: false, good: {} },
  'POST /api/settings': { admin: true, good: json({ site_title: 'New title' }), bad: json({ primary_color: 'red' }) },
  'GET /api/ads': { admin: false, good: {} },
  'POST /api/ads': {
    admin: true,
    good: json({ type: 'static', media_url: 'https://cdn.example.org/x.png' }),
    bad: json({ type: 'popup', media_url: 'https://cdn.example.org/x.png' }),
  },
  'PUT /api/ads': { admin: true, good: json({ id: 1, title: 'Renamed' }), bad: json({ id: 1, link: 'not a url' }) },
  'DELETE /api/ads': { admin: true, good: { url: '/api/ads?id=1&type=static' }, bad: { url: '/api/ads?id=abc' } },
  'POST /api/background_videos': {
    admin: true,
    good: json({ title: 'V', media_url: 'https://cdn.example.org/v.mp4' }),
    bad: json({ title: 'V' }),
  },
  'PUT /api/background_videos': {
    admin: true,
    good: json({ id: 1, enabled: 0 }),
    bad: json({ id: 1, enabled: 'maybe' }),
  },
  'DELETE /api/background_videos': {
    admin: true,
    good: { url: '/api/background_videos?id=1' },
    bad: { url: '/api/background_videos?id=-3' },
  },
  'POST /api/carousel_toggle': { admin: true, good: json({ enabled: 0 }), bad: json({ enabled: 7 }) },
  'GET /api/plans': { admin: false, good: {} },
  'POST /api/plans': { admin: true, good: json(plan), bad: json({ ...plan, price: 'cheap' }) },
  'PUT /api/plans': {
    admin: true,
    good: json({ id: 1, ...plan, name: 'Basic+' }),
    bad: json({ id: 1, ...plan, link: 'mailto:x@y.z' }),
  },
  'DELETE /api/plans': { admin: true, good: { url: '/api/plans?id=1' }, bad: { url: '/api/plans' } },
  'POST /api/visit': { admin: false, good: { headers: { 'content-type': 'application/json' } } },
  'GET /api/visits': { admin: true, good: {} },
  'GET /api/visits/daily': {
    admin: true,
    good: { url: '/api/visits/daily?days=7' },
    bad: { url: '/api/visits/daily?days=9999' },
  },
  'POST /api/visits/reset': { admin: true, good: { headers: { 'content-type': 'application/json' } } },
  'GET /api/messages': { admin: true, good: {} },
  'PUT /api/messages': { admin: true, good: json({ id: 1, status: 'read' }), bad: json({ id: 1, status: 'archived' }) },
  'DELETE /api/messages': { admin: true, good: { url: '/api/messages?id=1' }, bad: { url: '/api/messages?id=x' } },
  'POST /api/contact': {
    admin: false,
    good: json({ name: 'Ana', email: 'ana@example.org', subject: 'Hi', body: 'Hello' }),
    bad: json({ name: 'Ana', email: 'ana', subject: 'Hi', body: 'Hello' }),
  },
  'GET /api/admin/status': { admin: false, good: {} },
  'POST /api/admin/login': {
    admin: false,
    anonymous: true,
    good: json({ username: 'admin', password: 'correct horse battery staple' }),
    bad: json({ username: 'admin' }),
  },
  'POST /api/admin/logout': { admin: false, good: {} },
  'POST /api/admin/password': {
    admin: true,
    good: json({ current_password: 'correct horse battery staple', new_password: 'another long passphrase' }),
    bad: json({ current_password: 'correct horse battery staple', new_password: 'short' }),
  },
  'GET /api/admin/credentials': { admin: true, good: {} },
  'POST /api/admin/credentials': {
    admin: true,
    good: json({ username: 'editor', password: 'an editor passphrase' }),
    bad: json({ username: 'Not Valid!', password: 'an editor passphrase' }),
  },
  'DELETE /api/admin/users/:id': {
    admin: true,
    good: { url: '/api/admin/users/2' },
    bad: { url: '/api/admin/users/zero' },
  },
  'GET /api/admin/keys': { admin: true, good: {} },
  'POST /api/admin/keys': {
    admin: true,
    good: json({ name: 'Partner', origins: ['https://partner.example'], daily_limit: 1000 }),
    bad: json({ name: 'Partner', origins: ['partner'], daily_limit: 1000 }),
  },
  'PUT /api/admin/keys': {
    admin: true,
    good: json({ id: 1, daily_limit: 2000 }),
    bad: json({ id: 1, daily_limit: -1 }),
  },
  'DELETE /api/admin/keys': {
    admin: true,
    good: { url: '/api/admin/keys?id=1' },
    bad: { url: '/api/admin/keys?id=none' },
  },
};

/** Everything a bad request must leave as it was. */
async function snapshot(t: TestApp): Promise<string> {
  const tables = [
    'settings',
    'admin_users',
    'ads',
    'background_videos',
    'carousel',
    'plans',
    'messages',
    'visit_counters',
    'visits_daily',
    'site_keys',
  ];
  const rows = [];
  for (const table of tables) rows.push((await sql.raw(`select * from ${table} order by 1`).execute(t.handle.db)).rows);
  return JSON.stringify(rows);
}

describe('REST surface', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp();
    cookie = await t.login();
    // Something for the id=1 / id=2 cases to act on.
    const db = t.handle.db;
    await db
      .insertInto('ads')
      .values({ kind: 'static', title: 'A', link: '', media: 'https://cdn.example.org/a.png', interval: 5000 })
      .execute();
    await db
      .insertInto('background_videos')
      .values({ title: 'V', link: '', media: 'https://cdn.example.org/v.mp4', enabled: 1 })
      .execute();
    await db
      .insertInto('plans')
      .values({
        name: 'P',
        price_cents: 100,
        type: 'pro',
        description: 'd',
        description_is_structured: 0,
        link: 'https://x.org',
      })
      .execute();
    await db
      .insertInto('messages')
      .values({ name: 'N', email: 'n@example.org', subject: 's', body: 'b', status: 'unread' })
      .execute();
    await db
      .insertInto('admin_users')
      .values({ username: 'other', password_hash: 'x', must_change_password: 0 })
      .execute();
    await db
      .insertInto('site_keys')
      .values({ name: 'K', key: 'pk_rest_test_key_0000000', origins: '[]', daily_limit: 10 })
      .execute();
    await writeImported(createPlaceStore(t.handle), [
      {
        osmType: 'node',
        osmId: 1,
        lat: 38.9,
        lon: -77.03,
        categories: maskOf(['pharmacy']),
        name: 'Farmacia',
        names: null,
        address: null,
        phone: null,
        website: null,
        openingHours: 'Mo-Su 08:00-20:00',
        wheelchair: null,
        country: 'US',
        timezone: 'America/New_York',
        tags: { amenity: 'pharmacy' },
      },
    ]);
  });
  afterAll(() => t.close());

  it('has every call of SPEC.md section 7', () => {
    const calls = specCalls();
    expect(calls.length).toBeGreaterThanOrEqual(27);
    const table = routes.map((r) => `${r.method} ${r.path}`);
    for (const call of calls) expect(table, `missing ${call}`).toContain(call);
  });

  it('has a test case for every route', () => {
    expect(Object.keys(cases).sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  // Ordered so that deletes run after the updates that need the rows.
  const order = routes
    .filter((r) => !['POST /api/admin/logout', 'POST /api/admin/password'].includes(`${r.method} ${r.path}`))
    .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

  for (const route of order) {
    const key = `${route.method} ${route.path}`;
    const c = cases[key];
    const url = (options: InjectOptions) => (options.url as string | undefined) ?? route.path;

    if (c.bad) {
      it(`${key}: bad input is a 400 naming the field, and changes nothing`, async () => {
        const before = await snapshot(t);
        const response = await t.request({
          method: route.method,
          ...c.bad,
          url: url(c.bad!),
          cookie: c.anonymous ? undefined : cookie,
        });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().error).toMatch(/\S/);
        expect(Object.keys(response.json())).toEqual(['error']);
        expect(await snapshot(t)).toBe(before);
      });
    }

    if (c.admin) {
      it(`${key}: refuses a visitor with 401`, async () => {
        const before = await snapshot(t);
        const response = await t.request({ method: route.method, ...c.good, url: url(c.good) });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ error: 'Please login to access admin panel' });
        expect(await snapshot(t)).toBe(before);
      });
    }

    if (route.method !== 'GET') {
      it(`${key}: refuses another site with 403`, async () => {
        const before = await snapshot(t);
        for (const headers of [
          { 'sec-fetch-site': 'cross-site' },
          { 'sec-fetch-site': undefined, origin: 'https://evil.example' },
        ]) {
          const response = await t.request({
            method: route.method,
            ...c.good,
            url: url(c.good),
            cookie: c.anonymous ? undefined : cookie,
            headers: { ...c.good.headers, ...headers } as never,
          });
          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual({ error: 'Cross-site requests are not allowed' });
        }
        expect(await snapshot(t)).toBe(before);
      });
    }

    it(`${key}: a good call answers ${c.status ?? 200}`, async () => {
      const response = await t.request({
        method: route.method,
        ...c.good,
        url: url(c.good),
        cookie: c.anonymous ? undefined : cookie,
      });
      expect(response.statusCode, response.body).toBe(c.status ?? 200);
      if (route.method !== 'GET') expect(response.json()).toMatchObject({ success: true });
    });
  }

  it('POST /api/admin/password and logout work last', async () => {
    const changed = await t.request({
      method: 'POST',
      url: '/api/admin/password',
      cookie,
      ...cases['POST /api/admin/password'].good,
    });
    expect(changed.json()).toEqual({ success: true });
    const logout = await t.request({ method: 'POST', url: '/api/admin/logout', cookie });
    expect(logout.json()).toEqual({ success: true });
    expect((await t.request({ method: 'GET', url: '/api/messages', cookie })).statusCode).toBe(401);
  });
});
