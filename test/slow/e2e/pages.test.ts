// The server-rendered pages in Chromium: hydration without a warning or error in the console in
// all five languages (home, contact, plans, a place, a group; the maps drawn once hydrated, into the box
// the server kept, without shifting the page), the page readable with JavaScript off, links that
// stay in the page's language, the language menu moving between paths, and a visitor's kept
// language taking them to their page.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { LANGUAGES, type Lang } from '../../../src/i18n.js';
import { dictionaries } from '../../../web/i18n/index.js';
import { maskOf } from '../../../src/places/model/categories.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { writeImported } from '../../support/places.js';
import { hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import { contextTracker, DC_CENTRE } from './public-helpers.js';

const PLACE = {
  osmType: 'node' as const,
  osmId: 5151,
  lat: DC_CENTRE.latitude,
  lon: DC_CENTRE.longitude + 0.002,
  categories: maskOf(['bakery']),
  name: 'Dupont Bakery',
  names: { fr: 'Boulangerie Dupont' },
  address: '1500 Connecticut Ave NW, Washington 20036',
  phone: '+1 202 555 0199',
  website: null,
  openingHours: 'Mo-Sa 07:00-19:00; Su 08:00-14:00',
  wheelchair: 'limited' as const,
  country: 'US',
  timezone: 'America/New_York',
  tags: { shop: 'bakery' },
};

/** The group page the bakery is in: bakeries in Washington. */
const GROUP = '/places/bakery/washington-d-c';

const prefixed = (lang: Lang, rest: string) => (lang === 'en' ? rest : rest === '/' ? `/${lang}/` : `/${lang}${rest}`);

/** Everything the console said above info level, and uncaught errors: hydration speaks there. */
function listen(page: Page): string[] {
  const said: string[] = [];
  page.on('console', (message) => {
    // blocked outside requests (map tiles) are the test's doing, not the page's
    if (/ERR_NAME_NOT_RESOLVED|net::ERR_FAILED/.test(message.text())) return;
    if (message.type() === 'error' || message.type() === 'warning') said.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => said.push(`pageerror: ${error.message}`));
  return said;
}

describe.skipIf(!hasBrowser)('server-rendered pages in the browser', () => {
  let server: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await writeImported(createPlaceStore(server.handle), [PLACE]);
  });
  const { track } = contextTracker(() => ({ browser, server }));

  for (const lang of LANGUAGES) {
    it(`hydrates every page in ${lang} without a warning, the maps in the kept box, nothing shifting`, async () => {
      const { page, context } = track(
        await openPage(browser, { locale: lang, geolocation: DC_CENTRE, permissions: ['geolocation'] }),
      );
      await context.addInitScript((l) => localStorage.setItem('language', l), lang);
      const said = listen(page);
      await page.addInitScript(() => {
        (window as unknown as { shifts: number }).shifts = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) (window as unknown as { shifts: number }).shifts += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      for (const rest of ['/', '/contact', '/plans', '/place/node/5151', GROUP]) {
        const path = prefixed(lang, rest);
        await page.goto(server.baseUrl + path);
        // hydrated: the app's effects have run (the maps load only then)
        if (rest === '/') await page.locator('.places-map.leaflet-container').waitFor();
        if (rest.startsWith('/place/')) await page.locator('.place-map.leaflet-container').waitFor();
        if (rest === '/contact' || rest === '/plans' || rest === GROUP)
          await page.waitForFunction(
            () => document.title.length > 0 && document.querySelector('#root')?.children.length,
          );
        await page.waitForLoadState('networkidle');
        expect(new URL(page.url()).pathname, path).toBe(path);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
        if (rest.startsWith('/place/')) {
          expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
            lang === 'fr' ? 'Boulangerie Dupont' : 'Dupont Bakery',
          );
          expect(
            await page.evaluate(() => (window as unknown as { shifts: number }).shifts),
            `${path}: layout shift`,
          ).toBeLessThanOrEqual(0.1);
        }
        if (rest === GROUP) {
          const bakery = dictionaries[lang]['category.bakery'];
          expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(bakery);
          expect(
            await page
              .getByRole('link', { name: lang === 'fr' ? 'Boulangerie Dupont' : 'Dupont Bakery' })
              .getAttribute('href'),
          ).toBe(prefixed(lang, '/place/node/5151'));
        }
      }
      expect(said).toEqual([]);
    });
  }

  it('reads the same with JavaScript off', async () => {
    const { page } = track(await openPage(browser, { javaScriptEnabled: false }));
    await page.goto(`${server.baseUrl}/fr/place/node/5151`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Boulangerie Dupont');
    expect(await page.locator('.hours-table tr').count()).toBe(7);
    expect(await page.getByRole('link', { name: '+1 202 555 0199' }).count()).toBe(1);
    await page.goto(`${server.baseUrl}/it/plans`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(dictionaries.it['plans.heading']);
    expect(await page.getByRole('link', { name: 'Contatti' }).first().getAttribute('href')).toBe('/it/contact');
    // from the home page to a group, and from it to the place, by links alone
    await page.goto(`${server.baseUrl}/fr/`);
    await page.getByRole('link', { name: dictionaries.fr['category.bakery'] }).click();
    await page.waitForURL(`**/fr${GROUP}`);
    await page.getByRole('link', { name: 'Boulangerie Dupont' }).click();
    await page.waitForURL('**/fr/place/node/5151');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Boulangerie Dupont');
  });

  it('moves from a place to the home page, a group and a place again, in the app', async () => {
    const { page } = track(await openPage(browser, { locale: 'en' }));
    const said = listen(page);
    await page.goto(`${server.baseUrl}/place/node/5151`);
    await page.locator('.place-map.leaflet-container').waitFor();
    // to the home page in the app: its groups come from /api/groups
    await page.getByRole('link', { name: /Back to the search/ }).click();
    await page.getByRole('link', { name: 'Bakeries' }).click();
    await page.waitForURL(`**${GROUP}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Bakeries in Washington, D.C.');
    expect(await page.title()).toMatch(/^Bakeries in Washington, D.C. · /);
    await page.getByRole('link', { name: 'Dupont Bakery' }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Dupont Bakery');
    await page.waitForLoadState('networkidle');
    expect(said).toEqual([]);
  });

  it('keeps links in the language, moves between languages with the menu, and takes a visitor to their kept language', async () => {
    const { page, context } = track(await openPage(browser, { locale: 'en' }));
    const said = listen(page);
    await context.addInitScript(() => {
      if (!localStorage.getItem('language')) localStorage.setItem('language', 'fr');
    });
    // kept French: the English page takes them to the French one
    await page.goto(`${server.baseUrl}/plans`);
    await page.waitForURL(`${server.baseUrl}/fr/plans`);
    await page.getByRole('link', { name: 'Contact' }).first().click();
    await page.waitForURL(`${server.baseUrl}/fr/contact`);
    await page.getByLabel('Langue').selectOption('it');
    await page.waitForURL(`${server.baseUrl}/it/contact`);
    expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('language')])).toEqual([
      'it',
      'it',
    ]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(dictionaries.it['contact.heading']);
    await page.getByLabel('Lingua').selectOption('en');
    await page.waitForURL(`${server.baseUrl}/contact`);
    await page.reload();
    expect(new URL(page.url()).pathname).toBe('/contact');
    expect(said).toEqual([]);
  });
});
