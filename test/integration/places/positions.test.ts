// Every write of the store returns its position in the change log, and another process's reads,
// told to catch up to it, hold the write: what a caller that wrote waits for before it searches,
// instead of a sleep or a poll. "Another process" is a second database handle here (its own
// connection, log cursor and reads; on PostgreSQL its own copy), and once a program of its own.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle, type PostgresHandle } from '../../../db/index.js';
import { parseDatabaseUrl } from '../../../src/config.js';
import { maskOf } from '../../../src/places/model/categories.js';
import { toPlace } from '../../../src/places/model/osm.js';
import type { ChangePosition } from '../../../src/places/search/change-feed.js';
import { createPlaceStore, type PlaceStore } from '../../../src/places/store/index.js';
import type { ChangeWrites } from '../../../src/places/store/types.js';
import { onlyOn } from '../../support/databases.js';
import { ROOT } from '../../support/server-process.js';
import { tempDb, writeImported, type TempDb } from '../../support/places.js';

const RESTAURANT = maskOf(['restaurant']);
const BANK = maskOf(['bank']);
const restaurant = (osmId: number, name: string, lat: number, lon: number) =>
  toPlace('node', osmId, lat, lon, { amenity: 'restaurant', name })!;

/** A change file's writes with nothing in them but what `writes` gives. */
const changeWrites = (writes: Partial<ChangeWrites>): ChangeWrites => ({
  source: { name: 'import', sequence: null, dataTimestamp: null, replicationUrl: null, updatedAt: 1 },
  upserts: [],
  moves: [],
  removals: [],
  nodeLocations: [],
  deletedNodes: [],
  wayNodes: [],
  relationMembers: [],
  fetchedAt: 1,
  ...writes,
});

describe('a write’s position, caught up to by another process', () => {
  let db: TempDb;
  let otherHandle: DbHandle;
  /** the other process's store: only its reads are used */
  let other: PlaceStore;

  beforeAll(async () => {
    db = await tempDb();
    otherHandle = createDb(parseDatabaseUrl(db.url)!, { poolSize: 2 });
    other = createPlaceStore(otherHandle);
    // loaded before any write: from now on it follows the log
    await other.feed.reads();
  });
  afterAll(async () => {
    await otherHandle?.close();
    await db?.close();
  });

  /** The names the other process's reads hold around a point, once caught up to `position`. */
  const namesAt = async (position: ChangePosition, lat: number, lon: number, mask = RESTAURANT) => {
    expect(position).toMatch(/^\d+$/);
    const reads = await other.feed.caughtUp(position);
    return (await reads.nearest(lat, lon, 1, mask, 10)).map((n) => n.place.name);
  };

  it('an import’s commit and a live answer', async () => {
    const imported = await writeImported(db.index, [restaurant(1, 'Imported', 1, 1)]);
    expect(await namesAt(imported.position, 1, 1)).toEqual(['Imported']);

    const live = await db.index.writeLive(
      [toPlace('node', 1, 1, 1, { amenity: 'bank', name: 'Now a bank' })!],
      { lat: 1, lon: 1, radiusM: 500, categories: BANK },
      1_000,
      0,
    );
    expect(await namesAt(live.position, 1, 1)).toEqual([]);
    expect(await namesAt(live.position, 1, 1, BANK)).toEqual(['Now a bank']);
  });

  it('own places added, then removed', async () => {
    const added = await db.index.writeOwn(
      { upsert: [{ name: 'Our Café', category: 'restaurant', lat: 2, lon: 2 }], remove: [] },
      1_000,
    );
    expect(await namesAt(added.position, 2, 2)).toEqual(['Our Café']);
    const removed = await db.index.writeOwn({ upsert: [], remove: [added.places[0].osmId] }, 2_000);
    expect(await namesAt(removed.position, 2, 2)).toEqual([]);
  });

  it('a change file’s upserts, moves and removals', async () => {
    await writeImported(db.index, [restaurant(31, 'Moved', 3, 3), restaurant(32, 'Removed', 3, 3.001)]);
    const [moved, removed] = [(await db.index.getByOsmId('node', 31))!, (await db.index.getByOsmId('node', 32))!];
    const applied = await db.index.applyChanges(() => ({
      writes: changeWrites({
        upserts: [{ place: restaurant(33, 'Added by a change', 3, 3.002), shape: {} }],
        moves: [{ id: moved.id, lat: 3.5, lon: 3 }],
        removals: [removed.id],
      }),
    }));
    expect(await namesAt(applied.position, 3, 3)).toEqual(['Added by a change']);
    expect(await namesAt(applied.position, 3.5, 3)).toEqual(['Moved']);
  });

  it('a source removed', async () => {
    const { position: importedAt } = await writeImported(db.index, [restaurant(41, 'Imported too', 4, 4)]);
    expect(await namesAt(importedAt, 4, 4)).toEqual(['Imported too']);
    const removed = await db.index.removeSource('import');
    expect(removed.removed).toBeGreaterThan(0);
    expect(await namesAt(removed.position, 4, 4)).toEqual([]);
  });

  onlyOn('sqlite', () => {
    it('is what shows the write within the turn that wrote it (the log is looked at once a turn)', async () => {
      await other.feed.reads();
      const written = await db.index.writeOwn(
        { upsert: [{ name: 'Same turn', category: 'restaurant', lat: 6, lon: 6 }], remove: [] },
        1_000,
      );
      // the reads held for this turn of the event loop have not looked at the log since
      expect(await (await other.feed.reads()).nearest(6, 6, 1, RESTAURANT, 10)).toEqual([]);
      expect(await namesAt(written.position, 6, 6)).toEqual(['Same turn']);
    });
  });

  onlyOn('postgres', () => {
    it('holds the writer’s earlier writes too, while an older transaction keeps the log’s horizon back', async () => {
      // An open transaction with an id: no pass of the log goes beyond it until it ends, so only
      // what the position names, and what committed before it, can show the writes.
      const holder = await (otherHandle as PostgresHandle).pool.connect();
      try {
        await holder.query('begin');
        await holder.query('select pg_current_xact_id()');
        await writeImported(db.index, [restaurant(71, 'First of two', 7, 7)]);
        const second = await writeImported(db.index, [restaurant(72, 'Second of two', 7, 7.001)]);
        expect(await namesAt(second.position, 7, 7)).toEqual(['First of two', 'Second of two']);
      } finally {
        await holder.query('rollback');
        holder.release();
      }
    });
  });

  it('a write of another program, caught up to by this one', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'test/support/write-own-place.ts'), db.url, 'From elsewhere', '5', '5'],
      { cwd: ROOT },
    );
    const written = JSON.parse(stdout) as { osmId: number; position: ChangePosition };
    expect(await namesAt(written.position, 5, 5)).toEqual(['From elsewhere']);
    // and this process's writing store's own reads, told the same
    const reads = await db.index.feed.caughtUp(written.position);
    expect((await reads.nearest(5, 5, 1, RESTAURANT, 10)).map((n) => n.place.name)).toEqual(['From elsewhere']);
  });
});
