// Issue 3, point 3: the R*Tree index gives exactly the places within the radius, nearest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskOf, categoriesInMask } from '../../src/places/categories.js';
import { CATEGORY_IDS, type CategoryId } from '../../src/places/category-ids.js';
import { importInputs } from '../../src/places/import/index.js';
import { writePlaces } from '../../src/places/import/writer.js';
import { toPlace } from '../../src/places/osm.js';
import { boxesAround, distanceKm, indexPlace, PlaceStore, refreshCategoryMasks } from '../../src/places/store.js';
import { EXTRACTS, tempDb, type TempDb } from './support.js';

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
      const lat2 = Math.asin(Math.sin(lat * rad) * Math.cos(angle) + Math.cos(lat * rad) * Math.sin(angle) * Math.cos(b));
      const lon2 = lon * rad + Math.atan2(Math.sin(b) * Math.sin(angle) * Math.cos(lat * rad), Math.cos(angle) - Math.sin(lat * rad) * Math.sin(lat2));
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

describe('PlaceStore.nearest on the Vancouver extract', () => {
  let db: TempDb;
  let store: PlaceStore;
  let all: { id: number; lat: number; lon: number; categories: number }[];

  beforeAll(async () => {
    db = await tempDb();
    await importInputs(db.handle.sqlite, [EXTRACTS.vancouver]);
    store = new PlaceStore(db.handle.sqlite);
    all = db.handle.sqlite.prepare('select id, lat, lon, categories from places').all() as typeof all;
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

  it.each(searches)('%s: exactly the places a brute-force scan finds, nearest first', (_, lat, lon, radiusKm, categories) => {
    const expected = bruteForce(lat, lon, radiusKm, categories);
    const found = store.nearest(lat, lon, radiusKm, maskOf(categories), 1_000_000);
    expect(found.map((n) => n.place.id)).toEqual(expected.map((p) => p.id));
    for (const [i, n] of found.entries()) expect(n.distanceKm).toBe(expected[i].distanceKm);
    if (lat !== 10) expect(found.length).toBeGreaterThan(0);
  });

  it.each(searches)('%s: the nearest 10, 100 and 1', (_, lat, lon, radiusKm, categories) => {
    const expected = bruteForce(lat, lon, radiusKm, categories).map((p) => p.id);
    for (const limit of [1, 10, 100]) {
      expect(store.nearest(lat, lon, radiusKm, maskOf(categories), limit).map((n) => n.place.id)).toEqual(expected.slice(0, limit));
    }
  });

  it('keeps only what `accept` takes, still the nearest ones', () => {
    const named = (p: { name: string | null }) => p.name !== null && p.name.startsWith('S');
    const found = store.nearest(49.2827, -123.1207, 5, maskOf(['restaurant']), 20, named);
    expect(found).toHaveLength(20);
    const expected = bruteForce(49.2827, -123.1207, 5, ['restaurant'])
      .filter((p) => named(store.nearest(49.2827, -123.1207, 5, maskOf(['restaurant']), 1_000_000).find((n) => n.place.id === p.id)!.place))
      .slice(0, 20);
    expect(found.map((n) => n.place.id)).toEqual(expected.map((p) => p.id));
  });

  it('gives the same answers as a plain table scan (the benchmark’s comparison)', () => {
    for (const [, lat, lon, radiusKm, categories] of searches) {
      const indexed = store.nearest(lat, lon, radiusKm, maskOf(categories), 100);
      store.useIndex = false;
      try {
        expect(store.nearest(lat, lon, radiusKm, maskOf(categories), 100)).toEqual(indexed);
      } finally {
        store.useIndex = true;
      }
    }
  });

  it('has every place in the big tree and in the tree of each of its categories', () => {
    const sqlite = db.handle.sqlite;
    expect(sqlite.prepare('select count(*) from places_rtree').pluck().get()).toBe(all.length);
    CATEGORY_IDS.forEach((category, i) => {
      const inCategory = all.filter((p) => categoriesInMask(p.categories).includes(category)).length;
      expect(sqlite.prepare(`select count(*) from places_rtree_${category}`).pluck().get(), category).toBe(inCategory);
    });
  });

  it('reads a category’s tree through the R*Tree index (SQLite’s own query plan)', () => {
    const plan = db.handle.sqlite
      .prepare('explain query plan select id from places_rtree_pharmacy where max_lat >= 1 and min_lat <= 2 and max_lon >= 1 and min_lon <= 2')
      .all() as { detail: string }[];
    expect(plan[0].detail).toMatch(/VIRTUAL TABLE INDEX \d+:/);
  });
});

describe('PlaceStore.nearest across the antimeridian', () => {
  it('finds places on both sides of longitude 180', async () => {
    const db = await tempDb();
    try {
      const fiji = [
        toPlace('node', 1, -16.5, 179.99, { amenity: 'cafe', name: 'East' }),
        toPlace('node', 2, -16.5, -179.99, { amenity: 'cafe', name: 'West' }),
        toPlace('node', 3, -16.5, 179.5, { amenity: 'cafe', name: 'Too far' }),
      ];
      writePlaces(db.handle.sqlite, fiji.map((p) => p!), 'import', 0);
      const store = new PlaceStore(db.handle.sqlite);
      expect(store.nearest(-16.5, 180, 5, maskOf(['amenity']), 10).map((n) => n.place.name)).toEqual(['East', 'West']);
      // a specific category reads its own tree: the same answer
      expect(store.nearest(-16.5, -180, 5, maskOf(['wifi', 'restaurant']), 10)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

describe('keeping the trees right', () => {
  it('writePlaces moves a place between category trees when a live answer changes it', async () => {
    const db = await tempDb();
    try {
      const store = new PlaceStore(db.handle.sqlite);
      writePlaces(db.handle.sqlite, [toPlace('node', 5, 42.5, 1.5, { amenity: 'pharmacy', name: 'Old' })!], 'import', 0);
      expect(store.nearest(42.5, 1.5, 1, maskOf(['pharmacy']), 10)).toHaveLength(1);
      const result = writePlaces(db.handle.sqlite, [toPlace('node', 5, 42.501, 1.5, { amenity: 'bank', name: 'New' })!], 'overpass', 1000);
      expect(result).toEqual({ added: 0, replaced: 1, removed: 0 });
      expect(store.nearest(42.5, 1.5, 1, maskOf(['pharmacy']), 10)).toEqual([]);
      expect(store.nearest(42.5, 1.5, 1, maskOf(['bank']), 10).map((n) => n.place.name)).toEqual(['New']);
      expect(store.getByOsmId('node', 5)).toMatchObject({ source: 'overpass', fetchedAt: 1000, lat: 42.501 });
      expect(db.handle.sqlite.prepare('select count(*) from places_rtree_pharmacy').pluck().get()).toBe(0);
    } finally {
      await db.close();
    }
  });

  it('recomputes masks and trees made with an older category table, and drops what left every category', async () => {
    const db = await tempDb();
    try {
      const sqlite = db.handle.sqlite;
      writePlaces(sqlite, [toPlace('node', 1, 42.5, 1.5, { amenity: 'pharmacy' })!, toPlace('node', 2, 42.5, 1.5001, { shop: 'bakery' })!], 'import', 0);
      const store = new PlaceStore(sqlite);
      const pharmacy = store.getByOsmId('node', 1)!;
      const bakery = store.getByOsmId('node', 2)!;
      // as an older table would have left them: the pharmacy filed as a bank only, and the
      // bakery's tags (as kept) in no category any more
      sqlite.prepare('update places set categories = ? where id = ?').run(maskOf(['bank']), pharmacy.id);
      indexPlace(sqlite, pharmacy.id, pharmacy.lat, pharmacy.lon, pharmacy.categories, maskOf(['bank']));
      sqlite.prepare(`update place_tags set tags = '{"shop":"vacant"}' where id = ?`).run(bakery.id);
      sqlite.prepare(`update places_meta set value = 'an older table' where key = 'categories_version'`).run();
      expect(store.nearest(42.5, 1.5, 1, maskOf(['bank']), 10)).toHaveLength(1);

      expect(refreshCategoryMasks(sqlite)).toBe(2);
      expect(store.getByOsmId('node', 1)!.categories).toBe(pharmacy.categories);
      expect(store.nearest(42.5, 1.5, 1, maskOf(['bank']), 10)).toEqual([]);
      expect(store.nearest(42.5, 1.5, 1, maskOf(['pharmacy']), 10).map((n) => n.place.id)).toEqual([pharmacy.id]);
      expect(store.getByOsmId('node', 2)).toBeNull();
      expect(sqlite.prepare('select count(*) from places_rtree').pluck().get()).toBe(1);
      expect(sqlite.prepare('select count(*) from places_rtree_bakery').pluck().get()).toBe(0);
      expect(sqlite.prepare('select count(*) from place_tags').pluck().get()).toBe(1);
      expect(refreshCategoryMasks(sqlite)).toBe(0); // up to date now
    } finally {
      await db.close();
    }
  });
});
