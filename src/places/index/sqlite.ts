// The places index on SQLite: R*Trees prefilter a bounding box, then exact great-circle
// distances decide what is within the radius, nearest first.
//
// Two kinds of tree (db/migrations/0002_places.ts): places_rtree holds every place with its
// category mask, and places_rtree_<category> holds the places of one category. A search for a
// few specific categories reads their own trees; one over broad categories reads the big tree
// and checks masks. Either way it starts with a small circle and widens it only until it has
// `limit` places, so a dense city costs about as much as a sparse one.
import type SQLite from '../../../db/sqlite-driver.js';
import { CATEGORIES_VERSION, hasBit } from '../categories.js';
import { CATEGORY_IDS } from '../category-ids.js';
import { boxesAround, distanceKm, intersects } from '../geo.js';
import type { PlaceRecord, Wheelchair } from '../osm.js';
import { SqliteImportWriter, writePlaces } from './sqlite-writer.js';
import * as sources from './sqlite-sources.js';
import { storedMask } from './columns.js';
import { placeColumns, type GridHits, type PlaceColumns } from './grid.js';
import type { PlaceCard } from './cards.js';
import { addressPlan, runPlanSync, type AddressSummary, type AddressUpdate, type Query } from '../addresses/store.js';
import { LocalReads } from './local-reads.js';
import { PerTurn } from '../../shared/per-turn.js';
import type { ChangePlan, ChangeWrites, ImportWriter, LiveArea, Nearby, OwnPlace, PlaceIndex, PlaceType, SourceSummary, StoredPlace, WriteResult } from './types.js';

export const categoryTree = (index: number) => `places_rtree_${CATEGORY_IDS[index]}`;

/** The statements that keep the trees, prepared once per connection. */
const treeStatements = new WeakMap<SQLite.Database, ReturnType<typeof prepareTreeStatements>>();

function prepareTreeStatements(sqlite: SQLite.Database) {
  return {
    all: sqlite.prepare('insert or replace into places_rtree (id, min_lat, max_lat, min_lon, max_lon, categories) values (?, ?, ?, ?, ?, ?)'),
    add: CATEGORY_IDS.map((_, i) => sqlite.prepare(`insert or replace into ${categoryTree(i)} (id, min_lat, max_lat, min_lon, max_lon) values (?, ?, ?, ?, ?)`)),
    remove: CATEGORY_IDS.map((_, i) => sqlite.prepare(`delete from ${categoryTree(i)} where id = ?`)),
    removeAll: sqlite.prepare('delete from places_rtree where id = ?'),
  };
}

function trees(sqlite: SQLite.Database) {
  let statements = treeStatements.get(sqlite);
  if (!statements) treeStatements.set(sqlite, (statements = prepareTreeStatements(sqlite)));
  return statements;
}

/**
 * Puts one place in (or moves it within) the trees: the big tree, and the trees of the
 * categories of `mask`, leaving those of `oldMask` it is no longer in. `oldMask` null: new place.
 */
export function indexPlace(sqlite: SQLite.Database, id: number, lat: number, lon: number, oldMask: number | null, mask: number): void {
  const t = trees(sqlite);
  t.all.run(id, lat, lat, lon, lon, mask);
  for (let i = 0; i < CATEGORY_IDS.length; i++) {
    if (oldMask !== null && hasBit(oldMask, i) && !hasBit(mask, i)) t.remove[i].run(id);
    // a place that moved must move in its trees too
    if (hasBit(mask, i)) t.add[i].run(id, lat, lat, lon, lon);
  }
}

/** Takes one place out of every tree it is in (its row is deleted by the caller). */
export function unindexPlace(sqlite: SQLite.Database, id: number, mask: number): void {
  const t = trees(sqlite);
  t.removeAll.run(id);
  for (let i = 0; i < CATEGORY_IDS.length; i++) if (hasBit(mask, i)) t.remove[i].run(id);
}

type PlaceRow = [number, PlaceType, number, number, number, number, string | null, string | null, string | null, string | null, string | null, string | null, Wheelchair | null, string | null, string | null, StoredPlace['source'], number, StoredPlace['addressSource']];

const PLACE_COLUMNS = `id, osm_type, osm_id, lat, lon, categories, name, names, address, phone, website,
  opening_hours, wheelchair, country, timezone, source, fetched_at, address_source`;

function fromRow(row: PlaceRow): StoredPlace {
  const [id, osmType, osmId, lat, lon, categories, name, names, address, phone, website, openingHours, wheelchair, country, timezone, source, fetchedAt, addressSource] = row;
  return {
    id, osmType, osmId, lat, lon, categories, name,
    names: names ? (JSON.parse(names) as Record<string, string>) : null,
    address, addressSource, phone, website, openingHours, wheelchair, country, timezone, source, fetchedAt,
  };
}

/** Past this many logged changes, reading every place again is cheaper than applying them. */
const RELOAD_AFTER = 50_000;

/**
 * Statements are prepared on first use: the tables may not exist yet at start-up. Searches read
 * positions and categories from an in-memory grid (grid.ts) that follows the `place_changes` log
 * (db/migrations/0007), and rows by id; the R*Trees serve the name search and the writers.
 */
export class SqlitePlaceIndex implements PlaceIndex {
  readonly dialect = 'sqlite';
  private statements: ReturnType<SqlitePlaceIndex['prepare']> | null = null;
  /** the last change of the log the grid and the row cache have taken in */
  private seenChange = 0;
  /**
   * The grid brought up to the log's newest change, looked at once per turn of the event loop
   * (a look costs as much as a small search's own work); this process's writes forget it at once.
   */
  private readonly current = new PerTurn(() => this.sync());
  /** the grid and the cards searches read */
  private readonly reads: LocalReads;
  /** whether the grid was built yet */
  private built = false;

  constructor(
    readonly sqlite: SQLite.Database,
    /** how many cards the cache holds at most (the tests fill a small one) */
    cardCacheMax?: number,
  ) {
    this.reads = new LocalReads(sqlite, cardCacheMax);
  }

  /** how many cards the cache holds now */
  get cachedCards(): number {
    return this.reads.cachedCards;
  }

  /** false: searches scan the whole table instead (only for the benchmark's comparison) */
  set useIndex(use: boolean) {
    this.reads.scan = use ? null : (lat, lon, radiusKm, mask) => this.scan(lat, lon, radiusKm, mask);
  }

  private prepare() {
    const db = this.sqlite;
    return {
      // The same question without any index: every row is read.
      scan: db.prepare(`select id, lat, lon, categories from places where lat between ? and ? and lon between ? and ?`).raw(),
      rows: db.prepare(`select ${PLACE_COLUMNS} from places where id in (select value from json_each(?))`).raw(),
      byOsmId: db.prepare(`select ${PLACE_COLUMNS} from places where osm_type = ? and osm_id = ?`).raw(),
      count: db.prepare('select count(*) from places').pluck(),
      lastChange: db.prepare('select max(seq) from place_changes').pluck(),
      firstChange: db.prepare('select min(seq) from place_changes').pluck(),
      changes: db.prepare('select distinct place_id from place_changes where seq > ? and seq <= ?').pluck(),
      everyPlace: db.prepare('select id, lat, lon, categories from places').raw(),
      position: db.prepare('select lat, lon, categories from places where id = ?').raw(),
    };
  }

  private get sql() {
    return (this.statements ??= this.prepare());
  }

  /**
   * Brings the grid and the card cache up to the log's newest change: what this or any other
   * process wrote since the last search. One read transaction, so they match one state.
   */
  private sync(): LocalReads {
    const sql = this.sql;
    const reads = this.reads;
    const last = (sql.lastChange.get() as number | null) ?? 0;
    if (this.built && last === this.seenChange) return reads;
    this.sqlite.transaction(() => {
      const newest = (sql.lastChange.get() as number | null) ?? 0;
      const first = (sql.firstChange.get() as number | null) ?? newest + 1;
      // pruned past what we saw, or a log that went back (another file put in place)
      const missed = (first > this.seenChange + 1 && newest > this.seenChange) || newest < this.seenChange;
      if (!this.built || missed || newest - this.seenChange > RELOAD_AFTER) {
        reads.grid.build(this.everyPlace());
        reads.forgetAll();
        this.built = true;
      } else {
        for (const id of sql.changes.all(this.seenChange, newest) as number[]) {
          reads.forget(id);
          const row = sql.position.get(id) as [number, number, number] | undefined;
          if (row) reads.grid.upsert({ id, lat: row[0], lon: row[1], categories: row[2] });
          else reads.grid.remove(id);
        }
      }
      this.seenChange = newest;
    })();
    return reads;
  }

  /** Every place's position and categories, as columns. */
  private everyPlace(): PlaceColumns {
    const columns = placeColumns(this.sql.count.get() as number);
    let n = 0;
    for (const [id, lat, lon, categories] of this.sql.everyPlace.iterate() as Iterable<[number, number, number, number]>) {
      columns.id[n] = id;
      columns.lat[n] = lat;
      columns.lon[n] = lon;
      columns.categories[n++] = categories;
    }
    return columns;
  }

  /** Rows of these ids, in no particular order. */
  private fetch(ids: number[], into: Map<number, StoredPlace>): void {
    const missing = ids.filter((id) => !into.has(id));
    if (missing.length === 0) return;
    for (const row of this.sql.rows.all(JSON.stringify(missing)) as PlaceRow[]) into.set(row[0], fromRow(row));
  }

  async nearest(lat: number, lon: number, radiusKm: number, mask: number, limit: number, accept?: (place: PlaceCard) => boolean): Promise<Nearby[]> {
    return this.nearestNow(lat, lon, radiusKm, mask, limit, accept);
  }

  /** What the grid answers, before any card is read (the benchmark times a search's parts). */
  gridHits(lat: number, lon: number, radiusKm: number, mask: number, limit: number): GridHits {
    return this.current.get().grid.nearest(lat, lon, radiusKm, mask, limit);
  }

  /** nearest(), synchronously: `accept` sees the places nearest first. */
  nearestNow(lat: number, lon: number, radiusKm: number, mask: number, limit: number, accept?: (place: PlaceCard) => boolean): Nearby[] {
    return this.current.get().nearest(lat, lon, radiusKm, mask, limit, accept);
  }

  /** Every place within the radius, by a plain scan of the table: the benchmark's comparison. */
  private scan(lat: number, lon: number, radiusKm: number, mask: number): GridHits {
    const hits: { id: number; d: number }[] = [];
    for (const b of boxesAround(lat, lon, radiusKm)) {
      for (const [id, plat, plon, categories] of this.sql.scan.all(b.south, b.north, b.west, b.east) as [number, number, number, number][]) {
        if (!intersects(categories, mask)) continue;
        const d = distanceKm(lat, lon, plat, plon);
        if (d <= radiusKm) hits.push({ id, d });
      }
    }
    hits.sort((a, b) => a.d - b.d || a.id - b.id);
    return { ids: hits.map((h) => h.id), distances: hits.map((h) => h.d) };
  }

  async nearestByName(lat: number, lon: number, radiusKm: number, mask: number, terms: string[], limit: number, accept?: (place: PlaceCard) => boolean): Promise<Nearby[]> {
    return this.current.get().nearestByName(lat, lon, radiusKm, mask, terms, limit, accept);
  }

  async load(): Promise<void> {
    this.current.get();
  }

  async getByOsmId(osmType: PlaceType, osmId: number): Promise<StoredPlace | null> {
    const row = this.sql.byOsmId.get(osmType, osmId) as PlaceRow | undefined;
    return row ? fromRow(row) : null;
  }

  async count(): Promise<number> {
    return this.sql.count.get() as number;
  }

  async refreshCategoryMasks(): Promise<number> {
    return this.written(refreshCategoryMasks(this.sqlite));
  }

  importWriter(fetchedAt: number): ImportWriter {
    return new SqliteImportWriter(this.sqlite, fetchedAt, () => this.current.forget());
  }

  /** After a write through this connection: the next search reads the log, whatever the turn. */
  private written<T>(result: T): T {
    this.current.forget();
    return result;
  }

  async writeLive(places: PlaceRecord[], area: LiveArea, fetchedAt: number, expireBefore: number): Promise<WriteResult> {
    const db = this.sqlite;
    const result = db.transaction(() => {
      const result = writePlaces(db, places, fetchedAt);
      db.prepare('delete from overpass_fetches where fetched_at < ?').run(expireBefore);
      db.prepare('insert into overpass_fetches (lat, lon, radius_m, categories, fetched_at) values (?, ?, ?, ?, ?)').run(area.lat, area.lon, area.radiusM, area.categories, fetchedAt);
      return result;
    }).immediate();
    return this.written(result);
  }

  async listSources(): Promise<SourceSummary[]> {
    return sources.listSources(this.sqlite);
  }

  async getSource(name: string): Promise<SourceSummary | null> {
    return sources.listSources(this.sqlite, name)[0] ?? null;
  }

  async removeSource(name: string): Promise<number> {
    const removed = this.written(sources.removeSource(this.sqlite, name));
    if (removed === -1) throw new RangeError(`no source named "${name}"`);
    if (removed === -2) throw new RangeError(`"${name}" cannot be removed: it holds the live fallback's or the admin's own places`);
    return removed;
  }

  async writeOwn(changes: { upsert: OwnPlace[]; remove: number[] }, fetchedAt: number): Promise<StoredPlace[]> {
    const ids = this.written(sources.writeOwn(this.sqlite, changes, fetchedAt));
    const rows = new Map<number, StoredPlace>();
    this.fetch(ids, rows);
    return ids.map((id) => rows.get(id)!);
  }

  async listOwn(): Promise<StoredPlace[]> {
    return (this.sqlite.prepare(`select ${PLACE_COLUMNS} from places where osm_type = 'own' order by osm_id`).raw().all() as PlaceRow[]).map(fromRow);
  }

  async applyChanges(plan: ChangePlan): Promise<ChangeWrites> {
    refreshCategoryMasks(this.sqlite);
    return this.written(sources.applyChanges(this.sqlite, plan));
  }

  async updateAddresses(update: AddressUpdate): Promise<AddressSummary> {
    const db = this.sqlite;
    const statements = new Map<string, SQLite.Statement>();
    const run = (query: Query) => {
      let statement = statements.get(query.sql);
      if (!statement) statements.set(query.sql, (statement = db.prepare(query.sql)));
      if (statement.reader) return statement.all(...query.params) as Record<string, unknown>[];
      statement.run(...query.params);
      return [];
    };
    return this.written(db.transaction(() => runPlanSync(addressPlan(update), run)).immediate());
  }

  async liveCovered(lat: number, lon: number, radiusM: number, mask: number, since: number): Promise<boolean> {
    const fetches = this.sqlite
      .prepare('select lat, lon, radius_m, categories from overpass_fetches where fetched_at >= ? and (categories & ?) = ?')
      .all(since, mask, mask) as { lat: number; lon: number; radius_m: number; categories: number }[];
    const covered = fetches.some((f) => distanceKm(lat, lon, f.lat, f.lon) * 1000 + radiusM <= f.radius_m + 1);
    // Fetched by another process, maybe in this very turn: the next search reads the log again.
    if (covered) this.current.forget();
    return covered;
  }
}

/**
 * Recomputes every stored category mask when the category table changed since they were
 * computed (the tags are kept for this); places left in no category are removed.
 * Returns the number of places whose mask changed.
 */
export function refreshCategoryMasks(sqlite: SQLite.Database): number {
  const stored = sqlite.prepare(`select value from places_meta where key = 'categories_version'`).pluck().get() as string | undefined;
  if (stored === CATEGORIES_VERSION) return 0;
  let changed = 0;
  sqlite.transaction(() => {
    const update = sqlite.prepare('update places set categories = ? where id = ?');
    const remove = sqlite.prepare('delete from places where id = ?');
    // In batches: all the tags of a large index would not fit in memory at once.
    const batch = sqlite.prepare(
      'select p.id, p.osm_type, p.lat, p.lon, p.categories, t.tags from places p join place_tags t on t.id = p.id where p.id > ? order by p.id limit 5000',
    );
    for (let after = 0; ; ) {
      const rows = batch.all(after) as { id: number; osm_type: string; lat: number; lon: number; categories: number; tags: string }[];
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      for (const row of rows) {
        const mask = storedMask(row.osm_type, JSON.parse(row.tags));
        if (mask === row.categories) continue;
        changed++;
        if (mask === 0) {
          unindexPlace(sqlite, row.id, row.categories);
          remove.run(row.id);
        } else {
          update.run(mask, row.id);
          indexPlace(sqlite, row.id, row.lat, row.lon, row.categories, mask);
        }
      }
    }
    sqlite
      .prepare(`insert into places_meta (key, value) values ('categories_version', ?) on conflict(key) do update set value = excluded.value`)
      .run(CATEGORIES_VERSION);
  }).immediate();
  return changed;
}
