// The SQLite index's writers: the one every import reader feeds, and the live source's upsert.
//
// Imports stage places in a temporary table (SQLite's temp schema, which does not lock the
// database), then move them into the index in one short transaction: an input that fails half
// way leaves the index exactly as it was, and the server keeps answering while a large file is
// read. Live (Overpass) results are few and already in memory: writePlaces() upserts them
// directly. Both only use better-sqlite3's synchronous transactions, so no transaction is ever
// left open across an `await` on a connection the server shares.
import type SQLite from '../../../../db/sqlite-driver.js';
import { CATEGORIES_VERSION } from '../../model/categories.js';
import type { OsmType } from '../../model/osm.js';
import type { PlaceRecord } from '../../model/osm.js';
import { PLACE_COLUMNS, placeRow, storedMask, updateOnConflict } from '../rows.js';
import type { ImportWriter, PlaceShape, SourceState, WriteResult, Written } from '../types.js';
import type { ChangePosition } from '../../search/change-feed.js';
import {
  addressPlans,
  derivePlaces,
  keptAddressParts,
  placesNotStaged,
  STAGED_ADDRESS,
  stagedPlaces,
  type AddressSummary,
  type AddressUpdate,
} from '../addresses.js';
import { runPlanOn } from './plans.js';
import { ADDRESS_SOURCES, AddressThread, addressTagsOf } from '../staged-addresses.js';

function recordCategoriesVersion(sqlite: SQLite.Database): void {
  sqlite
    .prepare(
      `insert into places_meta (key, value) values ('categories_version', ?) on conflict(key) do update set value = excluded.value`,
    )
    .run(CATEGORIES_VERSION);
}

/**
 * Upserts places (by OSM type and id) and their tags; the caller
 * holds the transaction. Live answers and change files leave a known place in its source.
 * `shapes`: the version and node list of each place, by position (change files).
 */
export function upsertPlaces(
  sqlite: SQLite.Database,
  places: PlaceRecord[],
  source: 'import' | 'overpass',
  sourceId: number,
  fetchedAt: number,
  shapes: PlaceShape[] = [],
): { replaced: number; added: number; ids: number[] } {
  const existing = sqlite.prepare('select id from places where osm_type = ? and osm_id = ?');
  const upsert = sqlite
    .prepare(
      `insert into places (${PLACE_COLUMNS}, source, fetched_at, source_id, version)
       values (${'?, '.repeat(17)}?) ${updateOnConflict(false)} returning id`,
    )
    .pluck();
  const tags = sqlite.prepare('insert or replace into place_tags (id, tags) values (?, ?)');
  const seen = new Set<string>();
  let replaced = 0;
  const ids: number[] = [];
  places.forEach((place, i) => {
    const key = `${place.osmType}/${place.osmId}`;
    const before = existing.get(place.osmType, place.osmId) as { id: number } | undefined;
    if (!seen.has(key)) {
      seen.add(key);
      if (before) replaced++;
    }
    const id = upsert.get(...placeRow(place), source, fetchedAt, sourceId, shapes[i]?.version ?? null) as number;
    ids.push(id);
    tags.run(id, JSON.stringify(place.tags));
  });
  return { replaced, added: seen.size - replaced, ids };
}

/** The id of a source, made when new (an OSM source: 'live' and 'own' always exist). */
export function sourceId(sqlite: SQLite.Database, name: string): number {
  sqlite.prepare(`insert into place_sources (name, kind) values (?, 'osm') on conflict (name) do nothing`).run(name);
  return sqlite.prepare('select id from place_sources where name = ?').pluck().get(name) as number;
}

/** Upserts live-source places in one transaction. */
export function writePlaces(sqlite: SQLite.Database, places: PlaceRecord[], fetchedAt: number): WriteResult {
  refreshCategoryMasks(sqlite);
  return sqlite
    .transaction((): WriteResult => {
      const { added, replaced } = upsertPlaces(sqlite, places, 'overpass', sourceId(sqlite, 'live'), fetchedAt);
      recordCategoriesVersion(sqlite);
      return { added, replaced, removed: 0 };
    })
    .immediate();
}

const STAGING_BATCH = 5000;
/** ...or this many node ids in the rows' lists: a park's outline may have thousands */
const STAGING_BATCH_REFS = 200_000;
/**
 * SQLite's page caches while an import stages and commits (KiB; the connection's own, 2 MB, is
 * given back after): a country's commit reads back pages of the places, their indexes and the
 * staged rows that a 2 MB cache has dropped, each a search through the write-ahead log of the one
 * transaction (gigabytes), and the staged rows of the temp schema are hundreds of MB.
 */
const IMPORT_CACHE_KIB = { main: 128 * 1024, temp: 32 * 1024 };
let writers = 0;

/** Stages an import's places, then commits them all at once (or nothing, on abort). */
export class SqliteImportWriter implements ImportWriter {
  private readonly staging: string;
  private readonly dropped: string;
  /** node locations, and the node lists of ways that place relations use */
  private readonly shapes: string;
  private readonly sources: SourceState[] = [];
  private readonly insertShape: { node: SQLite.Statement; way: SQLite.Statement };
  private shapeRows: [keyof SqliteImportWriter['insertShape'], unknown[]][] = [];
  private readonly insertStaged: SQLite.Statement;
  private readonly insertDropped: SQLite.Statement;
  private readonly stageBatch: SQLite.Transaction<(places: unknown[][], dropped: [OsmType, number][]) => number[]>;
  /** derives the staged places' addresses while they are staged and the commit writes the rest */
  private addressThread: AddressThread | null = null;
  private places: unknown[][] = [];
  /** what the address thread reads of each place in `places` (AddressThread.places; the rowids once staged) */
  private placesForThread: unknown[] = [];
  /** node ids and members in the staged rows' lists */
  private stagedRefs = 0;
  private droppedIds: [OsmType, number][] = [];
  private finished = false;
  /** the connection's page cache sizes, given back once the import is over */
  private readonly cacheBefore: { main: number; temp: number };

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly fetchedAt: number,
    /** told once the places are committed (the reads then look at the log at once): the position */
    private readonly committed: () => ChangePosition,
  ) {
    const n = ++writers;
    this.cacheBefore = {
      main: sqlite.pragma('main.cache_size', { simple: true }) as number,
      temp: sqlite.pragma('temp.cache_size', { simple: true }) as number,
    };
    sqlite.pragma(`temp.cache_size = ${-IMPORT_CACHE_KIB.temp}`);
    this.staging = `temp.place_staging_${n}`;
    this.dropped = `temp.place_dropped_${n}`;
    this.shapes = `temp.place_shapes_${n}`;
    sqlite.exec(`
      create table ${this.staging} (
        osm_type text not null, osm_id integer not null, lat real not null, lon real not null,
        categories integer not null, name text, names text, address text, phone text, website text,
        opening_hours text, wheelchair text, country text, timezone text, tags text not null,
        version integer, source_name text not null,
        -- JSON: a way's node ids, a relation's members, the node ids that place it
        refs text, members text, nodes text,
        primary key (osm_type, osm_id)
      );
      -- the addresses derived for staged rows (by rowid) that differ from their own: a narrow
      -- table, rather than a rewrite of each wide staged row
      create table ${this.staging}_addresses (id integer primary key, address text, address_source text, address_parts text);
      create table ${this.dropped} (osm_type text not null, osm_id integer not null, primary key (osm_type, osm_id));
      -- no keys: rows are appended, and the last of an id wins when they are moved (rowid order)
      create table ${this.shapes}_nodes (id integer not null, lat real not null, lon real not null);
      create table ${this.shapes}_ways (id integer not null, refs text not null);
    `);
    // A later copy of the same object in the input wins.
    this.insertStaged = sqlite.prepare(`insert or replace into ${this.staging} values (${'?, '.repeat(19)}?)`);
    this.insertDropped = sqlite.prepare(`insert or ignore into ${this.dropped} values (?, ?)`);
    this.insertShape = {
      node: sqlite.prepare(`insert into ${this.shapes}_nodes values (?, ?, ?)`),
      way: sqlite.prepare(`insert into ${this.shapes}_ways values (?, ?)`),
    };
    this.stageBatch = sqlite.transaction((places: unknown[][], dropped: [OsmType, number][]) => {
      const rowids = places.map((row) => this.insertStaged.run(row).lastInsertRowid as number);
      for (const key of dropped) this.insertDropped.run(key);
      for (const [kind, row] of this.shapeRows) this.insertShape[kind].run(row);
      this.shapeRows = [];
      return rowids;
    });
  }

  source(state: SourceState): void {
    this.sources.push(state);
  }

  derivingAddresses(): void {
    this.addressThread ??= new AddressThread();
  }

  private get sourceName(): string {
    return this.sources.at(-1)?.name ?? 'import';
  }

  nodeLocation(id: number, lat: number, lon: number): void {
    this.shapeRows.push(['node', [id, lat, lon]]);
    this.flushIfFull();
  }

  wayNodes(id: number, refs: number[]): void {
    this.shapeRows.push(['way', [id, JSON.stringify(refs)]]);
    this.stagedRefs += refs.length;
    this.flushIfFull();
  }

  private flushIfFull(): void {
    if (
      this.places.length + this.droppedIds.length + this.shapeRows.length >= STAGING_BATCH ||
      this.stagedRefs >= STAGING_BATCH_REFS
    )
      this.flush();
  }

  private flush(): void {
    const rowids = this.stageBatch(this.places, this.droppedIds);
    if (this.addressThread && this.places.length) {
      const fields = this.placesForThread.length / rowids.length;
      rowids.forEach((rowid, i) => (this.placesForThread[i * fields] = rowid));
      this.addressThread.places(this.placesForThread);
    }
    this.places = [];
    this.placesForThread = [];
    this.droppedIds = [];
    this.stagedRefs = 0;
  }

  add(place: PlaceRecord, shape: PlaceShape = {}): void {
    this.places.push([
      ...placeRow(place),
      JSON.stringify(place.tags),
      shape.version ?? null,
      this.sourceName,
      shape.refs ? JSON.stringify(shape.refs) : null,
      shape.members ? JSON.stringify(shape.members.map((m) => [m.type, m.ref])) : null,
      shape.nodes?.length ? JSON.stringify(shape.nodes) : null,
    ]);
    if (this.addressThread)
      this.placesForThread.push(
        0,
        place.osmType,
        place.osmId,
        place.lat,
        place.lon,
        place.address,
        place.country,
        addressTagsOf(place.tags),
      );
    this.stagedRefs += (shape.refs?.length ?? 0) + (shape.nodes?.length ?? 0) + (shape.members?.length ?? 0);
    this.flushIfFull();
  }

  async knownIds(): Promise<Record<OsmType, Float64Array>> {
    const select = this.sqlite.prepare('select osm_id from places where osm_type = ? order by osm_id').pluck();
    const read = (type: OsmType) => Float64Array.from(select.all(type) as number[]);
    return { node: read('node'), way: read('way'), relation: read('relation') };
  }

  /** An OSM object that is in no category: if the index has it from an older import, it goes. */
  drop(osmType: OsmType, osmId: number): void {
    this.droppedIds.push([osmType, osmId]);
    this.flushIfFull();
  }

  /** Moves everything staged into the index, all or nothing. */
  async commit(addresses: AddressUpdate[] = []): Promise<WriteResult & Written & { addresses: AddressSummary | null }> {
    if (this.finished) throw new Error('PlaceWriter: already finished');
    try {
      this.flush();
      refreshCategoryMasks(this.sqlite);
      const db = this.sqlite;
      const keys = (table: string) => `(select osm_type, osm_id from ${table})`;
      // The staged places' addresses are derived on the address thread while this one writes the
      // context and the shapes, when the one input's context will be all the index holds (a first
      // import, or a source imported again on its own); else by the plan, here.
      const [only] = addresses;
      const thread =
        this.addressThread !== null &&
        addresses.length === 1 &&
        only.within === 'all' &&
        only.replaceSource === true &&
        only.source !== null &&
        only.remove.length === 0 &&
        only.nodes === undefined &&
        only.featuresFile !== undefined
          ? this.addressThread
          : null;
      thread?.derive(only.featuresFile!);
      db.pragma(`main.cache_size = ${-IMPORT_CACHE_KIB.main}`);
      const result = db
        .transaction((): WriteResult & { addresses: AddressSummary | null } => {
          // A re-imported source loses what the new file no longer has: those places go as dropped ones.
          // (A writer given no source puts its places in 'import' and removes nothing.)
          if (this.sources.length === 0) sourceId(db, 'import');
          for (const name of new Set(this.sources.map((source) => source.name))) {
            const id = sourceId(db, name);
            db.prepare(
              `insert or ignore into ${this.dropped} select osm_type, osm_id from places where source_id = ? and osm_type != 'own'`,
            ).run(id);
          }
          for (const state of this.sources) {
            db.prepare(
              `update place_sources set kind = 'osm', replication_url = ?, sequence = ?, data_timestamp = ?,
               imported_at = ?, updated_at = null where name = ?`,
            ).run(state.replicationUrl, state.sequence, state.dataTimestamp, this.fetchedAt, state.name);
          }
          if (this.sources.length === 0)
            db.prepare(`update place_sources set imported_at = ? where name = 'import'`).run(this.fetchedAt);

          const staged = db.prepare(`select count(*) from ${this.staging}`).pluck().get() as number;
          const replaced = db
            .prepare(`select count(*) from places where (osm_type, osm_id) in ${keys(this.staging)}`)
            .pluck()
            .get() as number;

          // Objects now in no category leave the index (their tags go with them).
          const gone = `select id from places where (osm_type, osm_id) in ${keys(this.dropped)}
            and (osm_type, osm_id) not in ${keys(this.staging)}`;
          const removed = db.prepare(`delete from places where id in (${gone})`).run().changes;

          db.prepare(
            `insert or replace into node_locations (id, lat, lon) select id, lat, lon from ${this.shapes}_nodes order by id, rowid`,
          ).run();
          db.prepare(
            `insert or replace into way_nodes (id, refs) select id, refs from ${this.shapes}_ways order by id, rowid`,
          ).run();
          db.prepare(
            `insert or replace into way_nodes (id, refs) select osm_id, refs from ${this.staging}
             where osm_type = 'way' and refs is not null`,
          ).run();
          db.prepare(
            `insert or replace into relation_members (id, members) select osm_id, members from ${this.staging}
             where osm_type = 'relation' and members is not null`,
          ).run();

          // The context first, and the staged places' addresses from it, so that each place is
          // written into the index once, with its address.
          let derived: AddressSummary | null = null;
          const stagedSet = stagedPlaces(this.staging, 'rowid', `${this.staging}_addresses`);
          let contextAlone = false;
          if (thread) {
            // the source's old context goes (as the plan's first step): what is left is another source's
            db.prepare('delete from address_context where source = ?').run(only.source);
            contextAlone = db.prepare('select 1 from address_context limit 1').get() === undefined;
          }
          if (thread && contextAlone) {
            runPlanOn(db, addressPlans([{ ...only, places: null }]));
            const rows = thread.result();
            // its memory goes before the places are written
            void thread.close();
            this.addressThread = null;
            if (rows) {
              const insert = db.prepare(
                `insert into ${this.staging}_addresses (id, address, address_source, address_parts) values (?, ?, ?, ?)`,
              );
              rows.ids.forEach((id, i) =>
                insert.run(id, rows.addresses[i], ADDRESS_SOURCES[rows.sources[i]], rows.parts[i]),
              );
              derived = rows.summary;
            } else derived = runPlanOn(db, derivePlaces(stagedSet, { derived: 0, changed: 0, withAddress: 0 }));
          } else if (addresses.length) {
            derived = runPlanOn(db, addressPlans(addresses.map((update) => ({ ...update, places: stagedSet }))));
          }
          // (a writer given no addresses leaves address_source alone: an index migrated from
          // before it had one is written the same way)
          const addressSource = derived
            ? ['address_source, address_parts, ', 'a.address_source, a.address_parts, ']
            : ['', ''];
          db.prepare(
            `insert into places (${PLACE_COLUMNS}, ${addressSource[0]}source, fetched_at, version, source_id)
           select ${STAGED_COLUMNS}, ${addressSource[1]}'import', ?, s.version,
             (select id from place_sources where name = s.source_name)
           from ${this.staging} s left join ${this.staging}_addresses a on a.id = s.rowid
           where true ${updateOnConflict(true, derived !== null)}`,
          ).run(this.fetchedAt);
          const imported = `from ${this.staging} s join places p on p.osm_type = s.osm_type and p.osm_id = s.osm_id`;
          db.prepare(`insert or replace into place_tags (id, tags) select p.id, s.tags ${imported}`).run();
          // What lets the places follow their nodes later (change files).
          db.prepare(`delete from place_nodes where place_id in (select p.id ${imported})`).run();
          db.prepare(
            `insert or ignore into place_nodes (node_id, place_id) select n.value, p.id ${imported},
             json_each(s.nodes) n where s.nodes is not null`,
          ).run();
          db.prepare('delete from node_locations where id not in (select node_id from place_nodes)').run();
          recordCategoriesVersion(db);
          // The places of the index this import did not bring (other sources) are within reach of its context too.
          // Then every place's address parts are kept (an index migrated without them has them now).
          if (derived) {
            const indexed = db.prepare(`select count(*) from places where osm_type <> 'own'`).pluck().get() as number;
            if (indexed > staged) runPlanOn(db, derivePlaces(placesNotStaged(this.staging), derived));
            runPlanOn(db, keptAddressParts());
          }
          return { added: staged - replaced, replaced, removed, addresses: derived };
        })
        .immediate();
      return { ...result, position: this.committed() };
    } finally {
      this.dispose();
    }
  }

  /** Forgets everything staged; the index is untouched. */
  async abort(): Promise<void> {
    if (!this.finished) this.dispose();
  }

  private dispose(): void {
    this.finished = true;
    void this.addressThread?.close();
    this.addressThread = null;
    this.sqlite.pragma(`main.cache_size = ${this.cacheBefore.main}`);
    this.sqlite.pragma(`temp.cache_size = ${this.cacheBefore.temp}`);
    this.places = [];
    this.droppedIds = [];
    this.shapeRows = [];
    this.sqlite.exec(`drop table if exists ${this.staging}; drop table if exists ${this.staging}_addresses;
      drop table if exists ${this.dropped};
      drop table if exists ${this.shapes}_nodes; drop table if exists ${this.shapes}_ways;`);
  }
}

/** PLACE_COLUMNS of a staged row `s`, its address as derived (`a`). */
const STAGED_COLUMNS = PLACE_COLUMNS.split(',')
  .map((column) => (column.trim() === 'address' ? STAGED_ADDRESS : `s.${column.trim()}`))
  .join(', ');

/**
 * Recomputes every stored category mask when the category table changed since they were
 * computed (the tags are kept for this); places left in no category are removed.
 * Returns the number of places whose mask changed.
 */
export function refreshCategoryMasks(sqlite: SQLite.Database): number {
  const stored = sqlite.prepare(`select value from places_meta where key = 'categories_version'`).pluck().get() as
    string | undefined;
  if (stored === CATEGORIES_VERSION) return 0;
  let changed = 0;
  sqlite
    .transaction(() => {
      const update = sqlite.prepare('update places set categories = ? where id = ?');
      const remove = sqlite.prepare('delete from places where id = ?');
      // In batches: all the tags of a large index would not fit in memory at once.
      const batch = sqlite.prepare(
        `select p.id, p.osm_type, p.categories, t.tags from places p join place_tags t on t.id = p.id
         where p.id > ? order by p.id limit 5000`,
      );
      for (let after = 0; ;) {
        const rows = batch.all(after) as { id: number; osm_type: string; categories: number; tags: string }[];
        if (rows.length === 0) break;
        after = rows[rows.length - 1].id;
        for (const row of rows) {
          const mask = storedMask(row.osm_type, JSON.parse(row.tags));
          if (mask === row.categories) continue;
          changed++;
          if (mask === 0) remove.run(row.id);
          else update.run(mask, row.id);
        }
      }
      recordCategoriesVersion(sqlite);
    })
    .immediate();
  return changed;
}
