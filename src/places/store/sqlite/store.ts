// The places store on SQLite: one file that every process of the server shares. Each write is
// one better-sqlite3 transaction; the triggers of db/migrations/0007 log it, and every process's
// reads (feed.ts) follow that log.
import type SQLite from '../../../../db/sqlite-driver.js';
import { distanceKm } from '../../model/geo.js';
import type { PlaceRecord, PlaceType, StoredPlace } from '../../model/osm.js';
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
import { fromRow, STORED_COLUMNS, type PlaceRow } from '../rows.js';
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
import { SqliteChangeFeed } from './feed.js';
import * as sources from './sources.js';
import { refreshCategoryMasks, SqliteImportWriter, writePlaces } from './writer.js';
import { runPlanOn } from './plans.js';

/** A place page's read: the place, its address parts and its tags. */
const PLACE_WITH_PARTS = placeWithTags(`${STORED_COLUMNS}, address_parts`);
const PARTS_PENDING = 'select 1 from places_meta where key = ?';

export class SqlitePlaceStore implements PlaceStore {
  readonly dialect = 'sqlite';
  readonly feed: SqliteChangeFeed;

  /** The statements of a page's reads (a place, its address parts), prepared once. */
  private readonly statements = new Map<string, SQLite.Statement>();

  constructor(
    readonly sqlite: SQLite.Database,
    /** how many cards the reads' cache holds at most (the tests fill a small one) */
    cardCacheMax?: number,
  ) {
    this.feed = new SqliteChangeFeed(sqlite, cardCacheMax);
  }

  private statement(sql: string): SQLite.Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.sqlite.prepare(sql)));
    return statement;
  }

  /** Rows of these ids, in no particular order. */
  private rows(ids: number[]): Map<number, StoredPlace> {
    const rows = this.sqlite
      .prepare(`select ${STORED_COLUMNS} from places where id in (select value from json_each(?))`)
      .all(JSON.stringify(ids)) as PlaceRow[];
    return new Map(rows.map((row) => [row.id, fromRow(row)]));
  }

  async getByOsmId(osmType: PlaceType, osmId: number): Promise<StoredPlace | null> {
    const row = this.statement(`select ${STORED_COLUMNS} from places where osm_type = ? and osm_id = ?`).get(
      osmType,
      osmId,
    ) as PlaceRow | undefined;
    return row ? fromRow(row) : null;
  }

  async count(): Promise<number> {
    return this.sqlite.prepare('select count(*) from places').pluck().get() as number;
  }

  async refreshCategoryMasks(): Promise<{ changed: number } & Written> {
    return this.written({ changed: refreshCategoryMasks(this.sqlite) });
  }

  importWriter(fetchedAt: number): ImportWriter {
    return new SqliteImportWriter(this.sqlite, fetchedAt, () => this.feed.written());
  }

  /** After a write through this connection: its result with its position in the log. */
  private written<T extends object>(result: T): T & Written {
    return { ...result, position: this.feed.written() };
  }

  async writeLive(
    places: PlaceRecord[],
    area: LiveArea,
    fetchedAt: number,
    expireBefore: number,
  ): Promise<WriteResult & Written> {
    const db = this.sqlite;
    const result = db
      .transaction(() => {
        const result = writePlaces(db, places, fetchedAt);
        db.prepare('delete from overpass_fetches where fetched_at < ?').run(expireBefore);
        db.prepare(
          'insert into overpass_fetches (lat, lon, radius_m, categories, fetched_at) values (?, ?, ?, ?, ?)',
        ).run(area.lat, area.lon, area.radiusM, area.categories, fetchedAt);
        return result;
      })
      .immediate();
    return this.written(result);
  }

  async listSources(): Promise<SourceSummary[]> {
    return sources.listSources(this.sqlite);
  }

  async getSource(name: string): Promise<SourceSummary | null> {
    return sources.listSources(this.sqlite, name)[0] ?? null;
  }

  async removeSource(name: string): Promise<{ removed: number } & Written> {
    const removed = sources.removeSource(this.sqlite, name);
    if (removed === 'not found') throw new NotFound(name);
    if (removed === 'not removable') throw new NotRemovable(name);
    return this.written({ removed });
  }

  async writeOwn(
    changes: { upsert: OwnPlace[]; remove: number[] },
    fetchedAt: number,
  ): Promise<{ places: StoredPlace[] } & Written> {
    const ids = sources.writeOwn(this.sqlite, changes, fetchedAt);
    const { position } = this.written({});
    const rows = this.rows(ids);
    return { places: ids.map((id) => rows.get(id)!), position };
  }

  async listOwn(): Promise<StoredPlace[]> {
    return (
      this.sqlite
        .prepare(`select ${STORED_COLUMNS} from places where osm_type = 'own' order by osm_id`)
        .all() as PlaceRow[]
    ).map(fromRow);
  }

  async applyChanges(plan: ChangePlan, addresses?: (writes: ChangeWrites) => AddressUpdate): Promise<AppliedChanges> {
    refreshCategoryMasks(this.sqlite);
    const applied = this.sqlite
      .transaction(() => {
        const writes = sources.applyChanges(this.sqlite, plan);
        return { ...writes, addresses: addresses ? this.runAddressPlan(addresses(writes)) : null };
      })
      .immediate();
    return this.written(applied);
  }

  async updateAddresses(update: AddressUpdate): Promise<AddressSummary & Written> {
    return this.written(this.sqlite.transaction(() => this.runAddressPlan(update)).immediate());
  }

  /** An address update, inside the caller's transaction. */
  private runAddressPlan(update: AddressUpdate): AddressSummary {
    return runPlanOn(this.sqlite, addressPlan(update));
  }

  async placeWithAddressParts(
    osmType: PlaceType,
    osmId: number,
  ): Promise<{ place: StoredPlace; parts: AddressParts | null } | null> {
    const row = this.statement(PLACE_WITH_PARTS).get(osmType, osmId) as Record<string, unknown> | undefined;
    return row ? { place: fromRow(row as unknown as PlaceRow), parts: addressPartsOf(row) } : null;
  }

  async derivePendingAddressParts(): Promise<AddressSummary | null> {
    if (!this.statement(PARTS_PENDING).get(ADDRESS_PARTS_PENDING)) return null;
    return this.written({
      summary: this.sqlite.transaction(() => runPlanOn(this.sqlite, pendingAddressParts())).immediate(),
    }).summary;
  }

  async liveCovered(lat: number, lon: number, radiusM: number, mask: number, since: number): Promise<boolean> {
    const fetches = this.sqlite
      .prepare(
        'select lat, lon, radius_m, categories from overpass_fetches where fetched_at >= ? and (categories & ?) = ?',
      )
      .all(since, mask, mask) as { lat: number; lon: number; radius_m: number; categories: number }[];
    const covered = fetches.some((f) => distanceKm(lat, lon, f.lat, f.lon) * 1000 + radiusM <= f.radius_m + 1);
    // Fetched by another process, maybe in this very turn: the next search reads the log again.
    if (covered) this.feed.written();
    return covered;
  }
}
