// Other sites, in a real Chromium: a partner's page on another loopback origin (127.0.0.2) reads
// the API with and without its site key, and embeds the locator with the script tag, which loads
// in the page's language, grows to its results and searches; on a phone too. A page on an origin
// the key does not list (127.0.0.3) gets no locator and no data.
import { createServer, type Server } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { maskOf } from '../../../src/places/model/categories.js';
import type { CategoryId } from '../../../src/places/model/category-ids.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { writeImported } from '../../support/places.js';
import { DESKTOP, hasBrowser, launchBrowser, PHONE, startServer, type E2EServer } from './harness.js';
import { contextTracker, DC_CENTRE } from './public-helpers.js';

let osmId = 1;
const place = (name: string, category: CategoryId, northKm: number) => ({
  osmType: 'node' as const,
  osmId: osmId++,
  lat: DC_CENTRE.latitude + northKm / 111.2,
  lon: DC_CENTRE.longitude,
  categories: maskOf([category]),
  name,
  names: null,
  address: null,
  phone: null,
  website: null,
  openingHours: null,
  wheelchair: null,
  country: 'US',
  timezone: 'America/New_York',
  tags: {},
});

/** Another site: a static server on its own loopback address answering `pages[path]`. */
async function otherSite(
  host: string,
  pages: Record<string, (origin: string) => string>,
): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const page = pages[request.url ?? ''];
    if (!page) {
      response.statusCode = 404;
      return response.end();
    }
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(page(`http://${host}:${(server.address() as { port: number }).port}`));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, origin: `http://${host}:${(server.address() as { port: number }).port}` };
}

describe.skipIf(!hasBrowser)('the API and the locator on other sites', () => {
  let server: E2EServer;
  let browser: Browser;
  let key: string;
  let keyId: number;
  let cookie: string;
  let partner: { server: Server; origin: string };
  let stranger: { server: Server; origin: string };

  const snippet = (extra = '') =>
    `<!doctype html><html lang="fr"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Partner</title></head>` +
    `<body style="margin:0"><h1>Town hall</h1><div id="box"><script src="${server.baseUrl}/embed.js" data-key="${key}" data-categories="pharmacy" ` +
    `data-lat="${DC_CENTRE.latitude}" data-lon="${DC_CENTRE.longitude}" ${extra} async></script></div><p id="after">After the locator</p></body></html>`;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await writeImported(createPlaceStore(server.handle), [
      place('Capitol Pharmacy', 'pharmacy', 0.3),
      place('Corner Drugstore', 'pharmacy', 0.8),
      place('Capital Bank', 'bank', 0.5),
    ]);
    const blank = () => '<!doctype html><html lang="en"><head><title>Blank</title></head><body></body></html>';
    partner = await otherSite('127.0.0.2', { '/': blank, '/locator': () => snippet() });
    stranger = await otherSite('127.0.0.3', {
      '/': blank,
      '/locator': () => snippet(),
      // Framing /embed directly, without the script's `parent`: the browser must refuse it.
      '/frame': () =>
        `<!doctype html><html><body><iframe id="direct" src="${server.baseUrl}/embed?key=${key}&c=pharmacy"></iframe></body></html>`,
    });
    cookie = await server.login();
    const created = await server.request({
      method: 'POST',
      url: '/api/admin/keys',
      cookie,
      payload: { name: 'Town hall', origins: [partner.origin], daily_limit: 1000 },
    });
    ({ key, id: keyId } = created.json());
  }, 60_000);

  const { track } = contextTracker(() => ({ browser, server }));
  // The tests' own servers only (launchBrowser refuses every other name: map tiles).
  async function open(options: BrowserContextOptions = DESKTOP) {
    const context = await browser.newContext({ locale: 'en', ...options });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    return track({ context, page, errors });
  }
  const read = (page: Page, url: string, headers: Record<string, string> = {}) =>
    page.evaluate(
      async ([target, sent]) => {
        try {
          const response = await fetch(target, { headers: sent });
          const body = await response.json();
          return {
            status: response.status,
            names: Array.isArray(body.results) ? body.results.map((r: { name: string }) => r.name) : null,
            error: body.error ?? null,
          };
        } catch (error) {
          return { status: 0, names: null, error: String(error) };
        }
      },
      [url, headers] as const,
    );

  it('a page on another origin reads the API with and without its key', async () => {
    const { page } = await open();
    await page.goto(`${partner.origin}/`);
    const search = `${server.baseUrl}/api/places?active_categories=pharmacy&lat=${DC_CENTRE.latitude}&lon=${DC_CENTRE.longitude}`;
    expect(await read(page, search)).toEqual({
      status: 200,
      names: ['Capitol Pharmacy', 'Corner Drugstore'],
      error: null,
    });
    // With the header: the browser asks first (a preflight), then reads.
    expect(await read(page, search, { 'X-Api-Key': key })).toMatchObject({
      status: 200,
      names: ['Capitol Pharmacy', 'Corner Drugstore'],
    });
    expect(await read(page, `${search}&key=${key}`)).toMatchObject({
      status: 200,
      names: ['Capitol Pharmacy', 'Corner Drugstore'],
    });
    expect(await read(page, search, { 'X-Api-Key': 'pk_unknown_key_000000000' })).toMatchObject({
      status: 401,
      error: 'Unknown or deleted API key',
    });
    // The admin paths answer no other origin: the browser does not even let the page see them.
    expect((await read(page, `${server.baseUrl}/api/admin/status`)).status).toBe(0);
  });

  it('embeds the locator with the script tag: in the page language, sized to its results, searching', async () => {
    const { page, errors } = await open();
    await page.goto(`${partner.origin}/locator`);
    const frame = page.frameLocator('#box iframe');
    // The page is in French (<html lang="fr">), and the snippet's search runs at once.
    await frame.getByRole('heading', { name: 'Rechercher des lieux à proximité' }).waitFor();
    await expect
      .poll(() => frame.locator('.result-card h3').allTextContents(), { timeout: 15_000 })
      .toEqual(['Capitol Pharmacy', 'Corner Drugstore']);
    // The frame grows to its content: no scroll bar inside, the text after it pushed down.
    const sizes = async () =>
      page.evaluate(() => ({ frame: document.querySelector('#box iframe')!.getBoundingClientRect().height }));
    await expect.poll(async () => (await sizes()).frame, { timeout: 10_000 }).toBeGreaterThan(900);
    const inner = await frame.locator('.embed').evaluate((element) => ({
      height: element.getBoundingClientRect().height,
      scroll: document.scrollingElement!.scrollHeight,
      view: window.innerHeight,
    }));
    expect(inner.scroll).toBeLessThanOrEqual(inner.view + 1);
    expect(Math.abs((await sizes()).frame - inner.height)).toBeLessThanOrEqual(2);
    // Only the frame's own messages resize it: the page itself posting one changes nothing.
    const before = (await sizes()).frame;
    await page.evaluate(() => window.postMessage({ type: 'nearby-place-finder:height', height: 5000 }, '*'));
    await page.waitForTimeout(300);
    expect((await sizes()).frame).toBe(before);

    // A search in it, by name; it counts against the key.
    await frame.getByLabel('Nom', { exact: true }).fill('Corner');
    await frame.getByRole('button', { name: 'Rechercher près de moi' }).click();
    await expect.poll(() => frame.locator('.result-card h3').allTextContents()).toEqual(['Corner Drugstore']);
    // No ads, and the frame's address did not move.
    expect(await frame.locator('.static-ads, .ad-section').count()).toBe(0);
    expect(
      page
        .frames()
        .find((f) => f.url().includes('/embed?'))
        ?.url(),
    ).toContain(`key=${key}`);
    await expect
      .poll(
        async () =>
          (await server.request({ method: 'GET', url: '/api/admin/keys', cookie }))
            .json()
            .find((k: { id: number }) => k.id === keyId).used_today,
        { timeout: 5_000 },
      )
      .toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
  });

  it('fits a phone', async () => {
    const { page } = await open({ ...PHONE });
    await page.goto(`${partner.origin}/locator`);
    const frame = page.frameLocator('#box iframe');
    await expect
      .poll(() => frame.locator('.result-card h3').allTextContents(), { timeout: 15_000 })
      .toEqual(['Capitol Pharmacy', 'Corner Drugstore']);
    const widths = await page.evaluate(() => ({
      frame: document.querySelector('#box iframe')!.getBoundingClientRect().width,
      page: document.scrollingElement!.scrollWidth,
    }));
    expect(widths.frame).toBeLessThanOrEqual(390);
    expect(widths.page).toBeLessThanOrEqual(390);
    const inner = await frame.locator('.embed').evaluate(() => document.scrollingElement!.scrollWidth);
    expect(inner).toBeLessThanOrEqual(390);
    await frame.getByRole('button', { name: 'Rechercher près de moi' }).tap();
    await expect.poll(() => frame.locator('.result-card h3').count()).toBe(2);
  });

  it('a page on an origin the key does not list gets no locator and no data', async () => {
    const { page } = await open();
    await page.goto(`${stranger.origin}/locator`);
    await page.locator('#box iframe').waitFor({ state: 'attached' });
    await page.goto(`${stranger.origin}/frame`);
    await page.waitForTimeout(1500);
    for (const frame of page.frames().slice(1)) expect(await frame.locator('.locator').count()).toBe(0);
    await page.goto(`${stranger.origin}/locator`);
    await page.waitForTimeout(1500);
    for (const frame of page.frames().slice(1)) expect(await frame.locator('.locator').count()).toBe(0);
    const search = `${server.baseUrl}/api/places?active_categories=pharmacy&lat=${DC_CENTRE.latitude}&lon=${DC_CENTRE.longitude}`;
    expect(await read(page, search, { 'X-Api-Key': key })).toEqual({
      status: 403,
      names: null,
      error: 'This API key may not be used from this origin',
    });
    expect(await read(page, `${search}&key=${key}`)).toMatchObject({ status: 403, names: null });

    // What the server says, read without a browser: the frame is allowed only on the key's origins.
    const embed = await fetch(`${server.baseUrl}/embed?key=${key}&parent=${encodeURIComponent(partner.origin)}`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get('content-security-policy')).toMatch(
      new RegExp(`frame-ancestors ${partner.origin.replace(/\./g, '\\.')}(;|$)`),
    );
    expect(embed.headers.get('x-frame-options')).toBeNull();
    expect(
      (await fetch(`${server.baseUrl}/embed?key=${key}&parent=${encodeURIComponent(stranger.origin)}`)).status,
    ).toBe(403);
    const unknown = await fetch(`${server.baseUrl}/embed?key=pk_unknown_key_000000000`);
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    const home = await fetch(`${server.baseUrl}/`);
    expect(home.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    const script = await fetch(`${server.baseUrl}/embed.js`);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });
});
