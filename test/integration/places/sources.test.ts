// Sources and clean re-imports (issue 9, point 4) on both engines: every import belongs to a
// source (the feed its header names, else its file name, else --source); importing a source
// again removes its vanished places and restarts its replication state; other sources, the live
// fallback's places and the admin's own places stay.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, migrate, type DbHandle } from '../../../db/index.js';
import { maskOf } from '../../../src/places/model/categories.js';
import { importInputs } from '../../../src/places/sources/import/index.js';
import { readPbfReplication } from '../../../src/places/sources/import/pbf.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import type { PlaceStore } from '../../../src/places/store/types.js';
import { toPlace } from '../../../src/places/model/osm.js';
import { SHARED_DATA } from '../../helpers.js';
import { freshDatabase, type TestDatabase } from '../../support/databases.js';

const MONACO = join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf');
const ANDORRA = join(SHARED_DATA, 'andorra-2021-04-14.osm.pbf');
const GEOFABRIK = 'http://download.geofabrik.de/europe/monaco-updates';

const osm = (nodes: { id: number; name: string; lat: number; lon: number }[]) =>
  `<?xml version="1.0"?><osm version="0.6">${nodes
    .map(
      (n) =>
        `<node id="${n.id}" version="1" lat="${n.lat}" lon="${n.lon}"><tag k="amenity" v="pharmacy"/><tag k="name" v="${n.name}"/></node>`,
    )
    .join('')}</osm>`;

let dir: string;
let database: TestDatabase;
let handle: DbHandle;
let index: PlaceStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sources-'));
  database = await freshDatabase(dir);
  handle = createDb(
    database.url.startsWith('sqlite:')
      ? { kind: 'sqlite', path: database.url.slice(7) }
      : { kind: 'postgres', url: database.url },
  );
  await migrate(handle);
  index = createPlaceStore(handle);
}, 60_000);

afterAll(async () => {
  await handle?.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('sources', () => {
  it('reads the replication state from the .osm.pbf header', async () => {
    expect(await readPbfReplication(MONACO)).toEqual({
      baseUrl: GEOFABRIK,
      sequence: 2947,
      timestamp: '2021-04-21T20:21:46Z',
    });
    expect(await readPbfReplication(ANDORRA)).toMatchObject({
      baseUrl: 'http://download.geofabrik.de/europe/andorra-updates',
      sequence: 2940,
    });
  });

  it('names a source by the feed in the header, else the file name, else --source', async () => {
    const summary = await importInputs(index, [MONACO], { now: 1_000 });
    expect(summary.inputs[0].source).toBe(GEOFABRIK);
    const file = join(dir, 'corner-shop.osm');
    writeFileSync(file, osm([{ id: 9000001, name: 'Corner Pharmacy', lat: 43.74, lon: 7.43 }]));
    await importInputs(index, [file], { now: 2_000 });
    await importInputs(index, [file], { now: 3_000, source: 'my-region' });

    const sources = await index.listSources();
    expect(sources.map((s) => s.name)).toEqual(['live', 'own', GEOFABRIK, 'corner-shop.osm', 'my-region']);
    const monaco = sources.find((s) => s.name === GEOFABRIK)!;
    expect(monaco).toMatchObject({
      kind: 'osm',
      replicationUrl: GEOFABRIK,
      sequence: 2947,
      dataTimestamp: '2021-04-21T20:21:46Z',
      importedAt: 1_000,
      updatedAt: null,
    });
    expect(monaco.places).toBe(825);
    expect(monaco.perCategory.pharmacy).toBeGreaterThan(5);
    expect(Object.values(monaco.perCategory).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(monaco.places);
    // the same object imported under another source now belongs to it
    expect(sources.find((s) => s.name === 'corner-shop.osm')).toMatchObject({
      kind: 'osm',
      replicationUrl: null,
      sequence: null,
      places: 0,
    });
    expect(sources.find((s) => s.name === 'my-region')).toMatchObject({
      places: 1,
      perCategory: { pharmacy: 1, healthcare: 1 },
    });
    expect(await index.getSource('live')).toMatchObject({ kind: 'live', places: 0 });
    expect(await index.getSource('nowhere')).toBeNull();
  });
});

describe('a re-import', () => {
  it('removes the vanished places of its source only, and restarts its state', async () => {
    // a live place, an own place and another region next to Monaco's places
    const live = toPlace(
      'node',
      9000100,
      43.735,
      7.421,
      { amenity: 'pharmacy', name: 'Live Pharmacy' },
      maskOf(['pharmacy']),
    )!;
    await index.writeLive(
      [live],
      { lat: 43.735, lon: 7.421, radiusM: 100, categories: maskOf(['pharmacy']) },
      5_000,
      0,
    );
    const {
      places: [own],
    } = await index.writeOwn(
      { upsert: [{ name: 'Our Shop', category: 'supermarket', lat: 43.736, lon: 7.422 }], remove: [] },
      5_000,
    );
    await importInputs(index, [ANDORRA], { now: 5_000 });
    const andorraPlaces = (await index.getSource('http://download.geofabrik.de/europe/andorra-updates'))!.places;
    expect(andorraPlaces).toBeGreaterThan(100);
    // an update moved the Monaco source on
    await index.applyChanges(() => ({
      writes: {
        source: {
          name: GEOFABRIK,
          sequence: 2999,
          dataTimestamp: '2021-05-01T00:00:00Z',
          replicationUrl: null,
          updatedAt: 6_000,
        },
        upserts: [],
        moves: [],
        removals: [],
        nodeLocations: [],
        deletedNodes: [],
        wayNodes: [],
        relationMembers: [],
        fetchedAt: 6_000,
      },
    }));
    expect(await index.getSource(GEOFABRIK)).toMatchObject({ sequence: 2999, updatedAt: 6_000 });

    // "Monaco" again, from a file that has only two pharmacies under the same source name
    const smaller = join(dir, 'monaco-smaller.osm');
    writeFileSync(
      smaller,
      osm([
        { id: 280489587, name: 'Pharmacie des Moulins', lat: 43.743628, lon: 7.4284058 },
        { id: 9000002, name: 'Pharmacie Neuve', lat: 43.7401, lon: 7.4251 },
      ]),
    );
    const summary = await importInputs(index, [smaller], { now: 7_000, source: GEOFABRIK });
    expect(summary.removed).toBe(824);
    const monaco = (await index.getSource(GEOFABRIK))!;
    expect(monaco).toMatchObject({
      places: 2,
      sequence: null,
      replicationUrl: null,
      dataTimestamp: null,
      importedAt: 7_000,
      updatedAt: null,
    });
    const left = (
      await (
        await index.feed.reads()
      ).nearest(43.738, 7.424, 5, maskOf(['pharmacy', 'supermarket', 'restaurant']), 1000)
    )
      .map((n) => n.place.name)
      .sort();
    expect(left).toEqual(
      ['Live Pharmacy', 'Our Shop', 'Pharmacie Neuve', 'Pharmacie des Moulins', 'Corner Pharmacy'].sort(),
    );
    expect((await index.getSource('http://download.geofabrik.de/europe/andorra-updates'))!.places).toBe(andorraPlaces);
    expect((await index.listOwn()).map((p) => p.id)).toEqual([own.id]);

    // and the header's state when the file names a feed
    await importInputs(index, [MONACO], { now: 8_000 });
    expect(await index.getSource(GEOFABRIK)).toMatchObject({
      places: 825,
      sequence: 2947,
      replicationUrl: GEOFABRIK,
      dataTimestamp: '2021-04-21T20:21:46Z',
    });
    expect(await index.getByOsmId('node', 9000002)).toBeNull();
  }, 120_000);

  it('removing a source takes its places; the live and own sources cannot be removed', async () => {
    const before = await index.count();
    const andorra = 'http://download.geofabrik.de/europe/andorra-updates';
    const places = (await index.getSource(andorra))!.places;
    expect((await index.removeSource(andorra)).removed).toBe(places);
    expect(await index.count()).toBe(before - places);
    expect(await index.getSource(andorra)).toBeNull();
    expect(await (await index.feed.reads()).nearest(42.5063, 1.5218, 20, maskOf(['pharmacy']), 10)).toEqual([]);
    await expect(index.removeSource('live')).rejects.toThrow(/cannot be removed/);
    await expect(index.removeSource('own')).rejects.toThrow(/cannot be removed/);
    await expect(index.removeSource('nowhere')).rejects.toThrow(/no source named "nowhere"/);
  });
});

describe('own places', () => {
  it('are stored, searched, edited and removed, and refreshes of the category table keep them', async () => {
    const {
      places: [shop],
    } = await index.writeOwn(
      {
        upsert: [
          {
            name: 'Ours',
            category: 'bakery',
            lat: 43.73,
            lon: 7.42,
            phone: '+377 1',
            openingHours: 'Mo-Su 07:00-13:00',
          },
        ],
        remove: [],
      },
      9_000,
    );
    expect(shop).toMatchObject({
      osmType: 'own',
      name: 'Ours',
      source: 'own',
      phone: '+377 1',
      openingHours: 'Mo-Su 07:00-13:00',
      timezone: 'Europe/Monaco',
    });
    expect(
      (await (await index.feed.reads()).nearest(43.73, 7.42, 1, maskOf(['bakery']), 5)).map((n) => n.place.id),
    ).toContain(shop.id);
    const {
      places: [edited],
    } = await index.writeOwn(
      { upsert: [{ id: shop.osmId, name: 'Ours again', category: 'butcher', lat: 43.731, lon: 7.42 }], remove: [] },
      9_500,
    );
    expect(edited).toMatchObject({ id: shop.id, osmId: shop.osmId, name: 'Ours again', lat: 43.731 });
    expect(
      (await (await index.feed.reads()).nearest(43.73, 7.42, 1, maskOf(['bakery']), 5)).map((n) => n.place.id),
    ).not.toContain(shop.id);
    expect(
      (await (await index.feed.reads()).nearest(43.73, 7.42, 1, maskOf(['butcher']), 5)).map((n) => n.place.id),
    ).toContain(shop.id);
    await expect(
      index.writeOwn({ upsert: [{ id: 999999, name: 'x', category: 'bakery', lat: 0, lon: 0 }], remove: [] }, 1),
    ).rejects.toThrow(/does not exist/);
    await expect(
      index.writeOwn(
        {
          upsert: [
            { name: 'x', category: 'bakery', lat: 0, lon: 0 },
            { name: 'y', category: 'spaceport', lat: 0, lon: 0 },
          ],
          remove: [],
        },
        1,
      ),
    ).rejects.toThrow(/unknown category/);
    expect((await index.listOwn()).map((p) => p.name)).not.toContain('x'); // nothing half-written
    // a new category table recomputes masks from the kept tags: an own place keeps its category
    await sql`update places_meta set value = 'older' where key = 'categories_version'`.execute(handle.db);
    await index.refreshCategoryMasks();
    expect(
      (await (await index.feed.reads()).nearest(43.73, 7.42, 1, maskOf(['butcher']), 5)).map((n) => n.place.id),
    ).toContain(shop.id);
    await index.writeOwn({ upsert: [], remove: [shop.osmId] }, 10_000);
    expect(await index.getByOsmId('own', shop.osmId)).toBeNull();
    // a removed place's id is not handed out again
    const {
      places: [next],
    } = await index.writeOwn(
      { upsert: [{ name: 'Newer', category: 'bakery', lat: 43.73, lon: 7.42 }], remove: [] },
      11_000,
    );
    expect(next.osmId).toBeGreaterThan(shop.osmId);
  });
});
