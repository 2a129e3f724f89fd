// Migration 0012: the R*Trees (SQLite) and the per-category rows, GiST indexes and geography
// column (PostgreSQL) that no search reads are gone from a new database, and a database made
// before the migration keeps its places and answers the same searches after it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, migrate, type DbHandle } from '../../../db/index.js';
import { migrations } from '../../../db/migrations/index.js';
import { parseDatabaseUrl } from '../../../src/config.js';
import { maskOf } from '../../../src/places/model/categories.js';
import { importInputs } from '../../../src/places/sources/import/index.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { emptyPostgresDatabase, TEST_DIALECT, type TestDatabase } from '../../support/databases.js';
import { nearestByScan } from '../../support/nearest.js';
import { EXTRACTS } from '../../support/places.js';

const dir = mkdtempSync(join(tmpdir(), 'migration-0012-'));
const databases: TestDatabase[] = [];
const handles: DbHandle[] = [];

afterAll(async () => {
  for (const handle of handles) await handle.close();
  for (const database of databases) await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function emptyDatabase(name: string): Promise<DbHandle> {
  let url = `sqlite:${join(dir, `${name}.db`)}`;
  if (TEST_DIALECT === 'postgres') {
    const database = await emptyPostgresDatabase();
    databases.push(database);
    url = database.url;
  }
  const handle = createDb(parseDatabaseUrl(url)!);
  handles.push(handle);
  return handle;
}

/** The tables and indexes 0012 drops that are still there. */
async function leftOver(handle: DbHandle): Promise<string[]> {
  if (handle.dialect === 'sqlite') {
    return handle.sqlite
      .prepare(`select name from sqlite_master where name like 'places_rtree%'`)
      .pluck()
      .all() as string[];
  }
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_class where relname in ('place_categories', 'place_categories_geog', 'places_geog')
    union all select 'places.geog' from information_schema.columns where table_name = 'places' and column_name = 'geog'`.execute(
    handle.db,
  );
  return rows.map((r) => r.name);
}

async function columnsOf(handle: DbHandle, table: string): Promise<string[]> {
  if (handle.dialect === 'sqlite')
    return handle.sqlite.prepare(`select name from pragma_table_info(?)`).pluck().all(table) as string[];
  const { rows } = await sql<{
    name: string;
  }>`select column_name as name from information_schema.columns where table_name = ${table}`.execute(handle.db);
  return rows.map((r) => r.name);
}

/**
 * Fills an older database with the rows today's import writes: today's reader needs the tables of
 * later migrations, so the places are imported into a current database and copied over.
 */
async function copyImported(to: DbHandle, extract: string): Promise<void> {
  const from = await emptyDatabase('current');
  await migrate(from);
  await importInputs(createPlaceStore(from), [extract]);
  for (const table of ['place_sources', 'places']) {
    const wanted = new Set(await columnsOf(to, table));
    const columns = (await columnsOf(from, table)).filter((c) => wanted.has(c) && c !== 'geog');
    const { rows } = await sql<
      Record<string, unknown>
    >`select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)}`.execute(from.db);
    for (let i = 0; i < rows.length; i += 200) {
      await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${sql.join(
        rows.slice(i, i + 200).map((row) => sql`(${sql.join(columns.map((c) => row[c]))})`),
      )} on conflict do nothing`.execute(to.db);
    }
  }
}

const placesOf = async (handle: DbHandle) =>
  (
    await sql<
      Record<string, unknown>
    >`select id, osm_type, osm_id, lat, lon, categories, name, names, address, source_id from places order by id`.execute(
      handle.db,
    )
  ).rows;

describe('migration 0012', () => {
  it('leaves a new database without the indexes no search reads', async () => {
    const handle = await emptyDatabase('new');
    await migrate(handle);
    expect(await leftOver(handle)).toEqual([]);
  });

  it('migrates a database that had them: places kept, the same searches answered', async () => {
    const handle = await emptyDatabase('old');
    const upTo = (last: string) =>
      Object.fromEntries(Object.entries(migrations).filter(([name]) => name.slice(0, 4) <= last));
    await migrate(handle, upTo('0011'));
    expect((await leftOver(handle)).length).toBeGreaterThan(0);
    await copyImported(handle, EXTRACTS.monaco);
    const places = await placesOf(handle);
    expect(places.length).toBeGreaterThan(100);

    expect(await migrate(handle, upTo('0012'))).toEqual(['0012_drop_unread_indexes']);
    expect(await leftOver(handle)).toEqual([]);
    expect(await placesOf(handle)).toEqual(places);
    await migrate(handle);

    const rows = places.map((p) => ({
      id: Number(p.id),
      lat: Number(p.lat),
      lon: Number(p.lon),
      categories: Number(p.categories),
    }));
    const reads = await createPlaceStore(handle).feed.reads();
    const mask = maskOf(['restaurant', 'pharmacy', 'bank', 'hotel']);
    for (const p of rows.slice(0, 20)) {
      const found = reads.nearest(p.lat, p.lon, 1, mask, 25);
      expect(found.map((n) => n.place.id)).toEqual(nearestByScan(rows, p.lat, p.lon, 1, mask, 25).ids);
    }
  });
});
