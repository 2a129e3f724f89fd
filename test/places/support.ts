// Shared by the places tests: the extracts, a migrated database, a places caller.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { createDb, migrate, type DbHandle } from '../../db/index.js';
import { categoriesInMask } from '../../src/places/categories.js';
import { CATEGORY_IDS } from '../../src/places/category-ids.js';
import { createPlaceIndex, type PlaceIndex } from '../../src/places/index/index.js';
import { nodeCopy } from '../../src/places/index/node-copy.js';
import type { PlaceRecord } from '../../src/places/osm.js';
import { parseDatabaseUrl } from '../../src/config.js';
import type { Lang } from '../../src/i18n.js';
import { placesRouter } from '../../src/procedures/places.js';
import type { TestApp } from '../helpers.js';
import { memoryCookie, SHARED_DATA } from '../helpers.js';
import { createServices } from '../../src/services.js';
import { freshDatabase, TEST_DIALECT } from '../support/databases.js';
import type { Context } from '../../src/trpc/context.js';
import type { ElementSource, OsmElement, ScanOptions } from '../../src/places/import/types.js';

export const EXTRACTS = {
  vancouver: join(SHARED_DATA, 'vancouver_canada-2015.osm.pbf'),
  monaco: join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf'),
  andorra: join(SHARED_DATA, 'andorra-2021-04-14.osm.pbf'),
  dc: join(SHARED_DATA, 'dc-openstreetpois-2013.geojson'),
};

/** Every element a source gives, one object each (the readers hand nodes over in typed batches). */
export async function scanElements(
  source: ElementSource,
  visit: (element: OsmElement) => void,
  options: Omit<ScanOptions, 'keys'> = { nodes: true, ways: true, relations: true },
): Promise<void> {
  await source.scan(
    {
      nodes(batch) {
        const tagged = new Set(batch.tagged.subarray(0, batch.taggedCount));
        for (let i = 0; i < batch.count; i++) {
          const has = tagged.has(i);
          visit({ type: 'node', id: batch.ids[i], lat: batch.lats[i] / 1e7, lon: batch.lons[i] / 1e7, tags: has ? batch.tags(i) : null, version: batch.version(i) });
        }
      },
      way(id, tags, refs, center, version) {
        const list: number[] = [];
        refs?.forEach((ref) => list.push(ref));
        visit({ type: 'way', id, tags, refs: list, center, version });
      },
      relation(id, tags, members, center, version) {
        visit({ type: 'relation', id, tags, members, center, version });
      },
    },
    options,
  );
}

export interface TempDb {
  handle: DbHandle;
  index: PlaceIndex;
  dir: string;
  /** its DATABASE_URL */
  url: string;
  /** rows of a query written the same for both engines */
  rows<T = Record<string, unknown>>(query: string): Promise<T[]>;
  close(): Promise<void>;
}

/** A fresh, migrated database of the current pass (SQLite file or PostgreSQL clone). */
export async function tempDb(): Promise<TempDb> {
  const dir = mkdtempSync(join(tmpdir(), 'places-db-'));
  const database = await freshDatabase(dir);
  const url = database.url;
  const handle = createDb(parseDatabaseUrl(url)!, { poolSize: 4 });
  await migrate(handle);
  let closed = false;
  return {
    handle,
    index: createPlaceIndex(handle),
    dir,
    url,
    rows: async <T,>(query: string) => (await sql.raw(query).execute(handle.db)).rows as T[],
    async close() {
      if (!closed) await handle.close();
      closed = true;
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * After a write by another process: on PostgreSQL this process's copy of the places takes it in
 * within a notification's time; this waits for it (SQLite reads its log at every search).
 */
export async function caughtUp(handle: DbHandle): Promise<void> {
  if (handle.dialect === 'postgres') await nodeCopy(handle).caughtUp();
}

/** Places written as one import would write them (source `import`). */
export async function writeImported(index: PlaceIndex, places: PlaceRecord[], fetchedAt = 0) {
  const writer = index.importWriter(fetchedAt);
  for (const place of places) writer.add(place);
  return writer.commit();
}

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  obj: object | string;
  msg?: string;
}

/** places.search through tRPC's caller, on the test app's database and clock. */
export function placesCaller(t: TestApp, options: { lang?: Lang; logs?: LogLine[] } = {}) {
  const services = (t.services ??= createServices(t.config, t.handle, t.clock.now));
  const log = (level: LogLine['level']) => (obj: object | string, msg?: string) => void options.logs?.push({ level, obj, msg });
  const ctx: Context = {
    db: t.handle.db,
    config: t.config,
    services,
    now: t.clock.now,
    log: { info: log('info'), warn: log('warn'), error: log('error') },
    ip: '127.0.0.1',
    lang: options.lang ?? 'en',
    session: null,
    cookie: memoryCookie(),
  };
  return placesRouter.createCaller(ctx);
}

/** Every row of the places index, its tags and its spatial index, for before/after comparisons. */
export async function snapshot(db: TempDb): Promise<unknown[]> {
  const base = [await db.rows('select * from places order by id'), await db.rows('select * from place_tags order by id')];
  if (db.handle.dialect === 'postgres') return [...base, await db.rows('select place_id, category, st_astext(geog) as at from place_categories order by place_id, category')];
  const trees = await db.rows<{ name: string }>("select name from sqlite_master where type = 'table' and sql like '%using rtree%' order by name");
  return [...base, await Promise.all(trees.map(async ({ name }) => [name, await db.rows(`select * from ${name} order by id`)]))];
}

/** Places the spatial index holds: SQLite's big R*Tree, PostGIS's category rows' places. */
export async function indexedCount(db: TempDb): Promise<number> {
  const query = db.handle.dialect === 'sqlite' ? 'select count(*) as n from places_rtree' : 'select count(distinct place_id) as n from place_categories';
  return Number((await db.rows<{ n: number }>(query))[0].n);
}

/**
 * The spatial index agrees with the places table: on SQLite every place is in the big tree and
 * in the trees of exactly its categories, at its position; on PostGIS every place has one
 * category row per category, at its position.
 */
export async function expectIndexConsistent(db: TempDb): Promise<void> {
  const places = await db.rows<{ id: number; lat: number; lon: number; categories: number }>('select id, lat, lon, categories from places order by id');
  if (db.handle.dialect === 'postgres') {
    const rows = await db.rows<{ place_id: number; category: number; lat: number; lon: number }>(
      'select place_id, category, st_y(geog::geometry) as lat, st_x(geog::geometry) as lon from place_categories order by place_id, category',
    );
    const expected = places.flatMap((p) => CATEGORY_IDS.flatMap((id, i) => (categoriesInMask(p.categories).includes(id) ? [{ place_id: p.id, category: i, lat: p.lat, lon: p.lon }] : [])));
    expect(rows).toEqual(expected);
    return;
  }
  const big = await db.rows('select id, categories from places_rtree order by id');
  expect(big).toEqual(places.map((p) => ({ id: p.id, categories: p.categories })));
  for (const category of CATEGORY_IDS) {
    const tree = await db.rows<{ id: number; min_lat: number; min_lon: number }>(`select id, min_lat, min_lon from places_rtree_${category} order by id`);
    const members = places.filter((p) => categoriesInMask(p.categories).includes(category));
    expect(tree.map((r) => r.id), category).toEqual(members.map((p) => p.id));
    tree.forEach((r, i) => {
      expect(Math.abs(r.min_lat - members[i].lat)).toBeLessThan(1e-4);
      expect(Math.abs(r.min_lon - members[i].lon)).toBeLessThan(1e-4);
    });
  }
}

export { TEST_DIALECT };

/**
 * Epoch ms of a wall-clock time in a zone, by the runtime's own time-zone data. Tests name local
 * times this way, not by a fixed offset: British Columbia keeps daylight time from 2026 on in
 * newer tz data (Node 22 and 24), while Node 20's data still falls back to UTC-8 in November.
 * Written apart from src/places/hours.ts's wall clock on purpose: the tests' times must not come
 * from the code they check.
 */
export function zonedTime(isoLocal: string, timeZone: string): number {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  const wanted = Date.parse(`${isoLocal}Z`);
  let guess = wanted;
  for (let i = 0; i < 3; i++) {
    const p = Object.fromEntries(format.formatToParts(guess).filter((part) => part.type !== 'literal').map((part) => [part.type, Number(part.value)]));
    guess += wanted - Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  }
  return guess;
}
