// The SQLite index's writers: the one every import reader feeds, and the live source's upsert.
//
// Imports stage places in a temporary table (SQLite's temp schema, which does not lock the
// database), then move them into the index in one short transaction: an input that fails half
// way leaves the index exactly as it was, and the server keeps answering while a large file is
// read. Live (Overpass) results are few and already in memory: writePlaces() upserts them
// directly. Both only use better-sqlite3's synchronous transactions, so no transaction is ever
// left open across an `await` on a connection the server shares.
import type SQLite from 'better-sqlite3';
import { categoryBit, CATEGORIES_VERSION } from '../categories.js';
import { CATEGORY_IDS } from '../category-ids.js';
import type { OsmType } from '../import/types.js';
import type { PlaceRecord } from '../osm.js';
import { categoryTree, indexPlace, refreshCategoryMasks } from './sqlite.js';
import { PLACE_COLUMNS, placeRow, UPDATE_ON_CONFLICT } from './columns.js';
import type { ImportWriter, WriteResult } from './types.js';

function recordCategoriesVersion(sqlite: SQLite.Database): void {
  sqlite
    .prepare(`insert into places_meta (key, value) values ('categories_version', ?) on conflict(key) do update set value = excluded.value`)
    .run(CATEGORIES_VERSION);
}

/** Upserts places (by OSM type and id), their tags and their places in the trees, in one transaction. */
export function writePlaces(sqlite: SQLite.Database, places: PlaceRecord[], source: 'import' | 'overpass', fetchedAt: number): WriteResult {
  refreshCategoryMasks(sqlite);
  const existing = sqlite.prepare('select id, categories from places where osm_type = ? and osm_id = ?');
  const upsert = sqlite.prepare(`insert into places (${PLACE_COLUMNS}, source, fetched_at) values (${'?, '.repeat(14)}?, ?) ${UPDATE_ON_CONFLICT} returning id`).pluck();
  const tags = sqlite.prepare('insert or replace into place_tags (id, tags) values (?, ?)');
  return sqlite.transaction((): WriteResult => {
    const seen = new Set<string>();
    let replaced = 0;
    for (const place of places) {
      const key = `${place.osmType}/${place.osmId}`;
      const before = existing.get(place.osmType, place.osmId) as { id: number; categories: number } | undefined;
      if (!seen.has(key)) {
        seen.add(key);
        if (before) replaced++;
      }
      const id = upsert.get(...placeRow(place), source, fetchedAt) as number;
      tags.run(id, JSON.stringify(place.tags));
      indexPlace(sqlite, id, place.lat, place.lon, before?.categories ?? null, place.categories);
    }
    recordCategoriesVersion(sqlite);
    return { added: seen.size - replaced, replaced, removed: 0 };
  }).immediate();
}

const STAGING_BATCH = 5000;
let writers = 0;

/** Stages an import's places, then commits them all at once (or nothing, on abort). */
export class SqliteImportWriter implements ImportWriter {
  private readonly staging: string;
  private readonly dropped: string;
  private readonly insertStaged: SQLite.Statement;
  private readonly insertDropped: SQLite.Statement;
  private readonly stageBatch: SQLite.Transaction<(places: unknown[][], dropped: [OsmType, number][]) => void>;
  private places: unknown[][] = [];
  private droppedIds: [OsmType, number][] = [];
  private finished = false;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly fetchedAt: number,
  ) {
    const n = ++writers;
    this.staging = `temp.place_staging_${n}`;
    this.dropped = `temp.place_dropped_${n}`;
    sqlite.exec(`
      create table ${this.staging} (
        osm_type text not null, osm_id integer not null, lat real not null, lon real not null,
        categories integer not null, name text, names text, address text, phone text, website text,
        opening_hours text, wheelchair text, country text, timezone text, tags text not null,
        primary key (osm_type, osm_id)
      );
      create table ${this.dropped} (osm_type text not null, osm_id integer not null, primary key (osm_type, osm_id));
    `);
    // A later copy of the same object in the input wins.
    this.insertStaged = sqlite.prepare(`insert or replace into ${this.staging} values (${'?, '.repeat(14)}?)`);
    this.insertDropped = sqlite.prepare(`insert or ignore into ${this.dropped} values (?, ?)`);
    this.stageBatch = sqlite.transaction((places: unknown[][], dropped: [OsmType, number][]) => {
      for (const row of places) this.insertStaged.run(row);
      for (const key of dropped) this.insertDropped.run(key);
    });
  }

  private flushIfFull(): void {
    if (this.places.length + this.droppedIds.length >= STAGING_BATCH) this.flush();
  }

  private flush(): void {
    this.stageBatch(this.places, this.droppedIds);
    this.places = [];
    this.droppedIds = [];
  }

  add(place: PlaceRecord): void {
    this.places.push([...placeRow(place), JSON.stringify(place.tags)]);
    this.flushIfFull();
  }

  /** An OSM object that is in no category: if the index has it from an older import, it goes. */
  drop(osmType: OsmType, osmId: number): void {
    this.droppedIds.push([osmType, osmId]);
    this.flushIfFull();
  }

  /** Moves everything staged into the index, all or nothing. */
  async commit(): Promise<WriteResult> {
    if (this.finished) throw new Error('PlaceWriter: already finished');
    try {
      this.flush();
      refreshCategoryMasks(this.sqlite);
      const db = this.sqlite;
      const keys = (table: string) => `(select osm_type, osm_id from ${table})`;
      return db.transaction((): WriteResult => {
        const staged = db.prepare(`select count(*) from ${this.staging}`).pluck().get() as number;
        const replaced = db.prepare(`select count(*) from places where (osm_type, osm_id) in ${keys(this.staging)}`).pluck().get() as number;

        // Objects now in no category: out of the trees and the index (their tags go with them).
        const gone = `select id from places where (osm_type, osm_id) in ${keys(this.dropped)} and (osm_type, osm_id) not in ${keys(this.staging)}`;
        CATEGORY_IDS.forEach((category, i) => {
          db.prepare(`delete from ${categoryTree(i)} where id in (${gone} and (categories & ?) != 0)`).run(categoryBit(category));
        });
        db.prepare(`delete from places_rtree where id in (${gone})`).run();
        const removed = db.prepare(`delete from places where id in (${gone})`).run().changes;

        // Objects imported again leave the trees of the categories they had; they are put back below.
        const again = `select p.id from places p join ${this.staging} s on p.osm_type = s.osm_type and p.osm_id = s.osm_id`;
        CATEGORY_IDS.forEach((category, i) => {
          db.prepare(`delete from ${categoryTree(i)} where id in (${again} where (p.categories & ?) != 0)`).run(categoryBit(category));
        });

        db.prepare(`insert into places (${PLACE_COLUMNS}, source, fetched_at) select ${PLACE_COLUMNS}, 'import', ? from ${this.staging} where true ${UPDATE_ON_CONFLICT}`).run(this.fetchedAt);
        const imported = `from ${this.staging} s join places p on p.osm_type = s.osm_type and p.osm_id = s.osm_id`;
        db.prepare(`insert or replace into place_tags (id, tags) select p.id, s.tags ${imported}`).run();
        db.prepare(`insert or replace into places_rtree (id, min_lat, max_lat, min_lon, max_lon, categories) select p.id, p.lat, p.lat, p.lon, p.lon, p.categories ${imported}`).run();
        CATEGORY_IDS.forEach((category, i) => {
          db.prepare(`insert or replace into ${categoryTree(i)} (id, min_lat, max_lat, min_lon, max_lon) select p.id, p.lat, p.lat, p.lon, p.lon ${imported} where (p.categories & ?) != 0`).run(categoryBit(category));
        });
        recordCategoriesVersion(db);
        return { added: staged - replaced, replaced, removed };
      }).immediate();
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
    this.places = [];
    this.droppedIds = [];
    this.sqlite.exec(`drop table if exists ${this.staging}; drop table if exists ${this.dropped};`);
  }
}
