// The places index on SQLite: R*Trees prefilter a bounding box, then exact great-circle
// distances decide what is within the radius, nearest first.
//
// Two kinds of tree (db/migrations/0002_places.ts): places_rtree holds every place with its
// category mask, and places_rtree_<category> holds the places of one category. A search for a
// few specific categories reads their own trees; one over broad categories reads the big tree
// and checks masks. Either way it starts with a small circle and widens it only until it has
// `limit` places, so a dense city costs about as much as a sparse one.
import type SQLite from 'better-sqlite3';
import { CATEGORIES_VERSION, hasBit } from '../categories.js';
import { CATEGORY_IDS } from '../category-ids.js';
import { boxesAround, distanceKm, intersects } from '../geo.js';
import type { PlaceRecord, Wheelchair } from '../osm.js';
import { SqliteImportWriter, writePlaces } from './sqlite-writer.js';
import * as sources from './sqlite-sources.js';
import { boxAround, ftsMatch, rankByDistance } from './name-query.js';
import { searchPlan, storedMask } from './columns.js';
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

type PlaceRow = [number, PlaceType, number, number, number, number, string | null, string | null, string | null, string | null, string | null, string | null, Wheelchair | null, string | null, string | null, StoredPlace['source'], number];

const PLACE_COLUMNS = `id, osm_type, osm_id, lat, lon, categories, name, names, address, phone, website,
  opening_hours, wheelchair, country, timezone, source, fetched_at`;

function fromRow(row: PlaceRow): StoredPlace {
  const [id, osmType, osmId, lat, lon, categories, name, names, address, phone, website, openingHours, wheelchair, country, timezone, source, fetchedAt] = row;
  return {
    id, osmType, osmId, lat, lon, categories, name,
    names: names ? (JSON.parse(names) as Record<string, string>) : null,
    address, phone, website, openingHours, wheelchair, country, timezone, source, fetchedAt,
  };
}

/**
 * The R*Trees keep coordinates as 32-bit floats, within a metre of the truth: candidates are
 * ranked by the box's centre, then the ones that may be in the answer are measured exactly.
 */
const APPROXIMATION_KM = 0.005;

/** Statements are prepared on first use: the tables may not exist yet at start-up. */
export class SqlitePlaceIndex implements PlaceIndex {
  readonly dialect = 'sqlite';
  private statements: ReturnType<SqlitePlaceIndex['prepare']> | null = null;
  /** false: searches scan the whole table instead (only for the benchmark's comparison) */
  useIndex = true;

  constructor(readonly sqlite: SQLite.Database) {}

  private prepare() {
    const db = this.sqlite;
    const box = 'max_lat >= ? and min_lat <= ? and max_lon >= ? and min_lon <= ?';
    return {
      all: db.prepare(`select id, min_lat, min_lon, categories from places_rtree where ${box}`).raw(),
      own: CATEGORY_IDS.map((_, i) => db.prepare(`select id, min_lat, min_lon from ${categoryTree(i)} where ${box}`).raw()),
      // The same question without any index: every row is read.
      scan: db.prepare(`select id, lat, lon, categories from places where lat between ? and ? and lon between ? and ?`).raw(),
      rows: db.prepare(`select ${PLACE_COLUMNS} from places where id in (select value from json_each(?))`).raw(),
      byOsmId: db.prepare(`select ${PLACE_COLUMNS} from places where osm_type = ? and osm_id = ?`).raw(),
      count: db.prepare('select count(*) from places').pluck(),
      // The name index's matches inside the box (the R*Tree by id: a rowid lookup each).
      byName: db.prepare(
        `select ${PLACE_COLUMNS.split(',').map((c) => `p.${c.trim()}`).join(', ')} from places_names f join places_rtree r on r.id = f.rowid join places p on p.id = f.rowid
         where places_names match ? and r.max_lat >= ? and r.min_lat <= ? and r.max_lon >= ? and r.min_lon <= ?`,
      ).raw(),
    };
  }

  private get sql() {
    return (this.statements ??= this.prepare());
  }

  /** Which trees a search of these categories reads: their own few, or the big one and masks. */
  private plan(mask: number): { statements: SQLite.Statement[]; checkMask: boolean } {
    if (!this.useIndex) return { statements: [this.sql.scan], checkMask: true };
    const { own, broad } = searchPlan(mask);
    if (broad) return { statements: [this.sql.all], checkMask: true };
    return { statements: own.map((i) => this.sql.own[i]), checkMask: false };
  }

  /** Places within `radiusKm` by approximate distance (plus the approximation), unsorted. */
  private candidates(lat: number, lon: number, radiusKm: number, mask: number, plan: ReturnType<SqlitePlaceIndex['plan']>): Map<number, number> {
    const found = new Map<number, number>();
    for (const b of boxesAround(lat, lon, radiusKm)) {
      for (const statement of plan.statements) {
        for (const row of statement.all(b.south, b.north, b.west, b.east) as number[][]) {
          // A point's box is one float32 step wide: its corner is within a metre of the point.
          if (plan.checkMask && !intersects(row[3], mask)) continue;
          const id = row[0];
          if (found.has(id)) continue;
          const distance = distanceKm(lat, lon, row[1], row[2]);
          if (distance <= radiusKm + APPROXIMATION_KM) found.set(id, distance);
        }
      }
    }
    return found;
  }

  private fetch(ids: number[], into: Map<number, StoredPlace>): void {
    const missing = ids.filter((id) => !into.has(id));
    if (missing.length === 0) return;
    for (const row of this.sql.rows.all(JSON.stringify(missing)) as PlaceRow[]) into.set(row[0], fromRow(row));
  }

  async nearest(lat: number, lon: number, radiusKm: number, mask: number, limit: number, accept?: (place: StoredPlace) => boolean): Promise<Nearby[]> {
    return this.nearestNow(lat, lon, radiusKm, mask, limit, accept);
  }

  /** nearest(), synchronously: `accept` sees the places nearest first. */
  nearestNow(lat: number, lon: number, radiusKm: number, mask: number, limit: number, accept: (place: StoredPlace) => boolean = () => true): Nearby[] {
    const rows = new Map<number, StoredPlace>();
    const verdicts = new Map<number, boolean>();
    const plan = this.plan(mask);
    // A small circle first; widened until it holds `limit` accepted places, or is the radius.
    let ring = this.useIndex ? Math.min(radiusKm, Math.max(radiusKm / 16, 0.25)) : radiusKm;
    for (;;) {
      const approx = [...this.candidates(lat, lon, ring, mask, plan)].sort((a, b) => a[1] - b[1]);
      const accepted: Nearby[] = [];
      let cutoff = Infinity;
      for (let next = 0; next < approx.length; ) {
        // Fetch in batches, nearest first; once `limit` are in, only what may still beat the
        // last of them (the approximation works both ways).
        const batch: number[] = [];
        const size = Math.max(limit - accepted.length, 0) + 8;
        while (batch.length < size && next < approx.length && approx[next][1] <= cutoff + 2 * APPROXIMATION_KM) batch.push(approx[next++][0]);
        if (batch.length === 0) break;
        this.fetch(batch, rows);
        for (const id of batch) {
          const place = rows.get(id);
          if (!place) continue; // deleted since the tree was read
          const distance = distanceKm(lat, lon, place.lat, place.lon);
          if (distance > ring) continue;
          let verdict = verdicts.get(id);
          if (verdict === undefined) verdicts.set(id, (verdict = accept(place)));
          if (verdict) accepted.push({ place, distanceKm: distance });
        }
        if (accepted.length >= limit) {
          accepted.sort((a, b) => a.distanceKm - b.distanceKm || a.place.id - b.place.id);
          cutoff = accepted[limit - 1].distanceKm;
        }
      }
      accepted.sort((a, b) => a.distanceKm - b.distanceKm || a.place.id - b.place.id);
      // Everything within `ring` was looked at: its nearest `limit` are the nearest of all.
      if (accepted.length >= limit || ring >= radiusKm) return accepted.slice(0, limit);
      // Widen to where `limit` places may be, judging by the density so far.
      const guess = ring * Math.sqrt(limit / Math.max(accepted.length, 1)) * 1.25;
      ring = Math.min(radiusKm, Math.max(ring * 2, accepted.length === 0 ? ring * 4 : guess));
    }
  }

  async nearestByName(lat: number, lon: number, radiusKm: number, mask: number, terms: string[], limit: number, accept?: (place: StoredPlace) => boolean): Promise<Nearby[]> {
    if (terms.length === 0) return [];
    const box = boxAround(lat, lon, radiusKm);
    const rows = this.sql.byName.all(ftsMatch(terms), box.minLat, box.maxLat, box.minLon, box.maxLon) as PlaceRow[];
    return rankByDistance(rows.map(fromRow), lat, lon, radiusKm, mask, limit, accept);
  }

  async getByOsmId(osmType: PlaceType, osmId: number): Promise<StoredPlace | null> {
    const row = this.sql.byOsmId.get(osmType, osmId) as PlaceRow | undefined;
    return row ? fromRow(row) : null;
  }

  async count(): Promise<number> {
    return this.sql.count.get() as number;
  }

  async refreshCategoryMasks(): Promise<number> {
    return refreshCategoryMasks(this.sqlite);
  }

  importWriter(fetchedAt: number): ImportWriter {
    return new SqliteImportWriter(this.sqlite, fetchedAt);
  }

  async writeLive(places: PlaceRecord[], area: LiveArea, fetchedAt: number, expireBefore: number): Promise<WriteResult> {
    const db = this.sqlite;
    return db.transaction(() => {
      const result = writePlaces(db, places, fetchedAt);
      db.prepare('delete from overpass_fetches where fetched_at < ?').run(expireBefore);
      db.prepare('insert into overpass_fetches (lat, lon, radius_m, categories, fetched_at) values (?, ?, ?, ?, ?)').run(area.lat, area.lon, area.radiusM, area.categories, fetchedAt);
      return result;
    }).immediate();
  }

  async listSources(): Promise<SourceSummary[]> {
    return sources.listSources(this.sqlite);
  }

  async getSource(name: string): Promise<SourceSummary | null> {
    return sources.listSources(this.sqlite, name)[0] ?? null;
  }

  async removeSource(name: string): Promise<number> {
    const removed = sources.removeSource(this.sqlite, name);
    if (removed === -1) throw new RangeError(`no source named "${name}"`);
    if (removed === -2) throw new RangeError(`"${name}" cannot be removed: it holds the live fallback's or the admin's own places`);
    return removed;
  }

  async writeOwn(changes: { upsert: OwnPlace[]; remove: number[] }, fetchedAt: number): Promise<StoredPlace[]> {
    const ids = sources.writeOwn(this.sqlite, changes, fetchedAt);
    const rows = new Map<number, StoredPlace>();
    this.fetch(ids, rows);
    return ids.map((id) => rows.get(id)!);
  }

  async listOwn(): Promise<StoredPlace[]> {
    return (this.sqlite.prepare(`select ${PLACE_COLUMNS} from places where osm_type = 'own' order by osm_id`).raw().all() as PlaceRow[]).map(fromRow);
  }

  async applyChanges(plan: ChangePlan): Promise<ChangeWrites> {
    refreshCategoryMasks(this.sqlite);
    return sources.applyChanges(this.sqlite, plan);
  }

  async liveCovered(lat: number, lon: number, radiusM: number, mask: number, since: number): Promise<boolean> {
    const fetches = this.sqlite
      .prepare('select lat, lon, radius_m, categories from overpass_fetches where fetched_at >= ? and (categories & ?) = ?')
      .all(since, mask, mask) as { lat: number; lon: number; radius_m: number; categories: number }[];
    return fetches.some((f) => distanceKm(lat, lon, f.lat, f.lon) * 1000 + radiusM <= f.radius_m + 1);
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
