// Browser tests: a real server on a fresh database (with the built web app) and Debian's
// Chromium driven by playwright-core. Outside URLs (map tiles, CDNs) are blocked so nothing
// waits on the network.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { buildTestApp, freePort, type TestApp, type TestClock } from '../../helpers.js';
import type { Imported } from '../../support/templates.js';

export { freePort };

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasBrowser = existsSync(CHROMIUM_PATH);
export const WEB_ROOT = join(import.meta.dirname, '..', '..', '..', 'dist', 'web');

export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;
export const DESKTOP = { viewport: { width: 1366, height: 900 } } as const;

export interface E2EServer extends TestApp {
  baseUrl: string;
}

/** A listening server on 127.0.0.1 with the built web app, on a fresh database. */
export async function startServer(
  options: { env?: Record<string, string>; clock?: TestClock; port?: number; imported?: Imported } = {},
): Promise<E2EServer> {
  if (!existsSync(join(WEB_ROOT, 'index.html'))) throw new Error('dist/web is not built: run npm run build');
  const t = await buildTestApp({ ...options, webRoot: WEB_ROOT });
  await t.app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return { ...t, baseUrl: `http://127.0.0.1:${address.port}` };
}

const RESOLVER_RULES = '--host-resolver-rules=';
/**
 * Every name but the loopback addresses resolves to nothing, so no request leaves the machine (map
 * tiles, CDNs), without routing each request through the test process as playwright's `route` does.
 * `args` adds Chromium switches; a test's own `--host-resolver-rules=MAP places.test 127.0.0.1`
 * goes before that catch-all.
 */
export async function launchBrowser(args: string[] = []): Promise<Browser> {
  const ownRules = args.filter((a) => a.startsWith(RESOLVER_RULES)).map((a) => a.slice(RESOLVER_RULES.length));
  const rules = [...ownRules, 'MAP * ~NOTFOUND', 'EXCLUDE 127.*', 'EXCLUDE localhost'].join(', ');
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `${RESOLVER_RULES}${rules}`,
      ...args.filter((a) => !a.startsWith(RESOLVER_RULES)),
    ],
  });
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** console errors and uncaught page errors seen so far */
  errors: string[];
}

/**
 * A new context and page (requests to any host but the loopback fail: launchBrowser); console
 * errors are collected (a test asserts there are none).
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<TestPage> {
  // A bare "en" unless a test names a locale: Chromium's own en-US would mean miles (issue 11).
  const context = await browser.newContext({ ...DESKTOP, locale: 'en', ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // Blocked outside requests (tiles) are the test's doing, not the page's.
    if (/ERR_NAME_NOT_RESOLVED|net::ERR_FAILED/.test(text)) return;
    errors.push(text);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now. */
export async function axeViolations(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  // Evaluated through the debugging protocol: the site's CSP (script-src 'self') rightly refuses
  // an inline <script>, and the test must not loosen it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // The page as it settles, not mid-transition: a button fading from its disabled grey back to the
  // theme's colour has, for 0.15 s, neither's contrast (a fast CI machine ran axe in that moment).
  await page.evaluate(() => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    const settled = Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
    return Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 3000))]);
  });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.map((n: { target: string[] }) => n.target.join(' ')),
      }));
  });
}

/**
 * Holds the page's requests to `url` (a glob) until release(), to see what the page shows while it
 * waits; `count()` is how many were sent.
 */
export async function holdRequests(page: Page, url: string): Promise<{ release(): void; count(): number }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let sent = 0;
  await page.route(url, async (route) => {
    sent++;
    await held;
    await route.continue();
  });
  return { release, count: () => sent };
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
