// Issue 3, point 3, issue 8, point 2 and issue 28: the places index (the grid of every process,
// on both engines) gives exactly the places within the radius, nearest first; on PostgreSQL the
// same as PostGIS itself and as the SQLite build.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, migrate } from '../../../db/index.js';
import { maskOf, categoriesInMask } from '../../../src/places/model/categories.js';
import { CATEGORY_IDS, type CategoryId } from '../../../src/places/model/category-ids.js';
import { boxesAround, distanceKm } from '../../../src/places/model/geo.js';
import { importInputs } from '../../../src/places/sources/import/index.js';
import { createPlaceStore, type Nearby, type PlaceStore } from '../../../src/places/store/index.js';
import { nameTerms } from '../../../src/places/search/name-query.js';
import { SqlitePlaceStore } from '../../../src/places/store/sqlite/store.js';
import { nearestByScan, type ScannedPlace } from '../../support/nearest.js';
import { toPlace } from '../../../src/places/model/osm.js';
import { onlyOn } from '../../support/databases.js';
import { expectIndexConsistent, EXTRACTS, tempDb, writeImported, type TempDb } from '../../support/places.js';

describe('distanceKm', () => {
  it('is the great-circle distance', () => {
    expect(distanceKm(48.8566, 2.3522, 51.5074, -0.1278)).toBeCloseTo(343.5, 0); // Paris-London
    expect(distanceKm(0, 0, 0, 180)).toBeCloseTo(Math.PI * 6371.0088, 3);
    expect(distanceKm(49.28, -123.12, 49.28, -123.12)).toBe(0);
    expect(distanceKm(0, 179.99, 0, -179.99)).toBeCloseTo(2.224, 2); // across the antimeridian
  });
});

describe('boxesAround', () => {
  it('is one box that holds the circle, and no wider than it', () => {
    const [lat, lon, radiusKm] = [49.28, -123.12, 5];
    const boxes = boxesAround(lat, lon, radiusKm);
    expect(boxes).toHaveLength(1);
    const [box] = boxes;
    // points on the circle, every degree of bearing (destination-point formula)
    const angle = radiusKm / 6371.0088;
    const rad = Math.PI / 180;
    let east = -Infinity;
    for (let bearing = 0; bearing < 360; bearing += 0.25) {
      const b = bearing * rad;
      const lat2 = Math.asin(
        Math.sin(lat * rad) * Math.cos(angle) + Math.cos(lat * rad) * Math.sin(angle) * Math.cos(b),
      );
      const lon2 =
        lon * rad +
        Math.atan2(
          Math.sin(b) * Math.sin(angle) * Math.cos(lat * rad),
          Math.cos(angle) - Math.sin(lat * rad) * Math.sin(lat2),
        );
      const [pLat, pLon] = [lat2 / rad, lon2 / rad];
      expect(pLat).toBeGreaterThanOrEqual(box.south - 1e-9);
      expect(pLat).toBeLessThanOrEqual(box.north + 1e-9);
      expect(pLon).toBeGreaterThanOrEqual(box.west - 1e-9);
      expect(pLon).toBeLessThanOrEqual(box.east + 1e-9);
      east = Math.max(east, pLon);
    }
    expect(box.east - east).toBeLessThan(1e-5); // tight: touches the circle
  });

  it('splits in two across the antimeridian, and spans all longitudes around a pole', () => {
    const boxes = boxesAround(0, 179.99, 5);
    expect(boxes).toHaveLength(2);
    expect(boxes[0].east).toBe(180);
    expect(boxes[1].west).toBe(-180);
    expect(boxesAround(89.99, 0, 5)).toEqual([expect.objectContaining({ west: -180, east: 180, north: 90 })]);
  });
});

describe('nearest() on the Vancouver extract', () => {
  let db: TempDb;
  let store: PlaceStore;
  let all: { id: number; lat: number; lon: number; categories: number }[];

  beforeAll(async () => {
    db = await tempDb({ extracts: [EXTRACTS.vancouver] });
    store = db.index;
    all = await db.rows('select id, lat, lon, categories from places');
  });
  afterAll(() => db.close());

  const searches: [string, number, number, number, CategoryId[]][] = [
    ['downtown restaurants and pharmacies, 2 km (their own trees)', 49.2827, -123.1207, 2, ['restaurant', 'pharmacy']],
    ['Kitsilano, every category, 5 km (the big tree)', 49.2684, -123.1683, 5, [...CATEGORY_IDS]],
    ['UBC parks, 1 km', 49.2606, -123.246, 1, ['park']],
    ['east side banks and ATMs, 3 km', 49.25, -123.05, 3, ['bank', 'atm']],
    ['shops and tourism, 4 km (broad: the big tree)', 49.28, -123.11, 4, ['shop', 'tourism']],
    ['pharmacies and healthcare, 5 km', 49.26, -123.1, 5, ['pharmacy', 'healthcare']],
    ['nowhere near, 5 km', 10, 10, 5, ['restaurant']],
  ];

  const bruteForce = (lat: number, lon: number, radiusKm: number, categories: CategoryId[]) =>
    all
      .filter((p) => categoriesInMask(p.categories).some((c) => categories.includes(c)))
      .map((p) => ({ id: p.id, distanceKm: distanceKm(lat, lon, p.lat, p.lon) }))
      .filter((p) => p.distanceKm <= radiusKm)
      .sort((a, b) => a.distanceKm - b.distanceKm || a.id - b.id);

  it.each(searches)(
    '%s: exactly the places a brute-force scan finds, nearest first',
    async (_, lat, lon, radiusKm, categories) => {
      const expected = bruteForce(lat, lon, radiusKm, categories);
      const found = await (await store.feed.reads()).nearest(lat, lon, radiusKm, maskOf(categories), 1_000_000);
      expect(found.map((n) => n.place.id)).toEqual(expected.map((p) => p.id));
      for (const [i, n] of found.entries()) expect(n.distanceKm).toBe(expected[i].distanceKm);
      if (lat !== 10) expect(found.length).toBeGreaterThan(0);
    },
  );

  it.each(searches)('%s: the nearest 10, 100 and 1', async (_, lat, lon, radiusKm, categories) => {
    const expected = bruteForce(lat, lon, radiusKm, categories).map((p) => p.id);
    for (const limit of [1, 10, 100]) {
      expect(
        (await (await store.feed.reads()).nearest(lat, lon, radiusKm, maskOf(categories), limit)).map(
          (n) => n.place.id,
        ),
      ).toEqual(expected.slice(0, limit));
    }
  });

  it('keeps only what `accept` takes, still the nearest ones', async () => {
    const named = (p: { name: string | null }) => p.name !== null && p.name.startsWith('S');
    const found = await (await store.feed.reads()).nearest(49.2827, -123.1207, 5, maskOf(['restaurant']), 20, named);
    expect(found).toHaveLength(20);
    const everything = await (
      await store.feed.reads()
    ).nearest(49.2827, -123.1207, 5, maskOf(['restaurant']), 1_000_000);
    const expected = bruteForce(49.2827, -123.1207, 5, ['restaurant'])
      .filter((p) => named(everything.find((n) => n.place.id === p.id)!.place))
      .slice(0, 20);
    expect(found.map((n) => n.place.id)).toEqual(expected.map((p) => p.id));
  });

  it('has every place in the spatial index, under each of its categories', () => expectIndexConsistent(db));

  it.each(['starb', 'caf', 'tim hort', 'pharm', 'sushi', 'the', 'mc', 'zzzz'])(
    'finds by the name %s exactly the places a brute-force scan of their names finds, nearest first',
    async (query) => {
      const terms = nameTerms(query);
      const named = await db.rows<{ id: number; name: string | null; names: string | Record<string, string> | null }>(
        'select id, name, names from places',
      );
      const namesOf = (names: string | Record<string, string> | null): string[] =>
        Object.values(typeof names === 'string' ? (JSON.parse(names) as Record<string, string>) : (names ?? {}));
      const wordsOf = new Map(named.map((p) => [p.id, nameTerms(`${p.name ?? ''} ${namesOf(p.names).join(' ')}`)]));
      for (const [lat, lon, radiusKm, categories] of [
        [49.2827, -123.1207, 5, [...CATEGORY_IDS]],
        [49.26, -123.1, 3, ['restaurant', 'pharmacy']],
      ] as const) {
        const expected = bruteForce(lat, lon, radiusKm, [...categories]).filter((p) =>
          terms.every((term) => wordsOf.get(p.id)!.some((word) => word.startsWith(term))),
        );
        const found = await (
          await store.feed.reads()
        ).nearestByName(lat, lon, radiusKm, maskOf([...categories]), terms, 1_000_000);
        expect(found.map((n) => n.place.id)).toEqual(expected.map((p) => p.id));
        for (const [i, n] of found.entries()) expect(n.distanceKm).toBe(expected[i].distanceKm);
        expect(
          (await (await store.feed.reads()).nearestByName(lat, lon, radiusKm, maskOf([...categories]), terms, 3)).map(
            (n) => n.place.id,
          ),
        ).toEqual(expected.slice(0, 3).map((p) => p.id));
      }
    },
  );

  onlyOn('sqlite', () => {
    it('gives the same answers as a plain table scan (the benchmark’s comparison)', async () => {
      const sqliteIndex = store as SqlitePlaceStore;
      for (const [, lat, lon, radiusKm, categories] of searches) {
        const reads = await sqliteIndex.feed.reads();
        const indexed = reads.nearest(lat, lon, radiusKm, maskOf(categories), 100);
        // the plain scan: every row, then the same cards
        const rows = sqliteIndex.sqlite.prepare('select id, lat, lon, categories from places').all() as ScannedPlace[];
        const scanned = reads.placesOf(nearestByScan(rows, lat, lon, radiusKm, maskOf(categories), 100), 100);
        expect(scanned).toEqual(indexed);
      }
    });

    it('answers from the grid alone with the ids and distances of the search (the benchmark times the two apart)', async () => {
      const sqliteIndex = store as SqlitePlaceStore;
      for (const [, lat, lon, radiusKm, categories] of searches) {
        const found = await (await sqliteIndex.feed.reads()).nearest(lat, lon, radiusKm, maskOf(categories), 100);
        const hits = (await sqliteIndex.feed.reads()).grid.nearest(lat, lon, radiusKm, maskOf(categories), 100);
        expect(hits.ids).toEqual(found.map((n) => n.place.id));
        expect(hits.distances).toEqual(found.map((n) => n.distanceKm));
      }
    });
  });

  onlyOn('postgres', () => {
    it('answers as a scan of every row and as the SQLite build of the same extract, card for card, the same distances to 1 m', async () => {
      const sqliteDir = mkdtempSync(join(tmpdir(), 'places-sqlite-'));
      const sqlite = createDb({ kind: 'sqlite', path: join(sqliteDir, 'app.db') });
      try {
        await migrate(sqlite);
        const sqliteIndex = createPlaceStore(sqlite);
        await importInputs(sqliteIndex, [EXTRACTS.vancouver]);
        const rows = (
          await db.rows<{ id: number; lat: number; lon: number; categories: string }>(
            'select id, lat, lon, categories from places',
          )
        ).map((r) => ({ ...r, categories: Number(r.categories) }));
        const seen = (found: Nearby[]) =>
          found.map((n) => ({
            card: n.place.json,
            name: n.place.name,
            names: n.place.names,
            lat: n.place.lat,
            lon: n.place.lon,
            categories: n.place.categories,
          }));
        for (const [, lat, lon, radiusKm, categories] of searches) {
          for (const limit of [1, 12, 100, 1_000_000]) {
            const mask = maskOf(categories);
            const [copy, postgis, built] = [
              await (await store.feed.reads()).nearest(lat, lon, radiusKm, mask, limit),
              nearestByScan(rows, lat, lon, radiusKm, mask, limit),
              await (await sqliteIndex.feed.reads()).nearest(lat, lon, radiusKm, mask, limit),
            ];
            expect(copy.map((n) => n.place.id)).toEqual(postgis.ids);
            expect(seen(copy)).toEqual(seen(built));
            for (const [i, n] of copy.entries()) {
              expect(Math.abs(n.distanceKm - postgis.distances[i])).toBeLessThan(0.001);
              expect(Math.abs(n.distanceKm - built[i].distanceKm)).toBeLessThan(0.001);
            }
          }
        }
      } finally {
        await sqlite.close();
        rmSync(sqliteDir, { recursive: true, force: true });
      }
    });
  });
});

describe('nearest() across the antimeridian', () => {
  it('finds places on both sides of longitude 180', async () => {
    const db = await tempDb();
    try {
      const fiji = [
        toPlace('node', 1, -16.5, 179.99, { amenity: 'cafe', name: 'East' }),
        toPlace('node', 2, -16.5, -179.99, { amenity: 'cafe', name: 'West' }),
        toPlace('node', 3, -16.5, 179.5, { amenity: 'cafe', name: 'Too far' }),
      ];
      await writeImported(
        db.index,
        fiji.map((p) => p!),
      );
      const store = db.index;
      expect(
        (await (await store.feed.reads()).nearest(-16.5, 180, 5, maskOf(['amenity']), 10)).map((n) => n.place.name),
      ).toEqual(['East', 'West']);
      // a specific category reads its own tree: the same answer
      expect(await (await store.feed.reads()).nearest(-16.5, -180, 5, maskOf(['wifi', 'restaurant']), 10)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe('keeping the index right', () => {
  it('a live answer that changes a place moves it between categories', async () => {
    const db = await tempDb();
    try {
      const store = db.index;
      await writeImported(store, [toPlace('node', 5, 42.5, 1.5, { amenity: 'pharmacy', name: 'Old' })!]);
      expect(await (await store.feed.reads()).nearest(42.5, 1.5, 1, maskOf(['pharmacy']), 10)).toHaveLength(1);
      const area = { lat: 42.5, lon: 1.5, radiusM: 1000, categories: maskOf(['bank']) };
      const { position, ...result } = await store.writeLive(
        [toPlace('node', 5, 42.501, 1.5, { amenity: 'bank', name: 'New' })!],
        area,
        1000,
        0,
      );
      expect(result).toEqual({ added: 0, replaced: 1, removed: 0 });
      expect(position).toMatch(/^\d+$/);
      expect(await (await store.feed.reads()).nearest(42.5, 1.5, 1, maskOf(['pharmacy']), 10)).toEqual([]);
      expect(
        (await (await store.feed.reads()).nearest(42.5, 1.5, 1, maskOf(['bank']), 10)).map((n) => n.place.name),
      ).toEqual(['New']);
      expect(await store.getByOsmId('node', 5)).toMatchObject({ source: 'overpass', fetchedAt: 1000, lat: 42.501 });
      await expectIndexConsistent(db);
      expect(await store.liveCovered(42.5, 1.5, 500, maskOf(['bank']), 1000)).toBe(true);
      expect(await store.liveCovered(42.5, 1.5, 500, maskOf(['bank', 'atm']), 1000)).toBe(false);
      expect(await store.liveCovered(42.5, 1.5, 500, maskOf(['bank']), 1001)).toBe(false);
    } finally {
      await db.close();
    }
  });

  it('recomputes masks made with an older category table, and drops what left every category', async () => {
    const db = await tempDb();
    try {
      const store = db.index;
      await writeImported(store, [
        toPlace('node', 1, 42.5, 1.5, { amenity: 'pharmacy' })!,
        toPlace('node', 2, 42.5, 1.5001, { shop: 'bakery' })!,
      ]);
      const pharmacy = (await store.getByOsmId('node', 1))!;
      const bakery = (await store.getByOsmId('node', 2))!;
      // as an older table would have left them: the pharmacy filed as a bank only, and the
      // bakery's tags (as kept) in no category any more
      const bank = maskOf(['bank']);
      await db.rows(`update places set categories = ${bank} where id = ${pharmacy.id}`);
      await db.rows(`update place_tags set tags = '{"shop":"vacant"}' where id = ${bakery.id}`);
      await db.rows(`update places_meta set value = 'an older table' where key = 'categories_version'`);
      expect(await (await store.feed.reads()).nearest(42.5, 1.5, 1, bank, 10)).toHaveLength(1);

      expect((await store.refreshCategoryMasks()).changed).toBe(2);
      expect((await store.getByOsmId('node', 1))!.categories).toBe(pharmacy.categories);
      expect(await (await store.feed.reads()).nearest(42.5, 1.5, 1, bank, 10)).toEqual([]);
      expect(
        (await (await store.feed.reads()).nearest(42.5, 1.5, 1, maskOf(['pharmacy']), 10)).map((n) => n.place.id),
      ).toEqual([pharmacy.id]);
      expect(await store.getByOsmId('node', 2)).toBeNull();
      expect(await db.rows('select id from place_tags')).toHaveLength(1);
      await expectIndexConsistent(db);
      expect((await store.refreshCategoryMasks()).changed).toBe(0); // up to date now
    } finally {
      await db.close();
    }
  });
});
