// The sitemap past one file, at the protocol's real limits: 25,000 synthetic places in five
// languages are 125,000 place URLs, so /sitemap.xml is an index; every file it names keeps within
// 50,000 URLs and 50 MB, is sent as it is written (chunked, no length known up front), and
// together they list every page once; a sample of their URLs answers 200.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../src/i18n.js';
import { maskOf } from '../../../src/places/model/categories.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS } from '../../../src/pages/sitemap.js';
import { writeImported } from '../../support/places.js';
import { ORIGIN, rawGet, startPageServer, xmlTexts, type PageServer } from './support.js';

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
    expect(files[0]).toBe(`${ORIGIN}/sitemap-pages.xml`);
    expect(files.length).toBe(1 + Math.ceil((PLACES * LANGUAGES.length) / SITEMAP_MAX_URLS));

    const seen = new Set<string>();
    const sample: string[] = [];
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
      sample.push(...urls.filter((_, i) => i % 2_500 === 0));
    }
    expect(seen.size).toBe((PLACES + 3) * LANGUAGES.length);
    // the file after the last answers 404
    expect((await rawGet(`${server.baseUrl}/sitemap-places-${files.length}.xml`, {})).status).toBe(404);
    expect(sample.length).toBeGreaterThan(40);
    for (const url of sample)
      expect((await rawGet(server.baseUrl + url.slice(ORIGIN.length), {})).status, url).toBe(200);
  });
});
