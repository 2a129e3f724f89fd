// The locator in a real browser, against places imported from ../shared/data/ (Washington DC):
// geolocation granted, denied and unavailable; the search and its cards; Load More; the retry
// path; the search options; the language of the search; the map; a thousand results.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page, Request } from 'playwright-core';
import { formatDistance } from '../../../web/lib/format';
import type { Place, PlacesResponse } from '../../../web/lib/rest';
import {
  axeViolations,
  freePort,
  hasBrowser,
  holdRequests,
  launchBrowser,
  openPage,
  startServer,
  type E2EServer,
} from './harness.js';
import {
  adminCall,
  DC_CENTRE,
  DC_GEOJSON,
  DEVICES,
  importPlaces,
  screenshot,
  tickCategory,
  unexpectedErrors,
  contextTracker,
} from './public-helpers.js';

/** A host name that is not local: Chromium treats plain http on it as an insecure context. */
const INSECURE_HOST = 'places.test';
const SERVICE_DOWN = {
  status: 503,
  contentType: 'application/json',
  body: JSON.stringify({ error: 'Service temporarily unavailable' }),
};

const searchButton = (page: Page) => page.getByRole('button', { name: /^(Search Near Me|Searching\.\.\.)$/ });
const cards = (page: Page) => page.locator('.result-card');
const errorBox = (page: Page) => page.locator('.error-box');
/** The button says it cannot search (aria-disabled) without leaving the focus: never `disabled`. */
const searchRefused = async (page: Page) => (await searchButton(page).getAttribute('aria-disabled')) === 'true';

function paramsOf(request: Request) {
  const url = new URL(request.url());
  return {
    categories: url.searchParams.getAll('active_categories'),
    lat: url.searchParams.get('lat'),
    lon: url.searchParams.get('lon'),
    lang: url.searchParams.get('lang'),
    city: url.searchParams.get('city'),
    openNow: url.searchParams.get('open_now'),
    limit: url.searchParams.get('limit'),
  };
}

/** Every place search the page makes. */
function recordSearches(page: Page): Request[] {
  const searches: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/places') searches.push(request);
  });
  return searches;
}

/** Ticks the categories (by their visible names), presses Search Near Me, returns the answer. */
async function searchFor(page: Page, ...categories: string[]): Promise<PlacesResponse> {
  for (const name of categories) await tickCategory(page, name);
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/places');
  await searchButton(page).click();
  const response = await answer;
  expect(response.status()).toBe(200);
  const body = (await response.json()) as PlacesResponse;
  await page.locator('#results-heading').filter({ hasText: /found/ }).waitFor();
  return body;
}

/** The heading's count: a first answer as long as it asked for (100) may have more: "100+". */
const countText = (results: unknown[]) => (results.length === 100 ? '100+' : String(results.length));

function fakePlaces(count: number): Place[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `node/${i + 1}`,
    name: `Place ${i + 1}`,
    unnamed: false,
    address: i % 3 === 0 ? null : `${i + 1} K Street NW`,
    address_source: i % 3 === 0 ? null : ('osm' as const),
    lat: DC_CENTRE.latitude + Math.sin(i) * 0.02 * ((i % 17) / 17),
    lon: DC_CENTRE.longitude + Math.cos(i) * 0.03 * ((i % 13) / 13),
    distance: (i + 1) * 0.01,
    phone_number: i % 2 === 0 ? '+1 202 555 0100' : null,
    status_label: 'Open now',
    category: 'restaurant',
    status: 'open',
    opening_hours: 'Mo-Su 08:00-22:00',
    website: null,
    wheelchair: null,
    source: 'osm' as const,
  }));
}

describe.skipIf(!hasBrowser)('public locator', () => {
  let server: E2EServer;
  let browser: Browser;
  let cookie: string;

  beforeAll(async () => {
    // The site also answers under the insecure name, as an operator would set PUBLIC_ORIGIN.
    const port = await freePort();
    const origins = `http://127.0.0.1:${port},http://${INSECURE_HOST}:${port}`;
    [server, browser] = await Promise.all([
      startServer({ port, env: { PUBLIC_ORIGIN: origins } }),
      launchBrowser([`--host-resolver-rules=MAP ${INSECURE_HOST} 127.0.0.1`]),
    ]);
    await importPlaces(server, DC_GEOJSON);
    cookie = await server.login();
  });
  const { track } = contextTracker(() => ({ browser, server }));

  for (const [device, viewport] of DEVICES) {
    const located: BrowserContextOptions = { ...viewport, geolocation: DC_CENTRE, permissions: ['geolocation'] };

    async function openHome(options: BrowserContextOptions = located, base = server.baseUrl) {
      const opened = track(await openPage(browser, options));
      await opened.page.goto(base + '/');
      await opened.page.locator('#locator').waitFor();
      return opened;
    }

    describe(device, () => {
      it('geolocation granted: searches the imported DC places around the visitor, 12 cards, then 12 more with Load More', async () => {
        const { page, errors } = await openHome();
        const searches = recordSearches(page);
        await page.getByText('Using your current location.').waitFor();
        // Nothing to search for yet: the button says why it cannot search.
        expect(await searchRefused(page)).toBe(true);
        expect(await page.getByText('Please select at least one category').count()).toBe(1);

        const answer = await searchFor(page, 'Restaurants');
        expect(searches.length).toBe(1);
        // A search the visitor started leaves the focus on the results heading.
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('results-heading');
        const sent = paramsOf(searches[0]);
        expect(sent.categories).toEqual(['restaurant']);
        expect(Number(sent.lat)).toBeCloseTo(DC_CENTRE.latitude, 4);
        expect(Number(sent.lon)).toBeCloseTo(DC_CENTRE.longitude, 4);
        expect(sent.lang).toBe('en');
        // The first hundred: the map's markers and eight pages of cards.
        expect(sent.limit).toBe('100');

        const total = answer.results.length;
        expect(total).toBeGreaterThan(24);
        const totalText = countText(answer.results);
        expect(await page.locator('#results-heading').textContent()).toBe(`${totalText} places found`);
        expect(await page.getByText(`Showing 1-12 of ${totalText} results`).count()).toBe(1);
        expect(await cards(page).count()).toBe(12);

        // Each card: name, address or its placeholder, distance, status badge, three actions.
        for (const [i, place] of answer.results.slice(0, 12).entries()) {
          const card = cards(page).nth(i);
          expect(await card.getByRole('heading', { level: 3 }).textContent()).toBe(place.name);
          // an address from the street nearby reads as approximate
          const address =
            place.address === null
              ? 'No address available'
              : place.address_source === 'nearby'
                ? `Near ${place.address}`
                : place.address;
          expect(await card.locator('.result-card__address').textContent()).toBe(address);
          expect(await card.locator('.result-card__distance').textContent()).toBe(
            `${formatDistance(place.distance, 'en')} away`,
          );
          const badge = card.locator('.status-badge');
          expect(await badge.textContent()).toBe(place.status_label);
          expect(await badge.getAttribute('class')).toContain(`status-badge--${place.status}`);
          const viewOnMap = card.getByRole('link', { name: /^View on Map/ });
          expect(await viewOnMap.getAttribute('href')).toBe(
            `https://www.google.com/maps/search/?api=1&query=${place.lat},${place.lon}`,
          );
          expect(await viewOnMap.getAttribute('target')).toBe('_blank');
          const streetView = card.getByRole('link', { name: /^Street View/ });
          expect(await streetView.getAttribute('href')).toBe(
            `https://www.mapillary.com/app/?lat=${place.lat}&lng=${place.lon}&z=19`,
          );
          expect(await streetView.getAttribute('target')).toBe('_blank');
          if (place.phone_number) {
            expect(await card.getByRole('link', { name: `Call ${place.name}` }).getAttribute('href')).toMatch(
              /^tel:\+?\d/,
            );
          } else {
            expect(await card.getByRole('button', { name: 'Call' }).isDisabled()).toBe(true);
          }
        }
        // Badges are coloured by status: open and unknown differ.
        const colours = await page
          .locator('.status-badge')
          .evaluateAll((badges) => [...new Set(badges.map((b) => getComputedStyle(b).backgroundColor))]);
        expect(colours.length).toBe(new Set(answer.results.slice(0, 12).map((p) => p.status)).size);

        // The map has a marker (or cluster) for the results and the visitor's own dot, and the
        // page has scrolled to it.
        await expect.poll(() => page.locator('.leaflet-marker-icon').count()).toBeGreaterThan(0);
        expect(await page.getByRole('img', { name: 'You are here' }).count()).toBe(1);
        await expect
          .poll(() => page.locator('.locator__map').evaluate((map) => Math.round(map.getBoundingClientRect().top)))
          .toBeLessThan(120);
        // A full-page picture from the top, so the sticky header sits where it belongs.
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, `results-${device}.png`);

        await page.getByRole('button', { name: 'Load More' }).click();
        await expect.poll(() => cards(page).count()).toBe(24);
        expect(await page.getByText(`Showing 1-24 of ${totalText} results`).count()).toBe(1);
        // Keyboard users continue from the first new card.
        expect(await page.evaluate(() => document.activeElement?.querySelector('h3')?.textContent)).toBe(
          answer.results[12].name,
        );
        expect(searches.length).toBe(1);

        expect(await axeViolations(page)).toEqual([]);
        expect(errors).toEqual([]);
      });

      it('geolocation denied: the default position, with its message', async () => {
        const { page, errors } = await openHome({ ...viewport });
        const searches = recordSearches(page);
        await page.getByText('Location access denied. Using default location.').waitFor();
        const answer = await searchFor(page, 'Banks');
        const sent = paramsOf(searches[0]);
        expect([sent.lat, sent.lon]).toEqual(['38.907200', '-77.036900']);
        expect(answer.results.length).toBeGreaterThan(0);
        expect(await cards(page).count()).toBe(Math.min(12, answer.results.length));
        expect(errors).toEqual([]);
      });

      it('geolocation unavailable on an insecure, non-local address: the default position at once, with its message', async () => {
        const base = server.baseUrl.replace('127.0.0.1', INSECURE_HOST);
        const { page, errors } = await openHome(located, base);
        expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
        await page
          .getByText('Using default location. For GPS location, access via localhost or enable HTTPS.')
          .waitFor();
        const searches = recordSearches(page);
        const answer = await searchFor(page, 'Parking');
        expect([paramsOf(searches[0]).lat, paramsOf(searches[0]).lon]).toEqual(['38.907200', '-77.036900']);
        expect(answer.results.length).toBeGreaterThan(0);
        expect(errors).toEqual([]);
      });

      it('while the position is unknown the search waits; a typed city makes it possible', async () => {
        const opened = track(await openPage(browser, viewport));
        // A browser that never answers the position question.
        await opened.page.addInitScript(() => {
          Object.defineProperty(navigator, 'geolocation', {
            value: { getCurrentPosition() {}, watchPosition() {}, clearWatch() {} },
          });
        });
        const { page, errors } = opened;
        await page.goto(server.baseUrl + '/');
        await page.getByText('Finding your location...').waitFor();
        await page.getByRole('checkbox', { name: 'Pharmacies', exact: true }).check();
        expect(await searchRefused(page)).toBe(true);
        await page.getByLabel('City').fill('Washington');
        expect(await searchRefused(page)).toBe(false);
        expect(errors).toEqual([]);
      });

      it('retries a 429 and a 503 after 1 s and 2 s, saying so, then shows the results', async () => {
        const { page, errors } = await openHome();
        const times: number[] = [];
        await page.route('**/api/places?*', async (route) => {
          times.push(Date.now());
          if (times.length === 1)
            return route.fulfill({
              ...SERVICE_DOWN,
              status: 429,
              body: JSON.stringify({ error: 'Too many requests, please try again later' }),
            });
          if (times.length === 2) return route.fulfill(SERVICE_DOWN);
          return route.continue();
        });
        await page.getByRole('checkbox', { name: 'Restaurants', exact: true }).check();
        await searchButton(page).click();
        await errorBox(page).getByText('Service temporarily unavailable. Retrying...').waitFor();
        expect(await searchButton(page).textContent()).toBe('Searching...');
        await page
          .locator('#results-heading')
          .filter({ hasText: /places found/ })
          .waitFor({ timeout: 10_000 });
        expect(times.length).toBe(3);
        expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
        expect(times[2] - times[1]).toBeGreaterThanOrEqual(1950);
        expect(await errorBox(page).isVisible()).toBe(false);
        expect(await cards(page).count()).toBe(12);
        expect(unexpectedErrors(errors, [429, 503])).toEqual([]);
      });

      it('after three 503 answers, gives up with the final message', async () => {
        const { page, errors } = await openHome();
        let calls = 0;
        await page.route('**/api/places?*', (route) => {
          calls++;
          return route.fulfill(SERVICE_DOWN);
        });
        await page.getByRole('checkbox', { name: 'Restaurants', exact: true }).check();
        await searchButton(page).click();
        await errorBox(page)
          .getByText('Service temporarily unavailable. Please try again later.')
          .waitFor({ timeout: 10_000 });
        expect(calls).toBe(3);
        expect(await cards(page).count()).toBe(0);
        expect(await searchButton(page).textContent()).toBe('Search Near Me');
        expect(await searchRefused(page)).toBe(false);
        expect(unexpectedErrors(errors, [503])).toEqual([]);
      });

      it('starts no second search while one runs', async () => {
        const { page, errors } = await openHome();
        const searches = await holdRequests(page, '**/api/places?*');
        await tickCategory(page, 'Hotels');
        await searchButton(page).click();
        await page.getByRole('button', { name: 'Searching...' }).waitFor();
        // Busy and refusing, yet never disabled: the focus stays on the button.
        expect(await searchRefused(page)).toBe(true);
        expect(await searchButton(page).getAttribute('aria-busy')).toBe('true');
        expect(await searchButton(page).evaluate((button) => (button as HTMLButtonElement).disabled)).toBe(false);
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Searching...');
        await page.keyboard.press('Enter');
        expect(await page.getByText('Loading results...').count()).toBe(1);
        // Enter in the city field and a forced click are both ignored while the search runs.
        await page.getByLabel('City').press('Enter');
        await searchButton(page).click({ force: true });
        searches.release();
        await page.locator('#results-heading').filter({ hasText: /found/ }).waitFor();
        expect(searches.count()).toBe(1);
        expect(errors).toEqual([]);
      });

      it('sends the only-open-now filter and the city; an unknown city says so', async () => {
        const { page, errors } = await openHome();
        const searches = recordSearches(page);
        await page.getByRole('checkbox', { name: 'Only open now' }).check();
        const openAnswer = await searchFor(page, 'Restaurants');
        expect(paramsOf(searches[0]).openNow).toBe('1');
        expect(openAnswer.results.every((place) => place.status === 'open' || place.status === 'closing_soon')).toBe(
          true,
        );
        if (openAnswer.results.length === 0) {
          expect(await page.getByText('No results found. Try a different category or location.').count()).toBe(1);
        }

        await page.getByRole('checkbox', { name: 'Only open now' }).uncheck();
        // Enter in the city field searches too. Used here rather than a click: the page scrolls to
        // the map 500 ms after an answer, and a click sent as that scroll starts may miss the
        // button (the likely cause of one CI run on a loaded machine that waited here in vain).
        await page.getByLabel('City').fill('Washington');
        const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/places');
        await page.getByLabel('City').press('Enter');
        const cityAnswer = (await (await answer).json()) as PlacesResponse;
        const sent = paramsOf(searches[1]);
        expect(sent.city).toBe('Washington');
        expect(sent.openNow).toBe(null);
        // The city's centre is searched around, not the visitor's position.
        expect([sent.lat, sent.lon]).toEqual([null, null]);
        expect(Math.abs(cityAnswer.city_center.lat - 38.9)).toBeLessThan(0.2);
        await page
          .locator('#results-heading')
          .filter({ hasText: /places found/ })
          .waitFor();

        await page.getByLabel('City').fill('Nowhere-Atlantis-Town');
        await page.getByLabel('City').press('Enter');
        await errorBox(page)
          .getByText('That city was not found. Check its spelling or leave the field empty.')
          .waitFor();
        expect(unexpectedErrors(errors, [400, 404])).toEqual([]);
      });

      it('searches in the visitor language: lang is sent, labels and texts follow a switch', async () => {
        const { page, errors } = await openHome({ ...located, locale: 'es-ES' });
        const searches = recordSearches(page);
        await page.getByRole('checkbox', { name: 'Restaurantes', exact: true }).check();
        const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/places');
        await page.getByRole('button', { name: 'Buscar cerca de mí' }).click();
        const spanish = (await (await answer).json()) as PlacesResponse;
        expect(paramsOf(searches[0]).lang).toBe('es');
        await page
          .locator('#results-heading')
          .filter({ hasText: `${countText(spanish.results)} lugares encontrados` })
          .waitFor();
        const first = cards(page).first();
        expect(await first.locator('.status-badge').textContent()).toBe(spanish.results[0].status_label);
        expect(await first.locator('.result-card__distance').textContent()).toBe(
          `a ${formatDistance(spanish.results[0].distance, 'es')}`,
        );
        expect(await first.getByRole('link', { name: /^Ver en el mapa/ }).count()).toBe(1);

        // A switch asks again in the new language, so names and labels follow.
        const italianAnswer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/places');
        if (device === 'phone') await page.getByRole('button', { name: 'Menú' }).click();
        await page.getByLabel('Idioma').selectOption('it');
        const italian = (await (await italianAnswer).json()) as PlacesResponse;
        expect(paramsOf(searches[1]).lang).toBe('it');
        await page
          .locator('#results-heading')
          .filter({ hasText: `${countText(italian.results)} luoghi trovati` })
          .waitFor();
        await expect.poll(() => first.locator('.status-badge').textContent()).toBe(italian.results[0].status_label);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('it');
        expect(errors).toEqual([]);
      });

      it('shows a server note from a successful answer, and the no-results text', async () => {
        const { page, errors } = await openHome();
        await page.route('**/api/places?*', (route) =>
          route.fulfill({
            json: { results: [], city_center: { lat: 38.9, lon: -77.03 }, error: 'Some places could not be checked' },
          }),
        );
        await tickCategory(page, 'Museums');
        await searchButton(page).click();
        await errorBox(page).getByText('Some places could not be checked').waitFor();
        await page.getByText('No results found. Try a different category or location.').waitFor();
        expect(await page.locator('#results-heading').textContent()).toBe('0 places found');
        expect(errors).toEqual([]);
      });

      it('numbers the pins of the cards, shows the places past them as dots with a popup, and the visitor apart', async () => {
        const { page, errors } = await openHome();
        // Twelve in a line to the north; the two past the cards far apart east and west (two dots, not a cluster).
        const places = fakePlaces(14).map((place, i) =>
          i < 12
            ? { ...place, lat: DC_CENTRE.latitude + 0.001 * (i + 1), lon: DC_CENTRE.longitude }
            : { ...place, lat: DC_CENTRE.latitude, lon: DC_CENTRE.longitude + (i === 12 ? 0.012 : -0.012) },
        );
        places[1] = { ...places[1], name: 'Diner Far', status: 'closed', status_label: 'Closed' };
        places[13] = { ...places[13], name: 'Café Past', address: null, status_label: 'Open now' };
        await page.route('**/api/places?*', (route) =>
          route.fulfill({
            json: { results: places, city_center: { lat: DC_CENTRE.latitude, lon: DC_CENTRE.longitude } },
          }),
        );
        await page.getByRole('checkbox', { name: 'Restaurants', exact: true }).check();
        await searchButton(page).click();
        await page.locator('#results-heading').filter({ hasText: '14 places found' }).waitFor();
        // The twelve cards' pins carry their numbers; the two places past them are dots.
        const pins = page.locator('.leaflet-marker-icon.place-pin');
        await expect.poll(() => pins.count()).toBe(12);
        expect(await pins.locator('.place-pin__number').allTextContents()).toEqual(
          Array.from({ length: 12 }, (_, i) => String(i + 1)),
        );
        expect(await page.locator('.place-pin--closed').getAttribute('title')).toBe('2. Diner Far');
        expect(await page.locator('.leaflet-marker-icon.place-dot').count()).toBe(2);
        expect(await page.getByRole('img', { name: 'You are here' }).count()).toBe(1);
        // A dot opens a popup naming the place, which leads to its own page.
        await page.locator('.place-dot[title="Café Past"]').click();
        const popup = page.locator('.leaflet-popup-content');
        await popup.waitFor();
        expect(await popup.textContent()).toBe(
          `Café PastNo address availableOpen now · ${formatDistance(places[13].distance, 'en')}`,
        );
        expect(await popup.getByRole('link', { name: 'Café Past' }).getAttribute('href')).toBe(
          `/place/${places[13].id}`,
        );
        expect(errors).toEqual([]);
      });

      it('a thousand results stay smooth: markers are grouped into clusters', async () => {
        const { page, errors } = await openHome();
        const places = fakePlaces(1000);
        await page.route('**/api/places?*', (route) =>
          route.fulfill({
            json: { results: places, city_center: { lat: DC_CENTRE.latitude, lon: DC_CENTRE.longitude } },
          }),
        );
        await page.getByRole('checkbox', { name: 'Restaurants', exact: true }).check();
        const started = Date.now();
        await searchButton(page).click();
        await page.locator('#results-heading').filter({ hasText: '1,000+ places found' }).waitFor();
        await expect.poll(() => page.locator('.marker-cluster').count()).toBeGreaterThan(0);
        expect(Date.now() - started).toBeLessThan(5000);
        // Far fewer elements on the map than results, and frames keep coming.
        expect(await page.locator('.leaflet-marker-icon').count()).toBeLessThan(200);
        const tenFramesMs = await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              const start = performance.now();
              let frames = 0;
              const tick = () => (++frames === 10 ? resolve(performance.now() - start) : requestAnimationFrame(tick));
              requestAnimationFrame(tick);
            }),
        );
        expect(tenFramesMs).toBeLessThan(1000);
        expect(await cards(page).count()).toBe(12);
        expect(errors).toEqual([]);
      });

      it('Load More past the first hundred asks for up to 500 and goes on with the same places in the same order', async () => {
        const { page, errors } = await openHome();
        const searches = recordSearches(page);
        const all = fakePlaces(130);
        await page.route('**/api/places?*', (route) => {
          const limit = Number(new URL(route.request().url()).searchParams.get('limit'));
          return route.fulfill({
            json: { results: all.slice(0, limit), city_center: { lat: DC_CENTRE.latitude, lon: DC_CENTRE.longitude } },
          });
        });
        await page.getByRole('checkbox', { name: 'Restaurants', exact: true }).check();
        await searchButton(page).click();
        await page.locator('#results-heading').filter({ hasText: '100+ places found' }).waitFor();
        const more = page.getByRole('button', { name: 'Load More' });
        for (let shown = 24; shown <= 96; shown += 12) {
          await more.click();
          await expect.poll(() => cards(page).count()).toBe(shown);
        }
        expect(searches.map((request) => paramsOf(request).limit)).toEqual(['100']);
        // Card 97 to 100 are in hand, 101 to 108 are not: the page asks for more, once.
        await more.click();
        await expect.poll(() => cards(page).count()).toBe(108);
        expect(searches.map((request) => paramsOf(request).limit)).toEqual(['100', '500']);
        expect(await page.locator('#results-heading').textContent()).toBe('130 places found');
        expect(await page.getByText('Showing 1-108 of 130 results').count()).toBe(1);
        const names = await cards(page).locator('h3').allTextContents();
        expect(names).toEqual(all.slice(0, 108).map((place) => place.name));
        expect(await page.evaluate(() => document.activeElement?.querySelector('h3')?.textContent)).toBe('Place 97');
        await more.click();
        await expect.poll(() => cards(page).count()).toBe(120);
        await more.click();
        await expect.poll(() => cards(page).count()).toBe(130);
        expect(await more.count()).toBe(0);
        expect(searches.length).toBe(2);
        expect(errors).toEqual([]);
      });

      it('the map is 256, 320 or 384 px high by screen size, with OpenStreetMap tiles and attribution', async () => {
        const { page, errors } = await openHome();
        const tileRequests: string[] = [];
        page.on('request', (request) => {
          if (request.url().includes('tile.openstreetmap.org')) tileRequests.push(request.headers()['referer'] ?? '');
        });
        // the map loads once its box nears the screen
        await page.locator('.locator__map').scrollIntoViewIfNeeded();
        await page.locator('.leaflet-container').waitFor();
        const height = () => page.locator('.places-map').evaluate((map) => map.getBoundingClientRect().height);
        await expect.poll(height).toBe(device === 'phone' ? 256 : 384);
        await page.setViewportSize({ width: 800, height: 900 });
        await expect.poll(height).toBe(320);
        const tile = page.locator('img.leaflet-tile').first();
        await tile.waitFor({ state: 'attached' });
        expect(await page.locator('.leaflet-control-attribution').textContent()).toContain(
          '© OpenStreetMap contributors',
        );
        // No own tiles built: OpenStreetMap's standard tiles, without the a/b/c subdomains its policy no longer recommends
        expect(await tile.getAttribute('src')).toMatch(/^https:\/\/tile\.openstreetmap\.org\/13\/\d+\/\d+\.png$/);
        expect(await tile.getAttribute('referrerpolicy')).toBe('strict-origin-when-cross-origin');
        expect(errors).toEqual([]);
      });
    });
  }

  it('the settings come with the page: a category can be ticked at once, and nothing clears it', async () => {
    const { page, errors } = track(await openPage(browser));
    const settings = await holdRequests(page, '**/api/settings');
    await page.goto(server.baseUrl + '/');
    await page.locator('#locator').waitFor();
    const categories = page.locator('fieldset.categories');
    const restaurants = page.getByRole('checkbox', { name: 'Restaurants', exact: true });
    await expect.poll(() => categories.getAttribute('aria-busy')).toBe('false');
    await restaurants.check();
    settings.release();
    await page.waitForTimeout(500);
    // The page asked for no settings of its own, whose arrival would have cleared the choice.
    expect(settings.count()).toBe(0);
    expect(await restaurants.isChecked()).toBe(true);
    expect(errors).toEqual([]);
  });

  // Last: it changes the settings the other tests read.
  it('offers only the allowed categories, and Refresh settings clears the selection', async () => {
    await adminCall(server, cookie, 'POST', '/api/settings', {
      allowed_categories: ['bank', 'restaurant', 'pharmacy'],
    });
    const { page, errors } = track(await openPage(browser));
    await page.goto(server.baseUrl + '/');
    await page.locator('#locator').waitFor();
    const boxes = page.locator('.categories input[type=checkbox]');
    await expect.poll(() => boxes.count()).toBe(3);
    // In the locator's own order, whatever order the admin saved.
    expect(await boxes.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual([
      'restaurant',
      'pharmacy',
      'bank',
    ]);
    await page.getByRole('checkbox', { name: 'Banks' }).check();
    expect(await page.getByRole('checkbox', { name: 'Banks' }).isChecked()).toBe(true);
    const settingsLoaded = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/settings');
    await page.getByRole('button', { name: 'Refresh settings' }).click();
    await settingsLoaded;
    await expect.poll(() => page.getByRole('checkbox', { name: 'Banks' }).isChecked()).toBe(false);
    expect(await searchRefused(page)).toBe(true);
    await adminCall(server, cookie, 'POST', '/api/settings', { allowed_categories: [] });
    expect(errors).toEqual([]);
  });
});
