// Shared steps of the public-site browser tests: the two window sizes, content made through
// the API before a page loads, a real PNG made on the spot, places imported from ../shared/data,
// and screenshots under test/artifacts/.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { SHARED_DATA, type TestApp } from '../helpers.js';
import { DESKTOP, PHONE } from './harness.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
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

/** A real PNG: a solid `width` x `height` picture of one colour (8-bit RGB). */
export function makePng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (data: Buffer) => {
    let c = 0xffffffff;
    for (const byte of data) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Uploads a file as the admin would (POST /api/uploads) and returns its /uploads/ path. */
export async function upload(t: TestApp, cookie: string, file: Buffer, filename: string): Promise<string> {
  const boundary = '----public-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
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
export async function adminCall(t: TestApp, cookie: string, method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const response = await t.request({ method, url, cookie, ...(payload === undefined ? {} : { payload: payload as object }) });
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

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
}

/**
 * Console errors, minus the browser's own line for an answer the test caused on purpose
 * (a 503 for the retry path, a 404 for a broken image): the page itself logged nothing.
 */
export function unexpectedErrors(errors: string[], expectedStatuses: number[] = []): string[] {
  return errors.filter((text) => {
    const status = /the server responded with a status of (\d+)/.exec(text)?.[1];
    return !(status && expectedStatuses.includes(Number(status)));
  });
}

/**
 * Keeps every context a test opens, so afterEach closes them even when the test failed early;
 * a shorter action timeout makes a failing step name itself before the test's own timeout.
 */
export function contextTracker() {
  const open: BrowserContext[] = [];
  return {
    track<T extends { context: BrowserContext }>(opened: T): T {
      opened.context.setDefaultTimeout(15_000);
      open.push(opened.context);
      return opened;
    },
    async closeAll(): Promise<void> {
      await Promise.all(open.splice(0).map((context) => context.close().catch(() => undefined)));
    },
  };
}
