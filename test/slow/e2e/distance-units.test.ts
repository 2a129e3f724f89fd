// Distances in the visitor's units: kilometres, or miles for en-US and en-GB visitors, unless the
// admin's distance_unit setting fixes one; the API keeps answering kilometres.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { formatDistance, type DistanceUnit } from '../../../web/lib/format';
import type { Lang } from '../../../web/lib/i18n';
import type { PlacesResponse } from '../../../web/lib/rest';
import { hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import { loginThroughForm, openAdminPage } from './admin-helpers.js';
import { adminCall, contextTracker, DC_CENTRE, DC_GEOJSON, DEVICES, unexpectedErrors } from './public-helpers.js';

describe.skipIf(!hasBrowser)('distance units', () => {
  let server: E2EServer;
  let browser: Browser;
  let cookie: string;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ imported: { extracts: [DC_GEOJSON] } }), launchBrowser()]);
    cookie = await server.login();
  });
  const { track } = contextTracker(() => ({ browser, server }));

  async function searchWith(
    locale: string,
    viewport: (typeof DEVICES)[number][1],
  ): Promise<{ page: Page; body: PlacesResponse; errors: string[] }> {
    const opened = track(
      await openPage(browser, {
        ...viewport,
        locale,
        geolocation: DC_CENTRE,
        permissions: ['geolocation'],
      }),
    );
    const { page } = opened;
    await page.goto(server.baseUrl + '/');
    await page.locator('#locator').waitFor();
    await page.locator('input[type=checkbox][value=pharmacy]').check();
    const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/places');
    await page.locator('.locator__actions button.button--primary').click();
    const body = (await (await answer).json()) as PlacesResponse;
    await page.locator('.result-card').first().waitFor();
    return { page, body, errors: opened.errors };
  }

  async function shown(page: Page, body: PlacesResponse, unit: DistanceUnit) {
    const lang = (await page.locator('html').getAttribute('lang')) as Lang;
    const texts = await page.locator('.result-card__distance').allTextContents();
    expect(texts.length).toBeGreaterThan(0);
    for (const [i, text] of texts.slice(0, 5).entries())
      expect(text).toContain(formatDistance(body.results[i].distance, lang, unit));
    return texts.join(' ');
  }

  const [device, viewport] = DEVICES[0];

  it(`${device}: en-US and en-GB visitors see miles, en-IE kilometres (auto); the API answers km`, async () => {
    for (const [locale, unit] of [
      ['en-US', 'mi'],
      ['en-GB', 'mi'],
      ['en-IE', 'km'],
    ] as const) {
      const { page, body, errors } = await searchWith(locale, viewport);
      const text = await shown(page, body, unit);
      expect(text).toMatch(unit === 'mi' ? /\b(mi|ft)\b/ : /\b(km|m)\b/);
      // The API's distance stays in kilometres: the first place is within the 5 km radius.
      expect(body.results.every((place) => place.distance <= 5)).toBe(true);
      expect(unexpectedErrors(errors)).toEqual([]);
    }
  });

  it(`${device}: the admin setting wins over the locale`, async () => {
    // Chosen on the admin's Settings page, as an admin would.
    const admin = track(await openPage(browser)).page;
    await loginThroughForm(admin, server.baseUrl);
    await openAdminPage(admin, 'Settings');
    const form = admin.getByTestId('settings-form');
    await form.getByLabel('Distance unit', { exact: true }).selectOption('km');
    await form.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => admin.getByTestId('banner').textContent()).toContain('Site settings updated successfully');
    let run = await searchWith('en-US', viewport);
    await shown(run.page, run.body, 'km');
    await adminCall(server, cookie, 'POST', '/api/settings', { distance_unit: 'mi' });
    run = await searchWith('fr-FR', viewport);
    await shown(run.page, run.body, 'mi');
    await adminCall(server, cookie, 'POST', '/api/settings', { distance_unit: 'auto' });
  });
});
