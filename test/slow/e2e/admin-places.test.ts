// The admin's places data page (issue 9, points 5 and 6) in Chromium: the sources with their
// freshness, update now and import from a URL with progress and result, removing a source with
// confirmation, own places added on the map (tiles do not load here: the click still works),
// opening hours checked as typed, CSV in and out; in five languages, axe clean.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { SHARED_DATA } from '../../helpers.js';
import { startFeed, type FakeFeed } from '../../support/fake-feed.js';
import { hasBrowser, launchBrowser, openPage, startServer, type E2EServer } from './harness.js';
import { contextTracker } from './public-helpers.js';
import { expectNoSeriousAxeViolations, loginThroughForm, openAdminPage, unexpectedErrors } from './admin-helpers.js';

const MONACO = join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf');
const ANDORRA = join(SHARED_DATA, 'andorra-2021-04-14.osm.pbf');
const ANDORRA_FEED = 'http://download.geofabrik.de/europe/andorra-updates';
const GEOFABRIK = 'http://download.geofabrik.de/europe/monaco-updates';
const stamp = (day: number) => new Date(Date.UTC(2021, 3, 21 + day, 20, 21, 46)).toISOString().replace('.000Z', 'Z');

describe.skipIf(!hasBrowser)('admin: places data', () => {
  let server: E2EServer;
  let browser: Browser;
  let feed: FakeFeed;
  let feedDir: string;
  let files: Server;
  let filesBase: string;

  beforeAll(async () => {
    feedDir = mkdtempSync(join(tmpdir(), 'e2e-feed-'));
    feed = await startFeed(feedDir);
    [server, browser] = await Promise.all([
      startServer({
        env: { REPLICATION_URL: feed.url, OUTBOUND_ALLOW: '127.0.0.1' },
        imported: { extracts: [MONACO] },
      }),
      launchBrowser(),
    ]);
    for (let sequence = 2940; sequence <= 2948; sequence++) {
      const body =
        sequence === 2948
          ? '<modify><node id="267901435" version="11" lat="43.7327806" lon="7.4252031"><tag k="amenity" v="restaurant"/><tag k="name" v="Stars (e2e)"/></node></modify>'
          : '';
      feed.write(sequence, `<?xml version="1.0"?><osmChange version="0.6">${body}</osmChange>`, stamp(sequence - 2947));
    }
    feed.announce(2948, stamp(1));
    const andorra = readFileSync(ANDORRA);
    files = createServer((request, response) => {
      if (request.url === '/andorra.osm.pbf') return response.end(andorra);
      response.statusCode = 404;
      response.end();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesBase = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
    return async () => {
      files.close();
      await feed.close();
      rmSync(feedDir, { recursive: true, force: true });
    };
  }, 120_000);
  const { track } = contextTracker(() => ({ browser, server }));

  const banner = (page: Page) => page.getByTestId('banner').locator('span');
  const sourceRow = (page: Page, name: string) => page.getByTestId('sources-table').locator('tr', { hasText: name });

  it('shows the sources, updates one, imports from a URL and removes a source', async () => {
    const { page, errors } = track(await openPage(browser, { timezoneId: 'UTC' }));
    await loginThroughForm(page, server.baseUrl);
    await openAdminPage(page, 'Places data');

    const monaco = sourceRow(page, GEOFABRIK);
    await expect.poll(() => monaco.textContent()).toContain('Data as of April 21, 2021');
    expect(await monaco.textContent()).toContain('Replication sequence 2947');
    expect(await monaco.textContent()).toContain('Not updated since the import');
    expect(await monaco.textContent()).toMatch(new RegExp(`Imported [^<]*${new Date().getUTCFullYear()}`)); // when we imported it, not the data's date
    expect(await page.getByTestId('index-totals').textContent()).toBe('The whole index: 825 places');
    await monaco.getByText('825 places').click();
    const pharmacies = (await createPlaceStore(server.handle).getSource(GEOFABRIK))!.perCategory.pharmacy;
    expect(pharmacies).toBeGreaterThan(5);
    expect(await monaco.locator('.admin-category-counts li').allTextContents()).toContain(`Pharmacies: ${pharmacies}`);
    expect(await sourceRow(page, 'Live OpenStreetMap fallback').getByRole('button').count()).toBe(0);
    // Every cell, the Actions one included, sits in its source's row (a flex <td> once drifted).
    const misplaced = await page.getByTestId('sources-table').evaluate((table) =>
      [...table.querySelectorAll('tbody tr')].flatMap((row) => {
        const box = row.getBoundingClientRect();
        return [...row.querySelectorAll('td')]
          .filter(
            (cell) =>
              getComputedStyle(cell).display !== 'table-cell' ||
              Math.abs(cell.getBoundingClientRect().top - box.top) > 1 ||
              Math.abs(cell.getBoundingClientRect().bottom - box.bottom) > 1,
          )
          .map((cell) => `${row.textContent?.slice(0, 40)}: cell ${cell.cellIndex}`);
      }),
    );
    expect(misplaced).toEqual([]);

    // Update now: the job runs on the server; the page follows it to the result.
    await monaco.getByRole('button', { name: `Update now ${GEOFABRIK}` }).click();
    await expect
      .poll(() => banner(page).textContent())
      .toBe('Update finished successfully: sequences 2948 to 2948, 0 places created, 1 modified, 0 deleted');
    await expect.poll(() => monaco.textContent()).toContain('Data as of April 22, 2021');
    expect(await monaco.textContent()).toContain('Replication sequence 2948');
    expect(await monaco.textContent()).toMatch(/Last updated /);

    // Import from a URL: anything but http(s) is refused in the form; a download becomes a source
    // named by the feed its header names.
    const form = page.getByTestId('import-form');
    await form.getByLabel(/^Address of the extract/).fill('ftp://example.org/andorra.osm.pbf');
    await form.getByRole('button', { name: 'Import' }).click();
    await form.getByText('Enter an address starting with http:// or https://').waitFor();
    // A private or local address other than the allowed mirror (OUTBOUND_ALLOW) is refused.
    await form.getByLabel(/^Address of the extract/).fill('http://127.0.0.2:9/andorra.osm.pbf');
    await form.getByRole('button', { name: 'Import' }).click();
    await form
      .getByText(/^This address is on a private or local network: the server fetches only from public addresses/)
      .waitFor();
    await form.getByLabel(/^Address of the extract/).fill(`${filesBase}/andorra.osm.pbf`);
    await form.getByRole('button', { name: 'Import' }).click();
    await expect
      .poll(() => banner(page).textContent(), { timeout: 30_000 })
      .toMatch(
        new RegExp(
          `^Import finished successfully: [\\d,]+ places in "${ANDORRA_FEED}" \\([\\d,]+ added, 0 replaced, 0 removed\\)$`,
        ),
      );
    const andorra = sourceRow(page, ANDORRA_FEED);
    await expect.poll(() => andorra.textContent()).toContain('Data as of');
    const andorraPlaces = (await createPlaceStore(server.handle).getSource(ANDORRA_FEED))!.places;
    await expect
      .poll(() => page.getByTestId('index-totals').textContent())
      .toBe(`The whole index: ${(825 + andorraPlaces).toLocaleString('en')} places`);

    // Removing asks first; cancelling keeps it.
    await andorra.getByRole('button', { name: `Remove ${ANDORRA_FEED}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Please confirm' });
    expect(await dialog.textContent()).toContain(
      `Remove the source "${ANDORRA_FEED}" and its ${andorraPlaces.toLocaleString('en')} places from the index?`,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await andorra.count()).toBe(1);
    await andorra.getByRole('button', { name: `Remove ${ANDORRA_FEED}` }).click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect
      .poll(() => banner(page).textContent())
      .toBe(`Source removed successfully (${andorraPlaces.toLocaleString('en')} places)`);
    await expect.poll(() => andorra.count()).toBe(0);
    expect(await page.getByTestId('index-totals').textContent()).toBe('The whole index: 825 places');

    await expectNoSeriousAxeViolations(page);
    // the 400 is the refused private address's answer
    expect(unexpectedErrors(errors, [400])).toEqual([]);
  }, 90_000);

  it('adds an own place on the map, checks its hours as typed, edits it, and takes CSV in and out', async () => {
    const { page, errors } = track(await openPage(browser, { timezoneId: 'UTC' }));
    await loginThroughForm(page, server.baseUrl);
    await openAdminPage(page, 'Places data');
    const form = page.getByTestId('own-form');
    await form.getByLabel('Name', { exact: true }).fill('Boulangerie du Test');
    await form.getByLabel('Category').selectOption('bakery');
    // No tiles load here; a click on the map still sets the position.
    const map = page.getByTestId('position-map');
    await map.locator('.leaflet-container').waitFor();
    await map.click({ position: { x: 200, y: 120 } });
    await expect.poll(() => form.getByLabel('Latitude').inputValue()).toMatch(/^-?\d+(\.\d+)?$/);
    expect(await form.getByLabel('Longitude').inputValue()).toMatch(/^-?\d+(\.\d+)?$/);
    // Typed coordinates win.
    await form.getByLabel('Latitude').fill('43.7311');
    await form.getByLabel('Longitude').fill('7.4199');
    await form.getByLabel('Opening hours').fill('Mo-Fr 09:00-');
    await form.getByText(/^These opening hours are not valid/).waitFor();
    await form.getByRole('button', { name: 'Add place' }).click();
    expect(await form.getByLabel('Opening hours').getAttribute('aria-invalid')).toBe('true');
    await form.getByLabel('Opening hours').fill('Mo-Sa 07:00-19:00');
    await form.getByText('Valid opening hours').waitFor();
    await form.getByRole('button', { name: 'Add place' }).click();
    await expect.poll(() => banner(page).textContent()).toBe('Place saved successfully');
    const table = page.getByTestId('own-table');
    const row = table.locator('tr', { hasText: 'Boulangerie du Test' });
    expect(await row.textContent()).toContain('Bakeries');
    expect(await row.textContent()).toContain('43.7311, 7.4199');
    const link = await row.getByRole('link', { name: 'Boulangerie du Test' }).getAttribute('href');
    expect(link).toMatch(/^\/place\/own\/\d+$/);
    // Searched like any other place, with source "own".
    const search = await server.request({
      method: 'GET',
      url: '/api/places?active_categories=bakery&lat=43.7311&lon=7.4199&radius=100',
    });
    expect(search.json().results[0]).toMatchObject({
      name: 'Boulangerie du Test',
      source: 'own',
      id: link!.slice('/place/'.length),
    });

    await row.getByRole('button', { name: 'Edit Boulangerie du Test' }).click();
    await form.getByLabel('Name', { exact: true }).fill('Boulangerie Renommée');
    await form.getByRole('button', { name: 'Update place' }).click();
    await expect.poll(() => table.locator('tr', { hasText: 'Boulangerie Renommée' }).count()).toBe(1);

    // CSV: a file with problems imports nothing and says where; a good one is added.
    const csv = page.getByTestId('csv-form');
    await csv.getByLabel('CSV file').setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('name,category,lat,lon,address,phone,website,opening_hours\nNowhere,bakery,95,7,,,,\n'),
    });
    await csv.getByRole('button', { name: 'Import CSV' }).click();
    await csv.getByText(/Nothing was imported\. line 2: lat must be between -90 and 90/).waitFor();
    await csv.getByLabel('CSV file').setInputFiles({
      name: 'good.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        '\uFEFFname,category,lat,lon,address,phone,website,opening_hours\r\n"Café ""Rive""",restaurant,43.73,7.42,"Quai 1, Monaco",,,\r\nPharmacie CSV,pharmacy,43.74,7.43,,+377 1,,Mo-Fr 08:00-20:00\r\n',
      ),
    });
    await csv.getByRole('button', { name: 'Import CSV' }).click();
    await expect.poll(() => banner(page).textContent()).toBe('CSV imported successfully: 2 places (0 replaced)');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3);
    expect(await table.locator('tr', { hasText: 'Café "Rive"' }).count()).toBe(1);

    const download = page.waitForEvent('download');
    await csv.getByRole('button', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const exported = readFileSync(file!, 'utf8');
    expect(exported.split('\r\n')[0]).toBe('name,category,lat,lon,address,phone,website,opening_hours');
    expect(exported).toContain('"Café ""Rive""",restaurant,43.73,7.42,"Quai 1, Monaco",,,');
    expect(exported).toContain('Boulangerie Renommée,bakery,43.7311,7.4199,,,,Mo-Sa 07:00-19:00');

    // Replacing asks first.
    await csv.getByLabel('Replace all my places').check();
    await csv.getByLabel('CSV file').setInputFiles({
      name: 'one.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'name,category,lat,lon,address,phone,website,opening_hours\nOnly One,bakery,43.73,7.42,,,,\n',
      ),
    });
    await csv.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Please confirm' });
    expect(await dialog.textContent()).toContain('Replace all 3 of your places with the places of this file?');
    await dialog.getByRole('button', { name: 'Replace all my places' }).click();
    await expect.poll(() => banner(page).textContent()).toBe('CSV imported successfully: 1 place (3 replaced)');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);

    await table.getByRole('button', { name: 'Delete Only One' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => banner(page).textContent()).toBe('Place deleted successfully');
    await page.getByText('No places of your own yet').waitFor();

    await expectNoSeriousAxeViolations(page);
    expect(unexpectedErrors(errors, [400])).toEqual([]); // the refused CSV
  }, 90_000);

  const LANGUAGES: [string, string, string, string][] = [
    ['es', 'Datos de lugares', 'Datos al', 'Farmacias'],
    ['pt', 'Dados de locais', 'Dados de', 'Farmácias'],
    ['it', 'Dati dei luoghi', 'Dati al', 'Farmacie'],
    ['fr', 'Données des lieux', 'Données au', 'Pharmacies'],
  ];
  for (const [lang, title, asOf, pharmacies] of LANGUAGES) {
    it(`speaks ${lang}: the page, the data's date and the categories`, async () => {
      const { page, errors } = track(await openPage(browser, { timezoneId: 'UTC' }));
      await loginThroughForm(page, server.baseUrl);
      await page.evaluate((l) => localStorage.setItem('language', l), lang);
      await page.goto(`${server.baseUrl}/admin/places`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      const monaco = sourceRow(page, GEOFABRIK);
      const date = await page.evaluate(
        (l) =>
          new Intl.DateTimeFormat(l, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date('2021-04-22T20:21:46Z')),
        lang,
      );
      await expect.poll(() => monaco.textContent()).toContain(`${asOf} ${date}`);
      await monaco.locator('summary').click();
      expect(
        (await monaco.locator('.admin-category-counts li').allTextContents()).some((text) =>
          text.startsWith(`${pharmacies}: `),
        ),
      ).toBe(true);
      expect(await page.getByRole('navigation').getByRole('link', { name: title }).count()).toBe(1);
      await expectNoSeriousAxeViolations(page);
      expect(unexpectedErrors(errors)).toEqual([]);
    }, 60_000);
  }
});
