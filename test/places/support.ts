// Shared by the places tests: the extracts, a migrated database, a places caller.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, migrate, type DbHandle } from '../../db/index.js';
import type { Lang } from '../../src/i18n.js';
import { placesRouter } from '../../src/procedures/places.js';
import type { TestApp } from '../helpers.js';
import { memoryCookie, SHARED_DATA } from '../helpers.js';
import { createServices } from '../../src/services.js';
import type { Context } from '../../src/trpc/context.js';

export const EXTRACTS = {
  vancouver: join(SHARED_DATA, 'vancouver_canada-2015.osm.pbf'),
  monaco: join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf'),
  andorra: join(SHARED_DATA, 'andorra-2021-04-14.osm.pbf'),
  dc: join(SHARED_DATA, 'dc-openstreetpois-2013.geojson'),
};

export interface TempDb {
  handle: DbHandle;
  dir: string;
  path: string;
  close(): Promise<void>;
}

/** A fresh, migrated SQLite database in a temp folder. */
export async function tempDb(): Promise<TempDb> {
  const dir = mkdtempSync(join(tmpdir(), 'places-db-'));
  const path = join(dir, 'app.db');
  const handle = createDb({ kind: 'sqlite', path });
  await migrate(handle.db);
  return {
    handle,
    dir,
    path,
    async close() {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
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

/** Every row of the places index, its tags and its trees, for before/after comparisons. */
export function snapshot(handle: DbHandle): unknown[] {
  const sqlite = handle.sqlite;
  const trees = (sqlite.prepare("select name from sqlite_master where type = 'table' and sql like '%using rtree%' order by name").pluck().all() as string[]).map(
    (tree) => [tree, sqlite.prepare(`select * from ${tree} order by id`).all()],
  );
  return [sqlite.prepare('select * from places order by id').all(), sqlite.prepare('select * from place_tags order by id').all(), trees];
}

export function rtreeCount(handle: DbHandle): number {
  return handle.sqlite.prepare('select count(*) from places_rtree').pluck().get() as number;
}
