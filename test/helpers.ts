// Builds the app on a fresh, migrated database of the test pass's engine (an SQLite file in a temp
// folder, or a PostgreSQL database of the pass's server), with a controllable clock; optionally
// with real extracts already imported (a copy of the run's template, test/support/templates.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRPCError } from '@trpc/server';
import { expect } from 'vitest';
import { ZodError } from 'zod';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { createDb, type DbHandle } from '../db/index.js';
import { freshDatabase, type TestDatabase } from './support/databases.js';
import { importedDatabase, type Imported } from './support/templates.js';
import { createApp, type AppOptions } from '../src/app.js';
import { DEFAULT_SHEDDING } from '../src/load-shedding.js';
import type { SessionUser } from '../src/auth/sessions.js';
import { loadConfig, type Config } from '../src/config.js';
import type { Lang } from '../src/i18n.js';
import { createCaller } from '../src/procedures/index.js';
import { createServices, type Services } from '../src/services.js';
import type { Context } from '../src/trpc/context.js';
import { describeZodError } from '../src/trpc/init.js';
import { checkAnswer } from './support/openapi.js';

export const ADMIN_PASSWORD = 'correct horse battery staple';
/** Where the real OSM extracts live (never copied into the project). */
export const SHARED_DATA = join(import.meta.dirname, '..', '..', 'shared', 'data');

export interface TestClock {
  now(): number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function testClock(start = Date.parse('2026-11-21T12:00:00Z')): TestClock {
  let current = start;
  return {
    now: () => current,
    set: (ms) => void (current = ms),
    advance: (ms) => void (current += ms),
  };
}

export interface TestApp {
  app: FastifyInstance;
  handle: DbHandle;
  config: Readonly<Config>;
  clock: TestClock;
  dir: string;
  /** lines a generated first-admin password was announced in */
  announced: string[];
  /** services for procedure callers (the HTTP app has its own) */
  services?: Services;
  /** logs in and returns the Cookie header value */
  login(username?: string, password?: string): Promise<string>;
  /** inject with the site's own origin, as the browser would send it */
  request(options: InjectOptions & { cookie?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function buildTestApp(
  options: {
    env?: Record<string, string>;
    clock?: TestClock;
    webRoot?: string;
    logStream?: NodeJS.WritableStream;
    timeouts?: AppOptions['timeouts'];
    shedding?: AppOptions['shedding'];
    /** real extracts the database holds from the start, as `npm run import` wrote them */
    imported?: Imported;
  } = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'places-test-'));
  const database: TestDatabase | null = options.env?.DATABASE_URL
    ? null
    : options.imported
      ? await importedDatabase(dir, options.imported)
      : await freshDatabase(dir);
  const config: Config = {
    ...loadConfig({
      ADMIN_PASSWORD,
      OVERPASS_URL: 'off',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'silent',
      ...options.env,
      DATABASE_URL: options.env?.DATABASE_URL ?? database!.url,
      UPLOAD_DIR: options.env?.UPLOAD_DIR ?? join(dir, 'uploads'),
      // never the project's own data/tiles.mbtiles
      TILES_FILE: options.env?.TILES_FILE ?? join(dir, 'tiles.mbtiles'),
    }),
    dataDir: dir,
  };
  const clock = options.clock ?? testClock();
  const handle = createDb(config.database, { poolSize: 4 });
  const announced: string[] = [];
  const app = await createApp({
    config,
    handle,
    now: clock.now,
    webRoot: options.webRoot ?? join(dir, 'no-web'),
    announce: (text) => announced.push(text),
    logger: options.logStream ? { stream: options.logStream } : false,
    timeouts: options.timeouts,
    // inject() never leaves the microtask queue, so the event loop's turns, by which a crowd is
    // seen, do not pass: a long run of injected requests would look like one late turn. Only the
    // in-flight bound holds in-process; tests over real sockets set what they test.
    shedding: options.shedding ?? { ...DEFAULT_SHEDDING, maxEventLoopDelayMs: Infinity },
  });
  await app.ready();
  const origin = config.publicOrigins[0];

  const request: TestApp['request'] = async ({ cookie, headers, ...rest }) => {
    const response = await app.inject({
      ...rest,
      // A header given as undefined is left out (a request that does not send it).
      headers: Object.fromEntries(
        Object.entries({ origin, 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}), ...headers }).filter(
          ([, v]) => v !== undefined,
        ),
      ) as Record<string, string>,
    });
    // Every answer an API test receives must be one the OpenAPI document describes.
    if (String(rest.url ?? '').startsWith('/api/') && rest.method !== 'HEAD') {
      checkAnswer(
        String(rest.method ?? 'GET'),
        String(rest.url),
        response.statusCode,
        response.headers['content-type'] as string | undefined,
        response.body,
      );
    }
    return response;
  };

  return {
    app,
    handle,
    config,
    clock,
    dir,
    announced,
    request,
    async login(username = config.adminUsername, password = ADMIN_PASSWORD) {
      const response = await request({ method: 'POST', url: '/api/admin/login', payload: { username, password } });
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
      const cookie = response.cookies.find((c) => c.name === 'sid');
      if (!cookie) throw new Error('login set no cookie');
      return `sid=${cookie.value}`;
    },
    async close() {
      await app.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A cookie jar standing in for the HTTP reply in procedure tests. */
export function memoryCookie(current?: string) {
  const jar = {
    current,
    set(value: string) {
      jar.current = value;
    },
    clear() {
      jar.current = undefined;
    },
  };
  return jar;
}

/**
 * A tRPC caller on the test app's database, as `session` (null: a visitor). Procedures run
 * without HTTP, as tRPC's own examples test them.
 */
export async function callerFor(
  t: TestApp,
  as: { session?: SessionUser | null; cookie?: ReturnType<typeof memoryCookie>; ip?: string; lang?: Lang } = {},
) {
  const services = (t.services ??= createServices(t.config, t.handle, t.clock.now));
  const ctx: Context = {
    db: t.handle.db,
    config: t.config,
    services,
    now: t.clock.now,
    log: { info() {}, warn() {}, error() {} },
    ip: as.ip ?? '127.0.0.1',
    lang: as.lang ?? 'en',
    session: as.session ?? null,
    cookie: as.cookie ?? memoryCookie(),
  };
  return createCaller(ctx);
}

/** The first admin's session, as a caller would have it after login. */
export async function adminSession(t: TestApp): Promise<SessionUser> {
  const row = await t.handle.db
    .selectFrom('admin_users')
    .select(['id', 'username'])
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return { userId: row.id, username: row.username, mustChangePassword: false };
}

/** Expects a TRPCError of `code`, whose message (as HTTP clients see it) matches `message`. */
export async function expectTRPCError(
  promise: Promise<unknown>,
  code: TRPCError['code'],
  message?: RegExp,
): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  expect((error as TRPCError).code).toBe(code);
  // Over HTTP the error formatter turns a zod error into "field: message"; do the same here.
  const cause = (error as TRPCError).cause;
  if (message)
    expect(cause instanceof ZodError ? describeZodError(cause) : (error as TRPCError).message).toMatch(message);
}

export { freePort } from '../support/ports.js';
