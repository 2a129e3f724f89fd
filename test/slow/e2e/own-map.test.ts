// The site's own map in Chromium, with Monaco's tiles built by the real tilemaker: the locator's
// and the place page's maps draw pixels with no request leaving the site; with no visitor's
// position the locator's map, and the admin's position picker, open on what the tiles cover; a
// "near me" link searches at the granted position (and says so when refused); the admin switches
// to a provider and the next page load asks that provider's tiles, with its attribution on the map.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { maskOf } from '../../../src/places/model/categories.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { buildTiles } from '../../../src/map/build.js';
import { SHARED_DATA } from '../../helpers.js';
import { writeImported } from '../../support/places.js';
import { loginThroughForm, openAdminPage } from './admin-helpers.js';
import { hasBrowser, launchBrowser, makePng, openPage, startServer, type E2EServer } from './harness.js';
import { ARTIFACTS, contextTracker, unexpectedErrors } from './public-helpers.js';

const MONACO = { latitude: 43.7384, longitude: 7.4246 };
/** What Monaco's extract covers (its header box): west, south, east, north. */
const MONACO_BOX = [7.409205, 43.72335, 7.448637, 43.75169];

/** The requests for tiles of zoom 12 or deeper that show part of Monaco. */
function monacoTiles(requests: string[]): string[] {
  const [west, south, east, north] = MONACO_BOX;
  const lonOf = (x: number, z: number) => (x / 2 ** z) * 360 - 180;
  const latOf = (y: number, z: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;
  return requests.filter((url) => {
    const [z, x, y] = (/\/tiles\/(\d+)\/(\d+)\/(\d+)\.pbf$/.exec(url) ?? []).slice(1).map(Number);
    return z >= 12 && lonOf(x, z) < east && lonOf(x + 1, z) > west && latOf(y + 1, z) < north && latOf(y, z) > south;
  });
}
const PHARMACY = {
  osmType: 'node' as const,
  osmId: 777,
  lat: 43.7386,
  lon: 7.4251,
  categories: maskOf(['pharmacy']),
  name: 'Pharmacie du Rocher',
  names: {},
  address: 'Rue Basse, Monaco',
  phone: null,
  website: null,
  openingHours: null,
  wheelchair: null,
  country: 'MC',
  timezone: 'Europe/Monaco',
  tags: { amenity: 'pharmacy' },
};

/** Whether a canvas of the map under `selector` holds a drawing (several colours), not a flat fill. */
async function mapIsDrawn(page: Page, selector: string): Promise<void> {
  await page.waitForFunction(
    (root) =>
      [...document.querySelectorAll<HTMLCanvasElement>(`${root} canvas.leaflet-tile`)].some((canvas) => {
        if (!canvas.width) return false;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        const colours = new Set<number>();
        for (let i = 0; i < data.length; i += 4 * 31) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        return colours.size >= 4;
      }),
    selector,
    { timeout: 20_000 },
  );
}

describe.skipIf(!hasBrowser)('the site’s own map', () => {
  let server: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await buildTiles({ inputs: [join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf')], output: server.config.tilesFile });
    await writeImported(createPlaceStore(server.handle), [PHARMACY]);
  }, 120_000);
  const { track } = contextTracker(() => ({ browser, server }));

  /** A page at Monaco whose every request is recorded. */
  async function monacoPage(options: Record<string, unknown> = {}) {
    const opened = track(
      await openPage(browser, {
        geolocation: MONACO,
        permissions: ['geolocation'],
        reducedMotion: 'reduce',
        ...options,
      }),
    );
    const requests: string[] = [];
    opened.context.on('request', (request) => requests.push(request.url()));
    return { ...opened, requests };
  }

  it("draws the locator's map from the site's tiles, in the page's language, asking nothing outside", async () => {
    const { page, errors, requests } = await monacoPage({ locale: 'es' });
    await page.goto(`${server.baseUrl}/`);
    await mapIsDrawn(page, '.places-map');
    expect(requests.some((url) => /\/tiles\/\d+\/\d+\/\d+\.pbf$/.test(url))).toBe(true);
    expect(requests.filter((url) => !url.startsWith(server.baseUrl))).toEqual([]);
    const attribution = page.locator('.places-map .leaflet-control-attribution');
    await expect.poll(() => attribution.textContent()).toMatch(/© OpenMapTiles © colaboradores de OpenStreetMap/);
    expect(unexpectedErrors(errors)).toEqual([]);
    // For the documentation: the locator's map as this run drew it (test/artifacts, not committed)
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.waitForTimeout(1000); // the tiles' fade-in (a picture, not an assertion)
    await page.locator('.places-map').screenshot({ path: join(ARTIFACTS, 'own-map-locator.png') });
  });

  it("draws the place page's map from the site's tiles, asking nothing outside", async () => {
    const { page, errors, requests } = await monacoPage();
    await page.goto(`${server.baseUrl}/place/node/777`);
    await page.getByRole('heading', { level: 1, name: 'Pharmacie du Rocher' }).waitFor();
    await mapIsDrawn(page, '.place-map');
    expect(requests.filter((url) => !url.startsWith(server.baseUrl))).toEqual([]);
    expect(await page.locator('.place-map .leaflet-control-attribution').textContent()).toMatch(
      /© OpenStreetMap contributors/,
    );
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it("opens the locator's map on what the tiles cover when the visitor's position is refused", async () => {
    const { page, errors, requests } = await monacoPage({ permissions: [] });
    await page.goto(`${server.baseUrl}/`);
    await page.getByText('Location access denied. Using default location.').waitFor();
    // Not the default position's blank map (Washington): Monaco, drawn.
    await expect.poll(() => monacoTiles(requests).length).toBeGreaterThan(0);
    await mapIsDrawn(page, '.places-map');
    expect(unexpectedErrors(errors)).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.waitForTimeout(1000); // the tiles' fade-in (a picture, not an assertion)
    await page.locator('.places-map').screenshot({ path: join(ARTIFACTS, 'own-map-no-position.png') });
  });

  it("opens the admin's position picker on what the tiles cover, where a click picks a point", async () => {
    const { page, errors, requests } = await monacoPage();
    await loginThroughForm(page, server.baseUrl);
    await openAdminPage(page, 'Places data');
    const picker = page.getByTestId('position-map');
    await mapIsDrawn(page, '[data-testid="position-map"]');
    expect(monacoTiles(requests).length).toBeGreaterThan(0);
    // Its middle is in Monaco, not at 20° N 0° E.
    const box = (await picker.boundingBox())!;
    await picker.click({ position: { x: box.width / 2, y: box.height / 2 } });
    const form = page.getByTestId('own-form');
    await expect.poll(() => form.getByLabel('Latitude').inputValue()).not.toBe('');
    const [west, south, east, north] = MONACO_BOX;
    const lat = Number(await form.getByLabel('Latitude').inputValue());
    const lon = Number(await form.getByLabel('Longitude').inputValue());
    expect(lat).toBeGreaterThan(south);
    expect(lat).toBeLessThan(north);
    expect(lon).toBeGreaterThan(west);
    expect(lon).toBeLessThan(east);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('runs a link without a place at the position the browser gives', async () => {
    const { page, errors } = await monacoPage();
    const search = page.waitForRequest((request) => request.url().includes('/api/places?'));
    await page.goto(`${server.baseUrl}/?c=pharmacy`);
    const url = new URL((await search).url());
    expect(url.searchParams.getAll('active_categories')).toEqual(['pharmacy']);
    expect(Number(url.searchParams.get('lat'))).toBeCloseTo(MONACO.latitude, 3);
    expect(Number(url.searchParams.get('lon'))).toBeCloseTo(MONACO.longitude, 3);
    await page.getByRole('link', { name: 'Pharmacie du Rocher' }).first().waitFor();
    expect(await page.locator('input[type=checkbox][value=pharmacy]').isChecked()).toBe(true);
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('says so when the visitor refuses the position a link without a place needs', async () => {
    const { page, requests } = await monacoPage({ permissions: [] });
    await page.goto(`${server.baseUrl}/?c=pharmacy`);
    await page.getByText('Location access denied. Please enable location services.').waitFor();
    expect(requests.filter((url) => url.includes('/api/places?'))).toEqual([]);
  });

  it("switches to a provider in the admin: the next page load asks the provider's tiles with its attribution", async () => {
    const admin = await monacoPage();
    await loginThroughForm(admin.page, server.baseUrl);
    await openAdminPage(admin.page, 'Settings');
    expect(await admin.page.getByTestId('own-tiles-state').textContent()).toBe("The site's own map is built.");
    await admin.page.getByLabel('A map provider').check();
    await admin.page.getByLabel('Tile address template').fill('https://tiles.example.test/{z}/{x}/{y}.png?key={key}');
    await admin.page.getByLabel('Attribution (plain text)').fill('© Example Tiles <b>');
    await admin.page.getByLabel('Key', { exact: true }).fill('abc-123');
    expect(await admin.page.getByLabel('Key', { exact: true }).getAttribute('type')).toBe('password');
    await admin.page.getByRole('button', { name: 'Save settings' }).click();
    // Markup in the attribution: refused, nothing saved
    await admin.page.getByText('Enter plain text, without < or >').waitFor();
    expect((await server.request({ method: 'GET', url: '/api/settings' })).json().map_base).toBe('own');
    await admin.page.getByLabel('Attribution (plain text)').fill('© Example Tiles');
    await admin.page.getByRole('button', { name: 'Save settings' }).click();
    await admin.page.getByText('Site settings updated successfully').waitFor();

    const visitor = await monacoPage();
    const png = makePng(256, 256, [200, 220, 240]);
    await visitor.page.route('https://tiles.example.test/**', (route) =>
      route.fulfill({ status: 200, contentType: 'image/png', body: png }),
    );
    const tile = visitor.page.waitForRequest((request) => request.url().startsWith('https://tiles.example.test/'));
    await visitor.page.goto(`${server.baseUrl}/`);
    expect((await tile).url()).toMatch(/^https:\/\/tiles\.example\.test\/\d+\/\d+\/\d+\.png\?key=abc-123$/);
    // The site sends its origin as the referrer to tile servers (their policies ask for it).
    expect((await tile).headers().referer).toBe(`${server.baseUrl}/`);
    const attribution = visitor.page.locator('.places-map .leaflet-control-attribution');
    await expect.poll(() => attribution.textContent()).toMatch(/© Example Tiles/);
    expect(visitor.requests.filter((url) => /\/tiles\/\d+/.test(url))).toEqual([]);
  });
});
