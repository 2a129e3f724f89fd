// The dashboard's "what visitors look for": top categories, the searches that found nothing
// (listed, and on a small map) and the searches per day, in the admin's language; axe.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import { contextTracker } from './public-helpers.js';
import { expectNoSeriousAxeViolations, loginThroughForm, unexpectedErrors } from './admin-helpers.js';

describe.skipIf(!hasBrowser)('admin: search statistics', () => {
  let server: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    // Searches by visitors (the index is empty: they all find nothing).
    for (const query of [
      'active_categories=pharmacy&lat=38.90123&lon=-77.03456',
      'active_categories=pharmacy,bank&lat=38.90123&lon=-77.03456',
      'active_categories=bank&city=Lisbon',
    ]) {
      const response = await server.request({ method: 'GET', url: `/api/places?${query}` });
      expect(response.statusCode).toBe(200);
    }
  });
  const { track } = contextTracker(() => ({ browser, server }));

  it('shows top categories, the empty areas and the trend', async () => {
    const { page, errors } = track(await openPage(browser, { timezoneId: 'UTC' }));
    await loginThroughForm(page, server.baseUrl);
    const panel = page.getByTestId('search-stats');
    await panel.getByRole('heading', { name: 'What visitors look for (30 days)' }).waitFor();
    await panel.locator('.admin-top-categories li').first().waitFor();
    expect(await panel.locator('.admin-top-categories li').allTextContents()).toEqual([
      'Banks: 2 searches',
      'Pharmacies: 2 searches',
    ]);
    const areas = await panel.locator('.admin-empty-areas li').allTextContents();
    expect(areas).toContain('38.90, -77.03: 2 searches');
    expect(areas.filter((area) => area.endsWith(': 1 search'))).toHaveLength(1); // Lisbon, once: not "1 searches"
    expect(areas).toHaveLength(2);
    expect(await panel.getByRole('link', { name: '38.90, -77.03' }).getAttribute('href')).toBe(
      'https://www.openstreetmap.org/#map=14/38.9/-77.03',
    );
    await panel.locator('.admin-search-map path.leaflet-interactive').first().waitFor();
    expect(await panel.locator('.admin-search-map path.leaflet-interactive').count()).toBe(2);
    // The trend: 30 days, today's bar holds today's 3 searches.
    const bars = page.getByTestId('searches-chart').locator('rect');
    await expect.poll(() => bars.count()).toBe(30);
    expect(Number(await bars.last().getAttribute('data-count'))).toBe(3);
    // Captioned as searches, not with the visits chart's words.
    const chart = page.getByTestId('searches-chart').locator('xpath=..');
    expect(await chart.locator('figcaption').textContent()).toBe('3 searches in the last 30 days');
    expect(await page.getByTestId('searches-chart').getAttribute('aria-label')).toContain(
      'searches per day over 30 days: 3 searches in all',
    );
    expect(await chart.locator('th').allTextContents()).toEqual(['Day', 'Searches']);
    await expectNoSeriousAxeViolations(page);
    expect(unexpectedErrors(errors)).toEqual([]);
  });
});
