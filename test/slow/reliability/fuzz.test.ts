// Fuzz battery (issue 12, point 3): generated requests to every REST route and every tRPC
// procedure, as a visitor and as an administrator (fast-check): wrong types, huge and empty
// values, unicode edge cases, duplicate and unknown keys, deep nesting, odd content types,
// malformed bodies and paths. Figures: 5xx answers, error bodies not of the contract's shape,
// answers without the security headers, and rows changed by a refused request (a checksum of
// every table before and after). Where a procedure takes fields, half the inputs are a valid one with
// one field spoiled, to reach the checks behind the others. Plus the cases a generator does not reach through inject:
// malformed URLs, oversized headers, bad methods and broken request lines over a real socket.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../../src/procedures/index.js';
import { routes } from '../../../src/rest/routes.js';
import { buildTestApp, type TestApp } from '../../helpers.js';
import { batterySize, FULL_SIZE, recordFigure } from './figures.js';

const PER_ROUTE = batterySize(10, 1000);
const SIZE = `${PER_ROUTE.toLocaleString('en')} requests per route and procedure`;

let t: TestApp;
let cookie: string;

interface Tally {
  requests: number;
  fiveHundreds: string[];
  badShape: string[];
  noHeaders: string[];
  changedByRefusal: string[];
}
const rest: Tally = { requests: 0, fiveHundreds: [], badShape: [], noHeaders: [], changedByRefusal: [] };
const trpc: Tally = { requests: 0, fiveHundreds: [], badShape: [], noHeaders: [], changedByRefusal: [] };

/** A checksum of every row of every table (tables a refused request may rightly write excepted). */
async function checksum(): Promise<string> {
  // failed logins are counted by design; sessions note when they were last used; search counts
  // are written every few seconds, whatever request is being answered then
  const skip = new Set(['login_attempts', 'login_throttle', 'sessions', 'rate_limits', 'leases', 'search_stats_daily']);
  const hash = createHash('sha256');
  const tables =
    t.handle.dialect === 'sqlite'
      ? (t.handle.sqlite
          .prepare(
            `select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'places_names%' and sql not like 'create virtual%' order by name`,
          )
          .pluck()
          .all() as string[])
      : (
          await sql<{
            table_name: string;
          }>`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(
            t.handle.db,
          )
        ).rows.map((r) => r.table_name);
  for (const table of tables) {
    if (skip.has(table) || table === 'spatial_ref_sys') continue;
    const rows = (await sql.raw(`select * from ${table}`).execute(t.handle.db)).rows.map((row) =>
      JSON.stringify(row, (_k, v) =>
        typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v,
      ),
    );
    hash.update(`${table}:${rows.sort().join('\n')}\n`);
  }
  return hash.digest('hex');
}

const SECURITY_HEADERS = ['content-security-policy', 'x-content-type-options', 'referrer-policy', 'x-frame-options'];

function check(
  tally: Tally,
  what: string,
  status: number,
  headers: Record<string, unknown>,
  body: string,
  shape: 'rest' | 'trpc',
): void {
  tally.requests++;
  if (status >= 500) tally.fiveHundreds.push(`${what} -> ${status} ${body.slice(0, 200)}`);
  if (SECURITY_HEADERS.some((h) => headers[h] === undefined)) tally.noHeaders.push(`${what} -> ${status}`);
  if (status < 400) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    tally.badShape.push(`${what} -> ${status} not JSON: ${body.slice(0, 100)}`);
    return;
  }
  const ok =
    shape === 'rest'
      ? typeof parsed === 'object' &&
        parsed !== null &&
        Object.keys(parsed).length === 1 &&
        typeof (parsed as { error: unknown }).error === 'string'
      : // tRPC's own envelope (its client needs it): a human message, a code, and never a stack
        typeof (parsed as { error?: { message?: unknown } }).error?.message === 'string' && !body.includes('"stack"');
  if (!ok) tally.badShape.push(`${what} -> ${status} ${body.slice(0, 200)}`);
}

// ---------------------------------------------------------------------------------------------
// Generators

const edgeStrings = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '\u0000',
  '\uFEFF',
  '\u202Eevil',
  '𝕏',
  '\uD800',
  '../../etc/passwd',
  '%00',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  'a'.repeat(10_000),
  '9'.repeat(400),
  'https://example.org/',
  'javascript:alert(1)',
);
const anyString = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), edgeStrings);
const scalar = fc.oneof(anyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
/** JSON values up to a few levels deep, and sometimes very deep. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 5 }) },
  { weight: 2, arbitrary: fc.dictionary(anyString, scalar, { maxKeys: 5 }) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 50, max: 2000 })
      .map((depth) => Array.from({ length: depth }).reduce((inner) => ({ a: [inner] }), 1 as unknown)),
  },
);

/** The fields a route's schema names (known keys get wrong values), plus unknown ones. */
function fieldNames(path: string): string[] {
  const known: Record<string, string[]> = {
    '/api/places': ['active_categories', 'lat', 'lon', 'radius', 'limit', 'open_now', 'city', 'q', 'lang'],
  };
  return [
    ...(known[path] ?? []),
    'id',
    'name',
    'username',
    'password',
    'email',
    'message',
    'title',
    'url',
    'media_url',
    'site_title',
    'price',
    'type',
    'is_active',
    '__proto__',
    'constructor',
  ];
}

const body = (path: string) =>
  fc.oneof(
    fc.dictionary(fc.constantFrom(...fieldNames(path)), value, { maxKeys: 8 }).map((o) => JSON.stringify(o)),
    value.map((v) => JSON.stringify(v) ?? ''),
    anyString, // not JSON at all, or JSON of the wrong kind
    fc.constant('{"a":1,"a":2}'), // duplicate keys
    fc.constant('{'.repeat(5000)),
  );
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'application/xml',
  'application/json; charset=latin-7',
  '',
  'image/png',
);
/** encodeURIComponent, but a lone surrogate (which it refuses) goes as the UTF-8 bytes of one: malformed input for the server to refuse. */
const encode = (text: string) =>
  Array.from(text, (ch) => {
    try {
      return encodeURIComponent(ch);
    } catch {
      return '%ED%A0%80';
    }
  }).join('');
const queryString = (path: string) =>
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...fieldNames(path)), anyString),
        fc.oneof(anyString, fc.integer().map(String)),
      ),
      { maxLength: 8 },
    )
    .map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'));
/**
 * Inputs every check passes, one per procedure that takes fields: the generator spoils one field
 * of these (a hostile value, the field gone, an unknown key beside them), so that the request gets
 * past the other fields' checks to the one under test. A blind generator seldom does: it missed
 * a NUL in an otherwise good password, a 500 on PostgreSQL that was found by hand.
 */
const VALID_INPUTS: Record<string, Record<string, unknown>> = {
  'auth.login': { username: 'admin', password: 'not-the-password-1' },
  'users.create': { username: 'editor', password: 'A-strong-passphrase-42' },
  'settings.save': { site_title: 'Nearby', primary_color: '#3B82F6', default_city: 'Lisbon', distance_unit: 'km' },
  'ads.create': {
    type: 'carousel',
    title: 'Sale',
    link: 'https://shop.example.org',
    media_url: 'https://cdn.example.org/a.jpg',
  },
  'videos.create': { title: 'Intro', link: '', enabled: 1, media_url: 'https://cdn.example.org/v.mp4' },
  'plans.create': {
    name: 'Basic',
    price: 9.99,
    type: 'basic',
    description: 'For small shops',
    link: 'https://example.org/buy',
  },
  'messages.send': { name: 'Ana', email: 'ana@example.org', subject: 'Hello', body: 'A question about plans.' },
  'places.search': {
    active_categories: ['pharmacy', 'restaurant'],
    lat: 38.9,
    lon: -77.03,
    radius: 5000,
    limit: 20,
    open_now: 1,
    q: 'cafe',
    lang: 'pt',
  },
  'places.get': { type: 'node', id: 42, lat: 38.9, lon: -77.03, lang: 'fr' },
  'data.own.save': {
    name: 'Ours',
    category: 'bakery',
    lat: 43.73,
    lon: 7.42,
    opening_hours: 'Mo-Fr 09:00-17:00',
    website: 'https://example.org',
  },
  'data.own.checkHours': { value: 'Mo-Fr 09:00-17:00' },
};
const hostile = fc.oneof(
  value,
  edgeStrings.map((s) => `Valid text ${s} around it`),
);
/** A valid input with one field spoiled, gone, or joined by an unknown key. */
const spoiled = (valid: Record<string, unknown>) =>
  fc.oneof(
    fc.tuple(fc.constantFrom(...Object.keys(valid)), hostile).map(([key, bad]) => ({ ...valid, [key]: bad })),
    fc
      .constantFrom(...Object.keys(valid))
      .map((key) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key))),
    fc.tuple(anyString, hostile).map(([key, bad]) => ({ ...valid, [key]: bad })),
  );
const pathParam = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom(
    'node',
    'way',
    'relation',
    'own',
    '0',
    '-1',
    '1.5',
    '9007199254740993',
    '%2e%2e',
    '%00',
    'x'.repeat(3000),
  ),
  fc.string({ minLength: 1 }).map(encode),
);

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  // The app as deployed, with its pages: a path that resolves to one (inject, as a browser, reads
  // `/api/places/%2e%2e/%2e%2e` as `/`) gets the page, not the 503 of a site whose pages are not built.
  const webRoot = join(import.meta.dirname, '..', '..', '..', 'dist', 'web');
  if (!existsSync(join(webRoot, 'index.html')))
    throw new Error('The fuzz battery needs the built web app: run npm run build (npm test does)');
  t = await buildTestApp({ webRoot });
  cookie = await t.login();
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('fuzz: every REST route', () => {
  // Logging out, changing the password or deleting users would end the administrator's session.
  const keepsSession = (route: (typeof routes)[number]) => !/logout|password|\/users\/:id/.test(route.path);
  for (const route of routes) {
    for (const as of ['visitor', 'admin'] as const) {
      if (as === 'admin' && !keepsSession(route)) continue;
      it(`${route.method} ${route.path} as ${as}`, async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.tuple(
              fc.array(pathParam, { minLength: 2, maxLength: 2 }),
              queryString(route.path),
              body(route.path),
              contentType,
            ),
            async ([params, query, payload, type]) => {
              let i = 0;
              const path = route.path.replace(/:\w+/g, () => params[i++]);
              const url = `${path}${query ? `?${query}` : ''}`;
              const before = await checksum();
              const response = await t.app.inject({
                method: route.method,
                url,
                headers: {
                  origin: t.config.publicOrigins[0],
                  'sec-fetch-site': 'same-origin',
                  ...(type ? { 'content-type': type } : {}),
                  ...(as === 'admin' ? { cookie } : {}),
                },
                ...(route.method === 'GET' ? {} : { payload }),
              });
              const what = `${route.method} ${url.slice(0, 120)} [${type}] ${payload.slice(0, 80)}`;
              check(rest, what, response.statusCode, response.headers, response.body, 'rest');
              if (response.statusCode >= 400 && (await checksum()) !== before)
                rest.changedByRefusal.push(`${what} -> ${response.statusCode}`);
            },
          ),
          { numRuns: PER_ROUTE, seed: FULL_SIZE ? undefined : 42 },
        );
      }, 600_000);
    }
  }
});

describe('fuzz: every tRPC procedure', () => {
  const procedures = Object.entries(
    (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })._def.procedures,
  );

  it('starts its spoiled inputs from ones every check passes', async () => {
    const types = new Map(procedures.map(([name, p]) => [name, p._def.type]));
    for (const [name, input] of Object.entries(VALID_INPUTS)) {
      expect(types.has(name), name).toBe(true);
      const headers = {
        origin: t.config.publicOrigins[0],
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
        cookie,
      };
      const text = JSON.stringify(input);
      const response =
        types.get(name) === 'query'
          ? await t.app.inject({ method: 'GET', url: `/trpc/${name}?input=${encodeURIComponent(text)}`, headers })
          : await t.app.inject({ method: 'POST', url: `/trpc/${name}`, headers, payload: text });
      // a wrong password is 401 and an unknown place 404: past every check of the input
      expect([200, 401, 404], `${name}: ${response.body.slice(0, 200)}`).toContain(response.statusCode);
    }
  });

  for (const [name, procedure] of procedures) {
    if (/logout|changePassword|users\.(delete|update)/.test(name)) continue;
    const valid = VALID_INPUTS[name];
    it(`${name} (${procedure._def.type})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          valid ? fc.oneof(value, spoiled(valid)) : value,
          fc.boolean(),
          fc.boolean(),
          async (input, asAdmin, raw) => {
            const before = await checksum();
            const headers = {
              origin: t.config.publicOrigins[0],
              'sec-fetch-site': 'same-origin',
              'content-type': 'application/json',
              ...(asAdmin ? { cookie } : {}),
            };
            const text = raw && typeof input === 'string' ? input : JSON.stringify(input);
            const response =
              procedure._def.type === 'query'
                ? await t.app.inject({ method: 'GET', url: `/trpc/${name}?input=${encode(text ?? '')}`, headers })
                : await t.app.inject({ method: 'POST', url: `/trpc/${name}`, headers, payload: text ?? '' });
            const what = `${name} ${String(text).slice(0, 100)}`;
            check(trpc, what, response.statusCode, response.headers, response.body, 'trpc');
            if (response.statusCode >= 400 && (await checksum()) !== before)
              trpc.changedByRefusal.push(`${what} -> ${response.statusCode}`);
          },
        ),
        { numRuns: PER_ROUTE, seed: FULL_SIZE ? undefined : 42 },
      );
    }, 600_000);
  }
});

describe('requests a generator cannot make through inject', () => {
  /** One raw HTTP exchange over a real socket: what Node's parser and Fastify answer. */
  function raw(request: string | Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const { port } = t.app.server.address() as { port: number };
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(request));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString('latin1')));
      socket.on('error', reject);
      socket.on('close', () => {
        const [head, ...rest] = data.split('\r\n\r\n');
        const [statusLine, ...lines] = head.split('\r\n');
        const headers = Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        let body = rest.join('\r\n\r\n');
        if (headers['transfer-encoding'] === 'chunked')
          body = body
            .replace(/^[0-9a-f]+\r\n/i, '')
            .replace(/\r\n0\r\n\r\n$/, '')
            .replace(/\r\n$/, '');
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
      });
    });
  }

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  const cases: [string, string | Buffer, number][] = [
    ['a malformed URL escape', 'GET /uploads/..%c0%afx HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400],
    ['a malformed /api URL escape', 'GET /api/places/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400],
    ['an unknown /api path', 'GET /api/nothing-here HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 404],
    [
      'malformed JSON',
      'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 9\r\nConnection: close\r\n\r\n{"name":',
      400,
    ],
    ['a method no route has', 'PATCH /api/settings HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 404],
    ['a method HTTP does not know', 'FROBNICATE /api/settings HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400],
    [
      'oversized headers',
      `GET /api/settings HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
      431,
    ],
    ['a broken request line', 'GET\r\n\r\n', 400],
    [
      'a body larger than allowed',
      `POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\nConnection: close\r\n\r\n{"a":"${'a'.repeat(1000)}`,
      413,
    ],
  ];
  for (const [what, request, status] of cases) {
    it(`${what}: ${status}, the contract's shape and the security headers`, async () => {
      const answer = await raw(request);
      expect(answer.status).toBe(status);
      expect(JSON.parse(answer.body)).toEqual({ error: expect.any(String) });
      for (const header of SECURITY_HEADERS) expect(answer.headers[header], header).toBeDefined();
      check(rest, what, answer.status, answer.headers, answer.body, 'rest');
    });
  }
});

describe('a path that resolves to a page', () => {
  it('gets the page, with the security headers (the full-size run met it as /api/places/%2e%2e/%2e%2e)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/places/%2e%2e/%2e%2e' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    for (const header of SECURITY_HEADERS) expect(response.headers[header], header).toBeDefined();
  });
});

describe('fuzz figures', () => {
  it("no 5xx, every error in the contract's shape with the security headers, nothing changed by a refusal", () => {
    const tallies = [
      ['fuzz REST', rest],
      ['fuzz tRPC', trpc],
    ] as const;
    // Every figure is recorded before any is asserted, so one over its limit hides none of the others.
    for (const [battery, tally] of tallies) {
      const size = `${SIZE}; ${tally.requests.toLocaleString('en')} requests`;
      recordFigure({ battery, size, figure: '5xx answers', value: tally.fiveHundreds.length, limit: 0 });
      recordFigure({
        battery,
        size,
        figure: "error bodies not of the contract's shape",
        value: tally.badShape.length,
        limit: 0,
      });
      recordFigure({
        battery,
        size,
        figure: 'answers without the security headers',
        value: tally.noHeaders.length,
        limit: 0,
      });
      recordFigure({
        battery,
        size,
        figure: 'refused requests that changed rows',
        value: tally.changedByRefusal.length,
        limit: 0,
      });
    }
    for (const [, tally] of tallies) {
      expect(tally.requests).toBeGreaterThan(0);
      expect(tally.fiveHundreds.slice(0, 5)).toEqual([]);
      expect(tally.badShape.slice(0, 5)).toEqual([]);
      expect(tally.noHeaders.slice(0, 5)).toEqual([]);
      expect(tally.changedByRefusal.slice(0, 5)).toEqual([]);
    }
  });
});
