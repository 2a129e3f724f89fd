// The locator's map and cards in a real browser, on Monaco's real data (100 restaurants around
// the harbour): the pins of the shown cards numbered like them, inside the map and never in a
// cluster; card and pin lighting each other up and a pin leading to its card; names for the
// clusters and the visitor; where the focus goes; desktop and phone, English and French.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import type { PlacesResponse } from '../../../web/lib/rest';
import { SHARED_DATA } from '../../helpers.js';
import {
  axeViolations,
  hasBrowser,
  holdRequests,
  launchBrowser,
  openPage,
  startServer,
  type E2EServer,
} from './harness.js';
import { contextTracker, DEVICES, importPlaces } from './public-helpers.js';
import { join } from 'node:path';

const MONACO = join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf');
/** By the harbour (Port Hercule): restaurants all around. */
const HARBOUR = { latitude: 43.7347, longitude: 7.4206 };

const TEXTS = {
  en: {
    restaurants: 'Restaurants',
    search: 'Search Near Me',
    you: 'You are here',
    cluster: /^\d+ places here: press to zoom in$/,
  },
  fr: {
    restaurants: 'Restauration',
    search: 'Rechercher près de moi',
    you: 'Vous êtes ici',
    cluster: /^\d+ lieux ici : appuyez pour zoomer$/,
  },
} as const;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
const inside = (inner: Box, outer: Box) =>
  inner.left >= outer.left - 0.5 &&
  inner.right <= outer.right + 0.5 &&
  inner.top >= outer.top - 0.5 &&
  inner.bottom <= outer.bottom + 0.5;

/** The page's boxes of the map, every numbered pin (with its number and name) and the visitor. */
function mapLayout(page: Page) {
  return page.evaluate(() => {
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    return {
      map: box(document.querySelector('.places-map')!),
      pins: [...document.querySelectorAll('.leaflet-marker-icon.place-pin')].map((pin) => ({
        box: box(pin),
        number: pin.querySelector('.place-pin__number')?.textContent ?? '',
        title: pin.getAttribute('title') ?? '',
        inCluster: pin.closest('.marker-cluster') !== null,
      })),
      visitor: [...document.querySelectorAll('.user-position')].map(box),
    };
  });
}

describe.skipIf(!hasBrowser)('the locator map and its cards (Monaco)', () => {
  let server: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await importPlaces(server, MONACO);
  });
  const { track } = contextTracker(() => ({ browser, server }));

  for (const [device, viewport] of DEVICES) {
    for (const lang of ['en', 'fr'] as const) {
      const t = TEXTS[lang];
      const options: BrowserContextOptions = {
        ...viewport,
        locale: lang,
        geolocation: HARBOUR,
        permissions: ['geolocation'],
      };

      /** `still`: no animation (the flight, smooth scrolls), so that the pointer stays where it is put. */
      async function searchRestaurants(still = false) {
        const opened = track(await openPage(browser, still ? { ...options, reducedMotion: 'reduce' } : options));
        const { page } = opened;
        await page.goto(server.baseUrl + '/');
        await page
          .getByText(lang === 'en' ? 'Using your current location.' : 'Votre position actuelle est utilisée.')
          .waitFor();
        await page.getByRole('checkbox', { name: t.restaurants, exact: true }).check();
        const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/places');
        await page.getByRole('button', { name: t.search }).click();
        const body = (await (await answer).json()) as PlacesResponse;
        await page.locator('.result-card').nth(11).waitFor();
        return { ...opened, body };
      }

      describe(`${device}, ${lang}`, () => {
        it('frames the visitor and the twelve numbered pins, none in a cluster; names the clusters and the visitor', async () => {
          const { page, errors, body } = await searchRestaurants();
          // Monaco's hundred restaurants: the first answer is full.
          expect(body.results.length).toBe(100);
          // Focus moved to the results heading once the answer came.
          await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('results-heading');

          // After the flight: the visitor and every numbered pin inside the map.
          await expect
            .poll(
              async () => {
                const layout = await mapLayout(page);
                return (
                  layout.pins.length === 12 &&
                  layout.visitor.length === 1 &&
                  [...layout.pins.map((p) => p.box), ...layout.visitor].every((b) => inside(b, layout.map))
                );
              },
              { timeout: 10_000 },
            )
            .toBe(true);
          const layout = await mapLayout(page);
          const names = await page.locator('.result-card h3').allTextContents();
          expect(layout.pins.map((pin) => pin.number)).toEqual(names.map((_, i) => String(i + 1)));
          expect(layout.pins.map((pin) => pin.title)).toEqual(names.map((name, i) => `${i + 1}. ${name}`));
          expect(layout.pins.every((pin) => !pin.inCluster)).toBe(true);
          // Each card shows the number of its pin.
          expect(await page.locator('.result-card__number').allTextContents()).toEqual(
            names.map((_, i) => String(i + 1)),
          );
          // Centred on the visitor (within a pixel or two of the map's middle).
          const [visitor] = layout.visitor;
          expect(Math.abs((visitor.left + visitor.right) / 2 - (layout.map.left + layout.map.right) / 2)).toBeLessThan(
            3,
          );
          expect(Math.abs((visitor.top + visitor.bottom) / 2 - (layout.map.top + layout.map.bottom) / 2)).toBeLessThan(
            3,
          );

          // The other 88 places are dots or clusters, each cluster named for a screen reader.
          const clusters = page.locator('.marker-cluster');
          expect(await clusters.count()).toBeGreaterThan(0);
          expect(await page.getByRole('button', { name: t.cluster }).count()).toBe(await clusters.count());
          expect(await page.locator('.leaflet-marker-pane').getByRole('button', { name: /^\d+$/ }).count()).toBe(0);
          // The visitor: an image with a name, not a Tab stop.
          expect(await page.getByRole('img', { name: t.you }).count()).toBe(1);
          expect(await page.locator('.user-position').getAttribute('tabindex')).toBe(null);
          expect(await axeViolations(page)).toEqual([]);

          // Load More: 24 cards, 24 numbered pins, framed again.
          await page.locator('.results__more button').click();
          await page.locator('.result-card').nth(23).waitFor();
          await expect
            .poll(
              async () => {
                const more = await mapLayout(page);
                return more.pins.length === 24 && more.pins.every((pin) => inside(pin.box, more.map) && !pin.inCluster);
              },
              { timeout: 10_000 },
            )
            .toBe(true);
          expect(errors).toEqual([]);
        });

        it('a pin leads to its card (click, Enter); a card and its pin light up together', async () => {
          const { page, errors } = await searchRestaurants(true);
          const pin = (n: number) =>
            page
              .locator('.leaflet-marker-icon.place-pin')
              .filter({ has: page.locator('.place-pin__number', { hasText: new RegExp(`^${n}$`) }) });
          const card = (n: number) => page.locator('.result-card').nth(n - 1);
          const headerBottom = () =>
            page.locator('.site-header').evaluate((header) => header.getBoundingClientRect().bottom);
          // The page has scrolled to the map, which framed the pins.
          await expect
            .poll(async () => (await page.locator('.places-map').boundingBox())!.y)
            .toBeLessThan(viewport.viewport.height / 2);
          await expect
            .poll(
              async () => {
                const layout = await mapLayout(page);
                return layout.pins.length === 12 && layout.pins.every((p) => inside(p.box, layout.map));
              },
              { timeout: 10_000 },
            )
            .toBe(true);
          await page.waitForFunction(() => !document.querySelector('.leaflet-zoom-anim'));

          // A click on a pin (one that no other pin covers): its card in view, below the sticky
          // header, with the focus.
          const free = await page.evaluate(() => {
            for (const el of document.querySelectorAll('.leaflet-marker-icon.place-pin')) {
              const r = el.getBoundingClientRect();
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 3);
              if (hit && el.contains(hit)) return Number(el.querySelector('.place-pin__number')!.textContent);
            }
            return 0;
          });
          expect(free).toBeGreaterThan(0);
          await pin(free).click();
          await expect.poll(() => card(free).evaluate((el) => el === document.activeElement)).toBe(true);
          await expect.poll(async () => (await card(free).boundingBox())!.y >= (await headerBottom()) - 1).toBe(true);
          const box = (await card(free).boundingBox())!;
          expect(box.y + Math.min(box.height, 100)).toBeLessThanOrEqual(viewport.viewport.height);

          // Enter on pin 3 (reached by the keyboard): lit with its card, then its card.
          await pin(3).focus();
          expect(await card(3).getAttribute('class')).toContain('result-card--active');
          await page.keyboard.press('Enter');
          await expect.poll(() => card(3).evaluate((el) => el === document.activeElement)).toBe(true);

          // Card to pin: the pointer coming onto card 2 from the header, then the focus inside card 4.
          await card(2).evaluate((el) => el.scrollIntoView({ block: 'center' }));
          const two = (await card(2).boundingBox())!;
          await page.mouse.move(two.x + two.width / 2, 5);
          await page.mouse.move(two.x + two.width / 2, two.y + two.height / 2, { steps: 4 });
          await expect.poll(() => pin(2).getAttribute('class')).toContain('place-pin--active');
          await card(4).getByRole('link').first().focus();
          await expect.poll(() => pin(4).getAttribute('class')).toContain('place-pin--active');
          expect(await pin(2).getAttribute('class')).not.toContain('place-pin--active');
          expect(errors).toEqual([]);
        });
      });
    }

    it(`${device}: the Search button keeps the focus while it searches, and a place page opens on its heading`, async () => {
      const { page, errors } = track(
        await openPage(browser, { ...viewport, geolocation: HARBOUR, permissions: ['geolocation'] }),
      );
      await page.goto(server.baseUrl + '/');
      await page.getByText('Using your current location.').waitFor();
      await page.getByRole('checkbox', { name: 'Pharmacies', exact: true }).check();
      const held = await holdRequests(page, '**/api/places?*');
      const search = page.getByRole('button', { name: /^(Search Near Me|Searching\.\.\.)$/ });
      await search.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Searching...' }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Searching...');
      expect(await search.getAttribute('aria-busy')).toBe('true');
      // A second press while it runs starts nothing.
      await page.keyboard.press('Enter');
      held.release();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('results-heading');
      expect(held.count()).toBe(1);

      const name = (await page.locator('.result-card h3').first().textContent())!;
      await page.locator('.result-card h3 a').first().click();
      await page.waitForURL(/\/place\//);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.tagName + ':' + document.activeElement?.textContent))
        .toBe(`H1:${name}`);
      expect(errors).toEqual([]);
    });
  }

  describe('phone first', () => {
    const PHONE_VIEW = DEVICES[0][1];
    for (const lang of ['en', 'es'] as const) {
      it(`${lang}: Search stays on screen while ticking, the rest one tap away, the map below the sticky header`, async () => {
        const { page, errors } = track(
          await openPage(browser, {
            ...PHONE_VIEW,
            locale: lang,
            geolocation: HARBOUR,
            permissions: ['geolocation'],
          }),
        );
        await page.goto(server.baseUrl + '/');
        const search = page.locator('.locator__actions .button--primary');
        await search.waitFor();
        await expect.poll(() => page.locator('fieldset.categories').getAttribute('aria-busy')).toBe('false');
        const onScreen = async () => {
          const box = (await search.boundingBox())!;
          return box.y >= 0 && box.y + box.height <= PHONE_VIEW.viewport.height;
        };
        // The everyday categories, then the rest behind "More categories" (real checkboxes).
        const boxes = page.locator('.categories input[type=checkbox]');
        const more = page.locator('.categories__more');
        expect(
          await boxes.evaluateAll((inputs) => inputs.filter((i) => (i as HTMLElement).offsetParent !== null).length),
        ).toBe(8);
        expect(await more.getAttribute('aria-expanded')).toBe('false');
        // The categories end, and Search follows, within 1.2 screens (Search was two screens down).
        const categoriesEnd = await page
          .locator('fieldset.categories')
          .evaluate((set) => set.getBoundingClientRect().bottom + window.scrollY);
        expect(categoriesEnd).toBeLessThan(PHONE_VIEW.viewport.height * 1.2);
        for (let i = 0; i < 8; i++) {
          await boxes.nth(i).check();
          expect(await onScreen()).toBe(true);
          await boxes.nth(i).uncheck();
        }
        await more.click();
        expect(await more.getAttribute('aria-expanded')).toBe('true');
        const all = await boxes.count();
        expect(all).toBe(34);
        for (const i of [8, 20, all - 1]) {
          await boxes.nth(i).check();
          expect(await onScreen()).toBe(true);
          expect(await boxes.nth(i).evaluate((input) => (input as HTMLInputElement).type)).toBe('checkbox');
        }
        // Below Search, the options: Search stays on screen (stuck under the header) while they are used.
        await page.locator('.search-options input[type=search]').fill('caf');
        expect(await onScreen()).toBe(true);
        await page.locator('.search-options input[type=search]').fill('');
        await more.click();
        // Ticked boxes out of sight are counted on the control.
        expect(await more.textContent()).toMatch(/3/);
        for (const i of [8, 20, all - 1])
          await boxes
            .nth(i)
            .uncheck({ force: true })
            .catch(() => undefined);
        await page.locator('.categories__clear').click();

        // In Spanish the title wraps to two lines: the header is taller, and still never over the map.
        await page.getByRole('checkbox', { name: lang === 'en' ? 'Restaurants' : 'Restaurantes', exact: true }).check();
        await search.click();
        await page.locator('.result-card').first().waitFor();
        const mapTop = () => page.locator('.locator__map').evaluate((map) => map.getBoundingClientRect().top);
        const headerBottom = () =>
          page.locator('.site-header').evaluate((header) => header.getBoundingClientRect().bottom);
        // The page scrolls to the map: its top just under the header.
        await expect
          .poll(async () => (await mapTop()) - (await headerBottom()), { timeout: 10_000 })
          .toBeGreaterThanOrEqual(0);
        await expect.poll(async () => (await mapTop()) - (await headerBottom()), { timeout: 10_000 }).toBeLessThan(24);
        if (lang === 'es')
          expect(
            await page.locator('.brand__name').evaluate((name) => name.getBoundingClientRect().height),
          ).toBeGreaterThan(30);
        // The results follow the map at once.
        const gap = await page.evaluate(
          () =>
            document.querySelector('#results-heading')!.getBoundingClientRect().top -
            document.querySelector('.locator__map')!.getBoundingClientRect().bottom,
        );
        expect(gap).toBeLessThan(60);
        expect(errors).toEqual([]);
      });
    }

    for (const [device, viewport] of DEVICES) {
      it(`${device}: Tab reaches Search in a handful of stops from the top of the page`, async () => {
        const { page, errors } = track(
          await openPage(browser, { ...viewport, geolocation: HARBOUR, permissions: ['geolocation'] }),
        );
        await page.goto(server.baseUrl + '/');
        await expect.poll(() => page.locator('fieldset.categories').getAttribute('aria-busy')).toBe('false');
        const stops: string[] = [];
        for (let i = 0; i < 40; i++) {
          await page.keyboard.press('Tab');
          const here = await page.evaluate(() => {
            const el = document.activeElement as HTMLElement;
            return el.closest('.locator__actions') && el.tagName === 'BUTTON'
              ? 'SEARCH'
              : `${el.tagName}:${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 20)}`;
          });
          stops.push(here);
          if (here === 'SEARCH') break;
        }
        expect(stops.at(-1)).toBe('SEARCH');
        // The header (6 stops on a desktop, 3 on a phone), the hero's call to action, Refresh
        // settings, 8 categories, More categories, Search: 47 when every category was a stop.
        expect(stops.length).toBeLessThanOrEqual(device === 'phone' ? 15 : 18);
        expect(errors).toEqual([]);
      });
    }
  });
});
