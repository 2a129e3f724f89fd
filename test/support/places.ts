// Shared by the places tests: the extracts, a migrated database, a places caller.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { createDb, migrate, type DbHandle } from '../../db/index.js';
import { createPlaceStore, type PlaceStore } from '../../src/places/store/index.js';
import { NodeCopy } from '../../src/places/store/postgres/node-copy.js';
import type { PlaceRecord } from '../../src/places/model/osm.js';
import { parseDatabaseUrl } from '../../src/config.js';
import type { Lang } from '../../src/i18n.js';
import { placesRouter } from '../../src/procedures/places.js';
import type { TestApp } from '../helpers.js';
import { memoryCookie, SHARED_DATA } from '../helpers.js';
import { createServices } from '../../src/services.js';
import { freshDatabase, TEST_DIALECT } from './databases.js';
import { importedDatabase, type Imported } from './templates.js';
import type { Context } from '../../src/trpc/context.js';
import type { ElementSource, OsmElement, ScanOptions } from '../../src/places/sources/import/types.js';

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
          visit({
            type: 'node',
            id: batch.ids[i],
            lat: batch.lats[i] / 1e7,
            lon: batch.lons[i] / 1e7,
            tags: has ? batch.tags(i) : null,
            version: has ? batch.version(i) : null,
          });
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
  index: PlaceStore;
  dir: string;
  /** its DATABASE_URL */
  url: string;
  /** rows of a query written the same for both engines */
  rows<T = Record<string, unknown>>(query: string): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database of the current pass (SQLite file or PostgreSQL clone); with
 * `imported`, holding those extracts (a copy of the run's template of them).
 */
export async function tempDb(imported?: Imported): Promise<TempDb> {
  const dir = mkdtempSync(join(tmpdir(), 'places-db-'));
  const database = imported ? await importedDatabase(dir, imported) : await freshDatabase(dir);
  const url = database.url;
  const handle = createDb(parseDatabaseUrl(url)!, { poolSize: 4 });
  await migrate(handle);
  let closed = false;
  return {
    handle,
    index: createPlaceStore(handle),
    dir,
    url,
    rows: async <T>(query: string) => (await sql.raw(query).execute(handle.db)).rows as T[],
    async close() {
      if (!closed) await handle.close();
      closed = true;
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * After writes whose position this process does not have (another program's, raw SQL): on
 * PostgreSQL this process's copy of the places takes them in within a notification's time; this
 * waits for every transaction committed before the call (SQLite reads its log at every search).
 * A write through a store returns its position: `feed.caughtUp(position)` waits for that alone.
 */
export async function caughtUp(handle: DbHandle): Promise<void> {
  if (handle.dialect === 'postgres') await handle.shared(NodeCopy).caughtUpWithEveryCommit();
}

/** Places written as one import would write them (source `import`). */
export async function writeImported(index: PlaceStore, places: PlaceRecord[], fetchedAt = 0) {
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
  const log = (level: LogLine['level']) => (obj: object | string, msg?: string) =>
    void options.logs?.push({ level, obj, msg });
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

/** Every row of the places index and its tags, for before/after comparisons. */
export async function snapshot(db: TempDb): Promise<unknown[]> {
  return [await db.rows('select * from places order by id'), await db.rows('select * from place_tags order by id')];
}

/** What a process's searches read, loaded afresh (SQLite) or caught up (PostgreSQL's copy). */
async function freshReads(db: TempDb) {
  if (db.handle.dialect === 'postgres') {
    await caughtUp(db.handle);
    return db.index.feed.reads();
  }
  return createPlaceStore(db.handle).feed.reads();
}

/** Places the searches' grid holds. */
export async function indexedCount(db: TempDb): Promise<number> {
  return [...(await freshReads(db)).grid.places()].length;
}

/**
 * What searches read agrees with the places table: the grid of the store that wrote (followed
 * from the change log) and a freshly loaded one hold every place, at its position, with exactly
 * its categories.
 */
export async function expectIndexConsistent(db: TempDb): Promise<void> {
  const places = await db.rows<{ id: number; lat: number; lon: number; categories: number }>(
    'select id, lat, lon, categories from places order by id',
  );
  const expected = places.map((p) => ({ id: p.id, lat: p.lat, lon: p.lon, categories: Number(p.categories) }));
  for (const reads of [await db.index.feed.reads(), await freshReads(db)]) {
    const held = [...reads.grid.places()]
      .map((p) => ({ id: p.id, lat: p.lat, lon: p.lon, categories: p.categories }))
      .sort((a, b) => a.id - b.id);
    expect(held).toEqual(expected);
  }
}

export { TEST_DIALECT };

/**
 * Epoch ms of a wall-clock time in a zone, by the runtime's own time-zone data. Tests name local
 * times this way, not by a fixed offset: British Columbia keeps daylight time from 2026 on in
 * newer tz data (Node 22 and 24), while Node 20's data still falls back to UTC-8 in November.
 * Written apart from src/places/model/hours.ts's wall clock on purpose: the tests' times must not come
 * from the code they check.
 */
export function zonedTime(isoLocal: string, timeZone: string): number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const wanted = Date.parse(`${isoLocal}Z`);
  let guess = wanted;
  for (let i = 0; i < 3; i++) {
    const p = Object.fromEntries(
      format
        .formatToParts(guess)
        .filter((part) => part.type !== 'literal')
        .map((part) => [part.type, Number(part.value)]),
    );
    guess += wanted - Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  }
  return guess;
}
