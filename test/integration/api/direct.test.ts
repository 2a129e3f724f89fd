// The REST table's direct paths (routes.ts `direct`), answered without the tRPC context and
// caller: they answer what their procedure answers, refuse what it refuses with the same 400, map
// errors as the caller path does, and GET /api/settings shows a change saved anywhere (through
// this app, or through another connection to the same database) at the very next request.
import { TRPCError } from '@trpc/server';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../../db/index.js';
import { createCaller } from '../../../src/procedures/index.js';
import { JsonText, jsonOf } from '../../../src/rest/json-text.js';
import { directHandler, normalizeQuery, sendError } from '../../../src/rest/plugin.js';
import { routes, type RestRoute } from '../../../src/rest/routes.js';
import { createServices } from '../../../src/services.js';
import { bumpVersion } from '../../../src/shared/settings-cache.js';
import { describeZodError } from '../../../src/trpc/init.js';
import { ZodError } from 'zod';
import { adminSession, buildTestApp, callerFor, memoryCookie, type TestApp } from '../../helpers.js';

const route = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path)!;

describe('direct paths', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('are only on public reads', () => {
    // The plugin refuses any other at start-up; this names the ones there are.
    const direct = routes.filter((r) => r.direct).map((r) => `${r.method} ${r.path}`);
    expect(direct).toContain('GET /api/settings');
    for (const r of routes.filter((r) => r.direct)) expect(r.method).toBe('GET');
  });

  it('GET /api/settings answers, byte for byte, what settings.get answers', async () => {
    const cookie = await t.login();
    for (const change of [
      {},
      { site_title: 'Cafés & "quotes"', allowed_categories: ['pharmacy', 'restaurant'], languages: ['es', 'en'] },
    ]) {
      if (Object.keys(change).length)
        expect((await t.request({ method: 'POST', url: '/api/settings', cookie, payload: change })).statusCode).toBe(
          200,
        );
      const response = await t.request({ method: 'GET', url: '/api/settings' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toBe(JSON.stringify(await (await callerFor(t)).settings.get()));
    }
  });

  it('GET /api/places refuses bad input with the 400 the procedure gives', async () => {
    expect(route('GET', '/api/places').direct).toBeDefined();
    const caller = await callerFor(t);
    const bad = [
      'lat=95&lon=0',
      'lat=10',
      'lat=1&lon=1&radius=abc',
      'lat=1&lon=1&limit=0',
      'q=%00',
      'active_categories=a%00b',
      `q=${'x'.repeat(101)}`,
    ];
    for (const query of bad) {
      const input = normalizeQuery(Object.fromEntries(new URLSearchParams(query)));
      const error = await caller.places.search(input as never).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, query).toBeInstanceOf(TRPCError);
      const cause = (error as TRPCError).cause;
      const message = cause instanceof ZodError ? describeZodError(cause) : (error as TRPCError).message;
      const response = await t.request({ method: 'GET', url: `/api/places?${query}` });
      expect([response.statusCode, response.json()], query).toEqual([400, { error: message }]);
    }
  });
});

describe('errors of a direct path', () => {
  // One route's checks and mapping, with a direct function that fails as told.
  async function answerOf(failure: unknown, url = '/x') {
    const app = Fastify();
    app.setErrorHandler((error, req, reply) => sendError(error, req, reply));
    const row: RestRoute = { ...route('GET', '/api/places/:type/:id'), path: '/x/:type/:id' };
    const deps = { db: null as never, config: null as never, services: null as never, now: Date.now };
    app.get(
      row.path,
      directHandler(
        row,
        async () => {
          throw failure;
        },
        deps,
        null as never,
      ),
    );
    const response = await app.inject({ method: 'GET', url });
    await app.close();
    return { status: response.statusCode, body: response.json(), retryAfter: response.headers['retry-after'] };
  }

  it('map as the procedure path maps them', async () => {
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    // A bare error carrying an HTTP status is still an internal error, as tRPC makes it.
    const withStatus = Object.assign(new Error('from somewhere'), { statusCode: 404 });
    expect(await answerOf(new TRPCError({ code: 'NOT_FOUND', message: 'Place not found' }), '/x/node/1')).toEqual({
      status: 404,
      body: { error: 'Place not found' },
      retryAfter: undefined,
    });
    expect(await answerOf(busy, '/x/node/1')).toEqual({
      status: 503,
      body: { error: 'Service temporarily unavailable' },
      retryAfter: '5',
    });
    expect(await answerOf(full, '/x/node/1')).toMatchObject({ status: 507 });
    expect(await answerOf(withStatus, '/x/node/1')).toEqual({
      status: 500,
      body: { error: 'Internal server error' },
      retryAfter: undefined,
    });
    expect(await answerOf(new TypeError('x is undefined'), '/x/node/1')).toEqual({
      status: 500,
      body: { error: 'Internal server error' },
      retryAfter: undefined,
    });
  });

  it('come after the input checks: the procedure schema refuses first', async () => {
    expect(await answerOf(new Error('never reached'), '/x/planet/1')).toEqual({
      status: 400,
      body: { error: "type: must be 'node', 'way', 'relation' or 'own'" },
      retryAfter: undefined,
    });
    expect(await answerOf(new Error('never reached'), '/x/node/1?lang=e%00s')).toEqual({
      status: 400,
      body: { error: 'lang: must not contain NUL characters' },
      retryAfter: undefined,
    });
  });

  it('only public queries may have one', () => {
    const deps = { db: null as never, config: null as never, services: null as never, now: Date.now };
    for (const row of [route('GET', '/api/messages'), route('POST', '/api/contact')]) {
      expect(() => directHandler(row, async () => null, deps, null as never)).toThrow(
        /direct path is for a public query/,
      );
    }
  });
});

describe('JSON text', () => {
  it('is made once per frozen value, and refused for a value that could change', () => {
    const value = Object.freeze({ a: 1 });
    expect(jsonOf(value)).toBeInstanceOf(JsonText);
    expect(jsonOf(value)).toBe(jsonOf(value));
    expect(jsonOf(value).text).toBe('{"a":1}');
    expect(() => jsonOf({ a: 1 })).toThrow();
  });
});

describe('GET /api/settings after a change', () => {
  let t: TestApp;
  let other: DbHandle;
  afterEach(async () => {
    await other?.close();
    await t.close();
  });

  /** settings.save through another connection to the same database: another process, as far as the app can tell. */
  async function saveElsewhere(values: Record<string, unknown>) {
    const caller = createCaller({
      db: other.db,
      config: t.config,
      services: createServices(t.config, other, t.clock.now),
      now: t.clock.now,
      log: { info() {}, warn() {}, error() {} },
      ip: '127.0.0.1',
      lang: 'en',
      session: await adminSession(t),
      cookie: memoryCookie(),
    });
    await caller.settings.save(values);
  }
  const title = async () => (await t.request({ method: 'GET', url: '/api/settings' })).json().site_title;

  it('shows at the next request, saved here or through another connection', async () => {
    t = await buildTestApp();
    other = createDb(t.config.database, { poolSize: 2 });
    const cookie = await t.login();
    expect(await title()).toBe('Find Services Near You');
    expect(await title()).toBe('Find Services Near You'); // cached, and still current
    await saveElsewhere({ site_title: 'Saved elsewhere' });
    expect(await title()).toBe('Saved elsewhere');
    expect(
      (await t.request({ method: 'POST', url: '/api/settings', cookie, payload: { site_title: 'Saved here' } }))
        .statusCode,
    ).toBe(200);
    expect(await title()).toBe('Saved here');
    await saveElsewhere({ site_title: 'Elsewhere again' });
    expect(await title()).toBe('Elsewhere again');
    // Something else written elsewhere (not the settings) changes nothing.
    await other.db
      .insertInto('messages')
      .values({ name: 'N', email: 'n@example.org', subject: 's', body: 'b', status: 'unread' })
      .execute();
    expect(await title()).toBe('Elsewhere again');
  });

  it('shows after a change of this process that was rolled back, once another commits', async () => {
    t = await buildTestApp();
    other = createDb(t.config.database, { poolSize: 2 });
    expect(await title()).toBe('Find Services Near You');
    // A save here that fails after bumping the version, with a read while its transaction is open
    // (on SQLite the same connection: that read sees the bump not yet committed).
    let during: Promise<string> | undefined;
    await t.handle.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('settings')
          .values({ key: 'site_title', value: JSON.stringify('Rolled back') })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify('Rolled back') }))
          .execute();
        await bumpVersion(trx, 'settings');
        during = title();
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await during).toBe('Find Services Near You');
    expect(await title()).toBe('Find Services Near You');
    // Another process's save takes the version the rolled-back bump had taken for a moment.
    await saveElsewhere({ site_title: 'Committed elsewhere' });
    expect(await title()).toBe('Committed elsewhere');
  });
});
