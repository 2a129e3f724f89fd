// The places store on PostgreSQL: the database every node shares holds the places and takes
// every write (imports, change files, the live source, the own places). Searches do not ask it:
// each process searches its own copy (node-copy.ts), the same grid and cards as on SQLite, kept
// current from the change log of db/migrations/0008.
import type pg from 'pg';
import type { PostgresHandle } from '../../../../db/index.js';
import { CATEGORIES_VERSION } from '../../model/categories.js';
import { distanceKm } from '../../model/geo.js';
import type { PlaceRecord, PlaceType, StoredPlace } from '../../model/osm.js';
import type { ChangeFeed } from '../../search/change-feed.js';
import {
  ADDRESS_PARTS_PENDING,
  addressPartsOf,
  addressPlan,
  pendingAddressParts,
  placeWithTags,
  type AddressParts,
  type AddressSummary,
  type AddressUpdate,
} from '../addresses.js';
import { emptyKnown, fromRow, STORED_COLUMNS, storedMask, type PlaceRow } from '../rows.js';
import { NotFound, NotRemovable } from '../types.js';
import type {
  AppliedChanges,
  ChangePlan,
  ChangeWrites,
  ImportWriter,
  LiveArea,
  OwnPlace,
  PlaceStore,
  SourceSummary,
  WriteResult,
  Written,
} from '../types.js';
import type { NodeCopy } from './node-copy.js';
import * as sources from './sources.js';
import { recordCategoriesVersion } from './sources.js';
import { inTransaction } from './transaction.js';
import { PostgresImportWriter } from './writer.js';

/** A place page's read: the place, its address parts and its tags, in PostgreSQL's $n style. */
const PLACE_WITH_PARTS = (() => {
  let n = 0;
  return placeWithTags(`${STORED_COLUMNS}, address_parts`).replace(/\?/g, () => `$${++n}`);
})();

export class PostgresPlaceStore implements PlaceStore {
  readonly dialect = 'postgres';
  private readonly pool: pg.Pool;
  readonly feed: ChangeFeed;

  constructor(
    handle: PostgresHandle,
    /** this process's copy (node-copy.ts), loaded on first use, shared by the handle's stores */
    private readonly copy: NodeCopy,
  ) {
    this.pool = handle.pool;
    this.feed = { reads: () => copy.ready(), caughtUp: (position) => copy.caughtUpTo(position) };
  }

  /**
   * One write transaction; once committed, this process's copy takes in what it logged at once
   * (other processes within a notification's time), so a search right after it sees it. The
   * position is the transaction's id ('0' when it wrote nothing).
   */
  async write<T extends object>(work: (client: pg.PoolClient) => Promise<T>): Promise<T & Written> {
    let txid: string | null = null;
    const result = await inTransaction(this.pool, async (client) => {
      const result = await work(client);
      txid = (await client.query<{ txid: string | null }>('select pg_current_xact_id_if_assigned()::text as txid'))
        .rows[0].txid;
      return result;
    });
    if (txid !== null) await this.copy.applyOwn(txid);
    return { ...result, position: txid ?? '0' };
  }

  async getByOsmId(osmType: PlaceType, osmId: number): Promise<StoredPlace | null> {
    const { rows } = await this.pool.query<PlaceRow>(
      `select ${STORED_COLUMNS} from places where osm_type = $1 and osm_id = $2`,
      [osmType, osmId],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>('select count(*)::int as n from places');
    return rows[0].n;
  }

  async refreshCategoryMasks(): Promise<{ changed: number } & Written> {
    const { rows } = await this.pool.query<{ value: string }>(
      `select value from places_meta where key = 'categories_version'`,
    );
    if (rows[0]?.value === CATEGORIES_VERSION) return { changed: 0, position: '0' };
    return this.write(async (client) => {
      // Taken first: two processes starting together recompute once.
      await client.query('lock table places_meta in exclusive mode');
      const again = await client.query<{ value: string }>(
        `select value from places_meta where key = 'categories_version'`,
      );
      if (again.rows[0]?.value === CATEGORIES_VERSION) return { changed: 0 };
      let changed = 0;
      for (let after = 0; ;) {
        const batch = await client.query<{ id: number; osm_type: string; categories: number; tags: string }>(
          `select p.id, p.osm_type, p.categories, t.tags from places p join place_tags t on t.id = p.id
           where p.id > $1 order by p.id limit 5000`,
          [after],
        );
        if (batch.rows.length === 0) break;
        after = batch.rows[batch.rows.length - 1].id;
        const updates: [number, number][] = [];
        const removals: number[] = [];
        for (const row of batch.rows) {
          const mask = storedMask(row.osm_type, JSON.parse(row.tags));
          if (mask === row.categories) continue;
          if (mask === 0) removals.push(row.id);
          else updates.push([row.id, mask]);
        }
        changed += updates.length + removals.length;
        if (removals.length) await client.query('delete from places where id = any($1::int[])', [removals]);
        if (updates.length) {
          await client.query(
            'update places p set categories = u.mask from unnest($1::int[], $2::bigint[]) as u(id, mask) where p.id = u.id',
            [updates.map((u) => u[0]), updates.map((u) => u[1])],
          );
        }
      }
      await recordCategoriesVersion(client);
      return { changed };
    });
  }

  importWriter(fetchedAt: number): ImportWriter {
    return new PostgresImportWriter(fetchedAt, {
      refreshCategoryMasks: () => this.refreshCategoryMasks(),
      write: (work) => this.write(work),
      pool: this.pool,
    });
  }

  async writeLive(
    places: PlaceRecord[],
    area: LiveArea,
    fetchedAt: number,
    expireBefore: number,
  ): Promise<WriteResult & Written> {
    await this.refreshCategoryMasks();
    return this.write(async (client) => {
      const live = await sources.sourceId(client, 'live');
      const { added, replaced } = await sources.upsertPlaces(client, places, 'overpass', live, fetchedAt);
      await recordCategoriesVersion(client);
      await client.query('delete from overpass_fetches where fetched_at < $1', [expireBefore]);
      // with this transaction's id: a node that waited for this fetch applies exactly its places (liveCovered)
      await client.query(
        'insert into overpass_fetches (lat, lon, radius_m, categories, fetched_at, txid) values ($1, $2, $3, $4, $5, pg_current_xact_id())',
        [area.lat, area.lon, area.radiusM, area.categories, fetchedAt],
      );
      return { added, replaced, removed: 0 };
    });
  }

  async listSources(): Promise<SourceSummary[]> {
    return sources.listSources(this.pool);
  }

  async getSource(name: string): Promise<SourceSummary | null> {
    return (await sources.listSources(this.pool, name))[0] ?? null;
  }

  async removeSource(name: string): Promise<{ removed: number } & Written> {
    const { removed, position } = await this.write(async (client) => ({
      removed: await sources.removeSource(client, name),
    }));
    if (removed === 'not found') throw new NotFound(name);
    if (removed === 'not removable') throw new NotRemovable(name);
    return { removed, position };
  }

  async writeOwn(
    changes: { upsert: OwnPlace[]; remove: number[] },
    fetchedAt: number,
  ): Promise<{ places: StoredPlace[] } & Written> {
    await this.refreshCategoryMasks();
    const { ids, position } = await this.write(async (client) => ({
      ids: await sources.writeOwn(client, changes, fetchedAt),
    }));
    if (ids.length === 0) return { places: [], position };
    const { rows } = await this.pool.query<PlaceRow>(`select ${STORED_COLUMNS} from places where id = any($1::int[])`, [
      ids,
    ]);
    const byId = new Map(rows.map((row) => [row.id, fromRow(row)]));
    return { places: ids.map((id) => byId.get(id)!), position };
  }

  async listOwn(): Promise<StoredPlace[]> {
    const { rows } = await this.pool.query<PlaceRow>(
      `select ${STORED_COLUMNS} from places where osm_type = 'own' order by osm_id`,
    );
    return rows.map(fromRow);
  }

  async updateAddresses(update: AddressUpdate): Promise<AddressSummary & Written> {
    return this.write(async (client) => {
      // one at a time, as change files are: the plan reads, then writes, what it read
      await client.query(`select pg_advisory_xact_lock(hashtext('place-changes'))`);
      return runAddressPlan(client, update);
    });
  }

  async placeWithAddressParts(
    osmType: PlaceType,
    osmId: number,
  ): Promise<{ place: StoredPlace; parts: AddressParts | null } | null> {
    const { rows } = await this.pool.query(PLACE_WITH_PARTS, [osmType, osmId]);
    const row = rows[0] as Record<string, unknown> | undefined;
    return row ? { place: fromRow(row as unknown as PlaceRow), parts: addressPartsOf(row) } : null;
  }

  async derivePendingAddressParts(): Promise<AddressSummary | null> {
    const pending = await this.pool.query('select 1 from places_meta where key = $1', [ADDRESS_PARTS_PENDING]);
    if (pending.rowCount === 0) return null;
    const { summary } = await this.write(async (client) => {
      // one at a time, as change files are: a node that comes second finds nothing pending
      await client.query(`select pg_advisory_xact_lock(hashtext('place-changes'))`);
      return { summary: await sources.runPlanOn(client, pendingAddressParts()) };
    });
    return summary;
  }

  async applyChanges(plan: ChangePlan, addresses?: (writes: ChangeWrites) => AddressUpdate): Promise<AppliedChanges> {
    await this.refreshCategoryMasks();
    return this.write(async (client) => {
      // One change file at a time per database: the plan reads, then writes, what it read.
      await client.query(`select pg_advisory_xact_lock(hashtext('place-changes'))`);
      const known = emptyKnown();
      for (;;) {
        const step = plan(known);
        if ('need' in step) {
          await sources.lookup(client, step.need, known);
          continue;
        }
        await sources.writeChanges(client, step.writes);
        return { ...step.writes, addresses: addresses ? await runAddressPlan(client, addresses(step.writes)) : null };
      }
    });
  }

  async liveCovered(lat: number, lon: number, radiusM: number, mask: number, since: number): Promise<boolean> {
    const { rows } = await this.pool.query<{ lat: number; lon: number; radius_m: number; txid: string | null }>(
      `select lat, lon, radius_m, txid::text as txid from overpass_fetches where fetched_at >= $1
       and (categories & $2::bigint) = $2::bigint`,
      [since, mask],
    );
    const covering = rows.filter((f) => distanceKm(lat, lon, f.lat, f.lon) * 1000 + radiusM <= f.radius_m + 1);
    // Another node's fetch (its transaction's id is its position): its places go into this
    // process's copy before the search reads it.
    for (const txid of new Set(covering.map((f) => f.txid))) if (txid !== null) await this.copy.caughtUpTo(txid);
    return covering.length > 0;
  }
}

/** An address update on a client, inside its transaction. */
function runAddressPlan(client: pg.PoolClient, update: AddressUpdate): Promise<AddressSummary> {
  return sources.runPlanOn(client, addressPlan(update));
}
