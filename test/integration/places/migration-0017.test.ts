// Migration 0017: a place's derived address kept in parts on its row. A database imported before
// it (address context and derived addresses, no parts) shows the same address parts on its place
// pages after it: its places are derived again once, when the server starts, and the per-page
// indexes of the context are gone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, migrate, type DbHandle } from '../../../db/index.js';
import { migrations } from '../../../db/migrations/index.js';
import { parseDatabaseUrl } from '../../../src/config.js';
import { importInputs } from '../../../src/places/sources/import/index.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import type { PlaceType } from '../../../src/places/model/osm.js';
import { emptyPostgresDatabase, TEST_DIALECT, type TestDatabase } from '../../support/databases.js';
import { EXTRACTS } from '../../support/places.js';
import { buildTestApp } from '../../helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'migration-0017-'));
const databases: TestDatabase[] = [];
const handles: DbHandle[] = [];

afterAll(async () => {
  for (const handle of handles) await handle.close();
  for (const database of databases) await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function emptyDatabase(name: string): Promise<{ handle: DbHandle; url: string }> {
  let url = `sqlite:${join(dir, `${name}.db`)}`;
  if (TEST_DIALECT === 'postgres') {
    const database = await emptyPostgresDatabase();
    databases.push(database);
    url = database.url;
  }
  const handle = createDb(parseDatabaseUrl(url)!);
  handles.push(handle);
  return { handle, url };
}

async function columnsOf(handle: DbHandle, table: string): Promise<string[]> {
  if (handle.dialect === 'sqlite')
    return handle.sqlite.prepare(`select name from pragma_table_info(?)`).pluck().all(table) as string[];
  const { rows } = await sql<{
    name: string;
  }>`select column_name as name from information_schema.columns where table_name = ${table}`.execute(handle.db);
  return rows.map((r) => r.name);
}

/** Copies the rows of `tables` that the older database has columns for. */
async function copyRows(from: DbHandle, to: DbHandle, tables: string[]): Promise<void> {
  for (const table of tables) {
    const wanted = new Set(await columnsOf(to, table));
    const columns = (await columnsOf(from, table)).filter((c) => wanted.has(c));
    const { rows } = await sql<
      Record<string, unknown>
    >`select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)} order by 1`.execute(from.db);
    for (let i = 0; i < rows.length; i += 200) {
      await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${sql.join(
        rows.slice(i, i + 200).map((row) => sql`(${sql.join(columns.map((c) => row[c]))})`),
      )} on conflict do nothing`.execute(to.db);
    }
  }
}

const pending = async (handle: DbHandle) =>
  (await sql`select 1 from places_meta where key = 'address_parts_pending'`.execute(handle.db)).rows.length > 0;

const contextIndexes = async (handle: DbHandle) =>
  handle.dialect === 'sqlite'
    ? (handle.sqlite
        .prepare(`select name from sqlite_master where type = 'index' and tbl_name = 'address_context'`)
        .pluck()
        .all() as string[])
    : (
        await sql<{
          name: string;
        }>`select indexname as name from pg_indexes where tablename = 'address_context'`.execute(handle.db)
      ).rows.map((r) => r.name);

describe('migration 0017', () => {
  it('gives a database imported before it the same address parts on its place pages', async () => {
    const { handle: current } = await emptyDatabase('current');
    await migrate(current);
    const store = createPlaceStore(current);
    await importInputs(store, [EXTRACTS.andorra]);
    expect(await pending(current)).toBe(false);

    const { handle: old, url: oldUrl } = await emptyDatabase('old');
    const upTo = (last: string) =>
      Object.fromEntries(Object.entries(migrations).filter(([name]) => name.slice(0, 4) <= last));
    await migrate(old, upTo('0016'));
    await copyRows(current, old, ['place_sources', 'places', 'place_tags', 'address_context']);
    expect(await migrate(old)).toEqual(['0017_address_parts']);
    expect(await pending(old)).toBe(true);
    expect(await contextIndexes(old)).not.toContain('address_context_tier');
    expect(await contextIndexes(old)).not.toContain('address_context_area');
    expect(await contextIndexes(old)).toContain('address_context_box');

    const places = (
      await sql<{
        osm_type: PlaceType;
        osm_id: number;
        address_source: string | null;
      }>`select osm_type, osm_id, address_source from places order by id`.execute(current.db)
    ).rows;
    const derived = places.filter((p) => p.address_source !== null);
    expect(derived.length).toBeGreaterThan(100);
    const migrated = createPlaceStore(old);
    const addressesBefore = (await sql`select id, address, address_source from places order by id`.execute(old.db))
      .rows;
    // the server's start derives them, before it answers anything
    const server = await buildTestApp({ env: { DATABASE_URL: oldUrl } });
    await server.close();
    expect(await pending(old)).toBe(false);
    expect(await migrated.derivePendingAddressParts()).toBeNull();
    let derivedParts = 0;
    for (const { osm_type, osm_id } of places) {
      const [now, then] = await Promise.all([
        store.placeWithAddressParts(osm_type, Number(osm_id)),
        migrated.placeWithAddressParts(osm_type, Number(osm_id)),
      ]);
      expect(then?.parts, `${osm_type}/${osm_id}`).toEqual(now?.parts);
      if (then?.parts && then.parts.source !== 'osm') derivedParts++;
    }
    expect(derivedParts).toBeGreaterThan(100);
    // derived again by the same rule: the addresses shown are the ones the import wrote
    expect((await sql`select id, address, address_source from places order by id`.execute(old.db)).rows).toEqual(
      addressesBefore,
    );
  });
});
