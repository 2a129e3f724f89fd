// Builds the app on a fresh, migrated SQLite file in a temp folder, with a controllable clock.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { createDb, type DbHandle } from '../db/index.js';
import { createApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';

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
  /** logs in and returns the Cookie header value */
  login(username?: string, password?: string): Promise<string>;
  /** inject with the site's own origin, as the browser would send it */
  request(options: InjectOptions & { cookie?: string }): ReturnType<FastifyInstance['inject']>;
  close(): Promise<void>;
}

export async function buildTestApp(
  options: { env?: Record<string, string>; clock?: TestClock; webRoot?: string; logger?: boolean } = {},
): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'places-test-'));
  const config: Config = {
    ...loadConfig({
      ADMIN_PASSWORD,
      OVERPASS_URL: 'off',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'silent',
      ...options.env,
      DATABASE_URL: options.env?.DATABASE_URL ?? `sqlite:${join(dir, 'app.db')}`,
      UPLOAD_DIR: options.env?.UPLOAD_DIR ?? join(dir, 'uploads'),
    }),
    dataDir: dir,
  };
  const clock = options.clock ?? testClock();
  const handle = createDb(config.database);
  const announced: string[] = [];
  const app = await createApp({
    config,
    handle,
    now: clock.now,
    webRoot: options.webRoot ?? join(dir, 'no-web'),
    announce: (text) => announced.push(text),
    logger: options.logger ?? false,
  });
  await app.ready();
  const origin = config.publicOrigins[0];

  const request: TestApp['request'] = ({ cookie, headers, ...rest }) =>
    app.inject({
      ...rest,
      headers: { origin, 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}), ...headers },
    });

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
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
