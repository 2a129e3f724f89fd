// Shared steps of the public-site browser tests: the two window sizes, content made through
// the API before a page loads, places imported from ../shared/data,
// and screenshots under test/artifacts/.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach } from 'vitest';
import { SHARED_DATA, type TestApp } from '../../helpers.js';
import { DESKTOP, PHONE, type E2EServer } from './harness.js';

export { makePng, unexpectedErrors } from './harness.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..');
export const ARTIFACTS = join(ROOT, 'test', 'artifacts');
export const FIXTURES = join(ROOT, 'test', 'fixtures');
export const DC_GEOJSON = join(SHARED_DATA, 'dc-openstreetpois-2013.geojson');
/** The spec's default position, the centre of Washington DC. */
export const DC_CENTRE = { latitude: 38.9072, longitude: -77.0369 };

/** Every screen is checked at both sizes. */
export const DEVICES = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const;

export async function upload(t: TestApp, cookie: string, file: Buffer, filename: string): Promise<string> {
  const boundary = '----public-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await t.request({
    method: 'POST',
    url: '/api/uploads',
    cookie,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  if (response.statusCode !== 201) throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
  return response.json().url as string;
}

export const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

/** Calls a JSON admin path and fails loudly when the server refuses. */
export async function adminCall(
  t: TestApp,
  cookie: string,
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  const response = await t.request({
    method,
    url,
    cookie,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (response.statusCode >= 300) throw new Error(`${method} ${url} failed: ${response.statusCode} ${response.body}`);
  return response.json() as { success: boolean; id?: number };
}

/** Loads an OSM extract into the running server's database with the project's import command. */
export async function importPlaces(t: TestApp, file: string): Promise<void> {
  await run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'import.ts'), file], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `sqlite:${join(t.dir, 'app.db')}`, LOG_LEVEL: 'silent' },
    timeout: 120_000,
  });
}

/**
 * Ticks a locator category by its visible name, opening "More categories" first when the box
 * waits behind it (only the everyday categories show at once).
 */
export async function tickCategory(page: Page, name: string | RegExp): Promise<void> {
  const box = page.getByRole('checkbox', { name, exact: typeof name === 'string' });
  if (!(await box.isVisible())) {
    const more = page.locator('.categories__more');
    if ((await more.getAttribute('aria-expanded')) === 'false') await more.click();
  }
  await box.check();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
}

/**
 * Keeps every context a test opens, so afterEach closes them even when the test failed early,
 * and closes the suite's browser and server after all; a shorter action timeout makes a failing
 * step name itself before the test's own timeout.
 */
export function contextTracker(suite: () => { browser?: Browser; server?: E2EServer }) {
  const open: BrowserContext[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((context) => context.close().catch(() => undefined)));
  });
  afterAll(async () => {
    const { browser, server } = suite();
    await browser?.close();
    await server?.close();
  });
  return {
    track<T extends { context: BrowserContext }>(opened: T): T {
      opened.context.setDefaultTimeout(15_000);
      open.push(opened.context);
      return opened;
    },
  };
}
