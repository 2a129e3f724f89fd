// What visitors look for: counts per day by category, city, "found nothing" and "found fewer
// than 3", kept in memory and flushed in one transaction; positions only as ~1 km cells.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskOf } from '../../../src/places/model/categories.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { adminSession, buildTestApp, callerFor, type TestApp } from '../../helpers.js';
import { writeImported } from '../../support/places.js';

const AT = { lat: 38.90123, lon: -77.03456 };

describe('search statistics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await writeImported(createPlaceStore(t.handle), [
      {
        osmType: 'node',
        osmId: 1,
        lat: AT.lat,
        lon: AT.lon,
        categories: maskOf(['pharmacy']),
        name: 'P',
        names: null,
        address: null,
        phone: null,
        website: null,
        openingHours: null,
        wheelchair: null,
        country: 'US',
        timezone: 'America/New_York',
        tags: {},
      },
    ]);
  });
  afterAll(() => t.close());

  it('counts searches, categories, cities, empty and thin areas, without exact positions', async () => {
    const visitor = await callerFor(t);
    const admin = await callerFor(t, { session: await adminSession(t) });
    await visitor.places.search({ active_categories: ['pharmacy'], lat: AT.lat, lon: AT.lon } as never); // 1 found: few
    await visitor.places.search({ active_categories: ['pharmacy', 'bank'], lat: AT.lat, lon: AT.lon } as never); // few
    await visitor.places.search({ active_categories: ['bank'], lat: AT.lat, lon: AT.lon } as never); // nothing
    await visitor.places.search({ active_categories: ['bank'], city: ' Lisbon ' } as never); // nothing, in Lisbon
    // Nothing written yet: a search never writes by itself.
    expect(await t.handle.db.selectFrom('search_stats_daily').selectAll().execute()).toEqual([]);

    const report = await admin.visits.searches();
    expect(report.top_categories).toEqual([
      { category: 'bank', count: 3 },
      { category: 'pharmacy', count: 2 },
    ]);
    expect(report.top_cities).toEqual([{ city: 'lisbon', count: 1 }]);
    expect(report.empty_areas).toEqual(expect.arrayContaining([{ lat: 38.9, lon: -77.03, count: 1 }]));
    expect(report.empty_areas).toHaveLength(2);
    expect(report.few_areas).toEqual([{ lat: 38.9, lon: -77.03, count: 2 }]);
    expect(report.trend).toHaveLength(30);
    expect(report.trend.at(-1)).toEqual({ day: '2026-11-21', searches: 4, empty: 2, few: 2 });

    // Stored: cells of two decimals only, no address, nothing about the visitor.
    const rows = await t.handle.db.selectFrom('search_stats_daily').selectAll().execute();
    for (const row of rows.filter((r) => r.kind === 'empty' || r.kind === 'few'))
      expect(row.key).toMatch(/^-?\d+\.\d\d,-?\d+\.\d\d$/);
    expect(JSON.stringify(rows)).not.toContain('38.90123');
    expect(Object.keys(rows[0]).sort()).toEqual(['count', 'day', 'key', 'kind']);
  });

  it('adds to the stored counts (several processes share the rows)', async () => {
    const visitor = await callerFor(t);
    await visitor.places.search({ active_categories: ['bank'], lat: AT.lat, lon: AT.lon } as never);
    const report = await (await callerFor(t, { session: await adminSession(t) })).visits.searches();
    expect(report.top_categories[0]).toEqual({ category: 'bank', count: 4 });
    expect(report.trend.at(-1)).toMatchObject({ searches: 5, empty: 3 });
  });

  it('is for admins only', async () => {
    await expect((await callerFor(t)).visits.searches()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
