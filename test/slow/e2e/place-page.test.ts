// The place page in a real browser, at phone and desktop size: reached from a result card, every
// fact and link, the week of hours with today marked and the next change, its <title> and
// description, axe, and the 404 page for an unknown place.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { maskOf } from '../../../src/places/model/categories.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { writeImported } from '../../support/places.js';
import { axeViolations, hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import { contextTracker, DC_CENTRE, DEVICES, screenshot, unexpectedErrors } from './public-helpers.js';

// The server's clock: Saturday 21 November 2026, 07:00 in Washington (12:00 UTC).
const PLACE = {
  osmType: 'node' as const,
  osmId: 4242,
  lat: DC_CENTRE.latitude + 0.001,
  lon: DC_CENTRE.longitude,
  categories: maskOf(['pharmacy']),
  name: 'Capitol Pharmacy',
  names: { es: 'Farmacia Capitolio' },
  address: '1 K Street NW, Washington 20001',
  phone: '+1 202 555 0142',
  website: 'https://capitol-pharmacy.example.org/',
  openingHours: 'Mo-Fr 09:00-18:00; Sa 06:00-07:30',
  wheelchair: 'yes' as const,
  country: 'US',
  timezone: 'America/New_York',
  tags: { amenity: 'pharmacy' },
};

describe.skipIf(!hasBrowser)('place page', () => {
  let server: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await writeImported(createPlaceStore(server.handle), [PLACE]);
  });
  const { track } = contextTracker(() => ({ browser, server }));

  for (const [device, viewport] of DEVICES) {
    describe(device, () => {
      it('opens from a result card and shows everything about the place', async () => {
        const { page, errors } = track(
          await openPage(browser, {
            ...viewport,
            geolocation: DC_CENTRE,
            permissions: ['geolocation'],
          }),
        );
        await page.goto(server.baseUrl + '/');
        await page.locator('input[type=checkbox][value=pharmacy]').check();
        await page.locator('.locator__actions button.button--primary').click();
        await page.getByRole('link', { name: 'Capitol Pharmacy' }).first().click();
        await page.waitForURL(`${server.baseUrl}/place/node/4242`);

        await page.getByRole('heading', { level: 1, name: 'Capitol Pharmacy' }).waitFor();
        expect(await page.title()).toMatch(/^Capitol Pharmacy · /);
        expect(await page.locator('meta[name=description]').getAttribute('content')).toBe(
          'Pharmacy, 1 K Street NW, Washington 20001: opening hours, phone and directions.',
        );
        expect(await page.locator('.place-page__category').textContent()).toBe('Pharmacy');
        expect(await page.locator('.place-page__status .status-badge').textContent()).toBe('Closing soon');
        expect(await page.locator('.place-page__next').textContent()).toBe(' Closes in 30 minutes');

        // The week, Monday to Sunday, today (Saturday) marked.
        const rows = page.locator('.hours-table tr');
        expect(await rows.count()).toBe(7);
        expect(await rows.nth(0).textContent()).toBe('Monday9:00 AM–6:00 PM');
        expect(await rows.nth(5).getAttribute('aria-current')).toBe('date');
        expect(await rows.nth(5).textContent()).toBe('Saturday (today)6:00 AM–7:30 AM');
        expect(await rows.nth(6).textContent()).toBe('SundayClosed');
        expect(await page.locator('.hours-table tr[aria-current]').count()).toBe(1);
        expect(await page.getByText('Times are the place’s local time (America/New_York).').count()).toBe(1);

        // Facts and links.
        expect(await page.getByRole('link', { name: '+1 202 555 0142' }).getAttribute('href')).toBe('tel:+12025550142');
        expect(await page.getByRole('link', { name: /capitol-pharmacy\.example\.org/ }).getAttribute('href')).toBe(
          PLACE.website,
        );
        expect(await page.getByText('Wheelchair accessible').count()).toBe(1);
        const href = (name: RegExp) => page.getByRole('link', { name }).getAttribute('href');
        expect(await href(/^Directions \(OpenStreetMap\)/)).toBe(
          `https://www.openstreetmap.org/directions?to=${PLACE.lat}%2C${PLACE.lon}`,
        );
        expect(await href(/^Directions \(Google Maps\)/)).toBe(
          `https://www.google.com/maps/dir/?api=1&destination=${PLACE.lat},${PLACE.lon}`,
        );
        expect(await href(/^View on Map/)).toBe(
          `https://www.google.com/maps/search/?api=1&query=${PLACE.lat},${PLACE.lon}`,
        );
        expect(await href(/^Street View/)).toBe(
          `https://www.mapillary.com/app/?lat=${PLACE.lat}&lng=${PLACE.lon}&z=19`,
        );
        expect(await href(/^Improve this place on OpenStreetMap/)).toBe('https://www.openstreetmap.org/edit?node=4242');
        await page.locator('.place-map .leaflet-marker-icon').waitFor();

        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `place-page-${device}.png`);

        // Back and forth: the browser's back returns to the locator.
        await page.goBack();
        await page.locator('#locator').waitFor();
        expect(unexpectedErrors(errors)).toEqual([]);
      });

      it('speaks the visitor’s language, names included', async () => {
        const { page } = track(await openPage(browser, { ...viewport, locale: 'es-ES' }));
        await page.goto(server.baseUrl + '/place/node/4242');
        await page.getByRole('heading', { level: 1, name: 'Farmacia Capitolio' }).waitFor();
        expect(await page.locator('.place-page__next').textContent()).toBe(' Cierra en 30 minutos');
        expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toBe('Horario');
        expect(await page.getByRole('link', { name: /^Mejora este lugar en OpenStreetMap/ }).count()).toBe(1);
        expect(await axeViolations(page)).toEqual([]);
      });

      it('answers an unknown place with a 404 page and a way back', async () => {
        const { page, errors } = track(await openPage(browser, viewport));
        await page.goto(server.baseUrl + '/place/way/999999');
        await page.getByRole('heading', { level: 1, name: 'Place not found' }).waitFor();
        expect(await page.title()).toMatch(/^Place not found · /);
        await page.getByRole('link', { name: 'Back to the search' }).click();
        await page.waitForURL(server.baseUrl + '/');
        expect(await axeViolations(page)).toEqual([]);
        expect(unexpectedErrors(errors, [404])).toEqual([]);
      });
    });
  }
});
