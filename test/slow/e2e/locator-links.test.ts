// The locator's search by name, and its state in the address: a search pushes its link; reload,
// back and forward, and a link opened in another browser run the same search; Share copies it.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { maskOf } from '../../../src/places/model/categories.js';
import type { CategoryId } from '../../../src/places/model/category-ids.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { writeImported } from '../../support/places.js';
import { axeViolations, hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import { contextTracker, DC_CENTRE, DEVICES, unexpectedErrors } from './public-helpers.js';

let osmId = 1;
const place = (name: string, category: CategoryId, northKm: number, openingHours: string | null = null) => ({
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
  openingHours,
  wheelchair: null,
  country: 'US',
  timezone: 'America/New_York',
  tags: {},
});

const searchButton = (page: Page) => page.locator('.locator__actions button.button--primary');
const cardNames = (page: Page) => page.locator('.result-card h3').allTextContents();
const searched = (page: Page) => page.waitForResponse((r) => new URL(r.url()).pathname === '/api/places');

describe.skipIf(!hasBrowser)('locator links and name search', () => {
  let server: E2EServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    await writeImported(createPlaceStore(server.handle), [
      place('Capitol Pharmacy', 'pharmacy', 0.3),
      place('Capital Bank', 'bank', 0.5),
      place('Corner Drugstore', 'pharmacy', 0.8),
      place('Night ATM', 'atm', 0.4, '24/7'),
      place('Shut ATM', 'atm', 0.2, 'off'),
    ]);
  });
  const { track } = contextTracker(() => ({ browser, server }));
  const [, viewport] = DEVICES[1];
  const located = {
    ...viewport,
    geolocation: DC_CENTRE,
    permissions: ['geolocation', 'clipboard-read', 'clipboard-write'],
  };

  it('searches by name without categories, and keeps the search in the address', async () => {
    const { page, errors } = track(await openPage(browser, located));
    await page.goto(server.baseUrl + '/');
    await page.getByText('Using your current location.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('capit');
    const answer = searched(page);
    await searchButton(page).click();
    expect(new URL((await answer).url()).searchParams.get('q')).toBe('capit');
    await page.locator('.result-card').first().waitFor();
    expect(await cardNames(page)).toEqual(['Capitol Pharmacy', 'Capital Bank']);
    const url = new URL(page.url());
    expect(url.searchParams.get('q')).toBe('capit');
    expect(Number(url.searchParams.get('lat'))).toBeCloseTo(DC_CENTRE.latitude, 4);
    expect(await axeViolations(page)).toEqual([]);

    // A second search, then back and forward.
    await page.getByLabel('Name', { exact: true }).fill('');
    await page.getByRole('checkbox', { name: 'Pharmacies', exact: true }).check();
    await searchButton(page).click();
    await page.waitForURL(/\?c=pharmacy&lat=/);
    await page.locator('.result-card h3', { hasText: 'Corner Drugstore' }).waitFor();
    expect(await cardNames(page)).toEqual(['Capitol Pharmacy', 'Corner Drugstore']);
    await page.goBack();
    await page.waitForURL(/q=capit/);
    await page.locator('.result-card h3', { hasText: 'Capital Bank' }).waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('capit');
    expect(await page.getByRole('checkbox', { name: 'Pharmacies', exact: true }).isChecked()).toBe(false);
    await page.goForward();
    await page.locator('.result-card h3', { hasText: 'Corner Drugstore' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Pharmacies', exact: true }).isChecked()).toBe(true);

    // Reload runs it again.
    await page.reload();
    await page.locator('.result-card h3', { hasText: 'Corner Drugstore' }).waitFor();

    // Share copies the link.
    await page.getByRole('button', { name: 'Share this search' }).click();
    await page.getByText('Link copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
    expect(unexpectedErrors(errors)).toEqual([]);
  });

  it('runs a shared link opened in another browser, without its location', async () => {
    const { page } = track(await openPage(browser, viewport));
    const answer = searched(page);
    await page.goto(`${server.baseUrl}/?c=pharmacy,bank&lat=${DC_CENTRE.latitude}&lon=${DC_CENTRE.longitude}`);
    const sent = new URL((await answer).url()).searchParams;
    expect(sent.getAll('active_categories')).toEqual(['pharmacy', 'bank']);
    await page.locator('.result-card').first().waitFor();
    expect(await cardNames(page)).toEqual(['Capitol Pharmacy', 'Capital Bank', 'Corner Drugstore']);
    expect(await page.getByRole('checkbox', { name: 'Banks', exact: true }).isChecked()).toBe(true);
  });

  it('runs a link that names a city and asks for open places only', async () => {
    const { page } = track(await openPage(browser, viewport));
    const answer = searched(page);
    await page.goto(`${server.baseUrl}/?c=atm&city=Washington&open=1`);
    const sent = new URL((await answer).url()).searchParams;
    expect([sent.getAll('active_categories'), sent.get('city'), sent.get('open_now'), sent.get('lat')]).toEqual([
      ['atm'],
      'Washington',
      '1',
      null,
    ]);
    await page.locator('.result-card').first().waitFor();
    expect(await cardNames(page)).toEqual(['Night ATM']);
    expect(await page.getByLabel('City', { exact: true }).inputValue()).toBe('Washington');
    expect(await page.getByRole('checkbox', { name: 'Only open now', exact: true }).isChecked()).toBe(true);
  });
});
