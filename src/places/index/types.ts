// The places index: one interface, an SQLite (R*Tree) and a PostGIS implementation. Search, the
// importers, the live source and the procedures talk to this and never know which is underneath.
import type { Dialect } from '../../../db/index.js';
import type { OsmType } from '../import/types.js';
import type { PlaceRecord } from '../osm.js';

/** A place as the index holds it: the record (less its raw tags, kept apart) and where it came from. */
export interface StoredPlace extends Omit<PlaceRecord, 'tags'> {
  id: number;
  source: 'import' | 'overpass';
  fetchedAt: number;
}

export interface Nearby {
  place: StoredPlace;
  /** exact great-circle distance (geo.ts distanceKm) */
  distanceKm: number;
}

export interface WriteResult {
  /** places new to the index */
  added: number;
  /** places that replaced the same OSM object */
  replaced: number;
  /** places removed because their OSM object is now in no category */
  removed: number;
}

/** A circle asked from the live source, remembered for a day. */
export interface LiveArea {
  lat: number;
  lon: number;
  radiusM: number;
  /** the category mask asked for */
  categories: number;
}

/**
 * One import's writer. `add` and `drop` are called while the inputs are read (synchronously,
 * buffering on disk or in a staging table); `commit` applies everything in one transaction, so
 * searches see the old index or the new one, never a mix; `abort` forgets it all.
 */
export interface ImportWriter {
  add(place: PlaceRecord): void;
  /** an OSM object in no category: if the index has it from before, it goes */
  drop(osmType: OsmType, osmId: number): void;
  commit(): Promise<WriteResult>;
  abort(): Promise<void>;
}

export interface PlaceIndex {
  readonly dialect: Dialect;
  /**
   * The `limit` places nearest to a point, in any category of `mask`, within `radiusKm` (by
   * distanceKm, inclusive), that `accept` takes; sorted by exact distance, then id.
   */
  nearest(lat: number, lon: number, radiusKm: number, mask: number, limit: number, accept?: (place: StoredPlace) => boolean): Promise<Nearby[]>;
  /**
   * Like nearest(), for places whose names (any language) contain every word of `terms` as a word
   * prefix, case and accents aside (`terms` from name-query.ts nameTerms). Read from a name index.
   */
  nearestByName(lat: number, lon: number, radiusKm: number, mask: number, terms: string[], limit: number, accept?: (place: StoredPlace) => boolean): Promise<Nearby[]>;
  getByOsmId(osmType: OsmType, osmId: number): Promise<StoredPlace | null>;
  count(): Promise<number>;
  /**
   * Recomputes stored category masks when the category table changed since they were computed
   * (from the kept tags); places left in no category are removed. Returns how many changed.
   */
  refreshCategoryMasks(): Promise<number>;
  importWriter(fetchedAt: number): ImportWriter;
  /**
   * Upserts live-source places and records the area they answer, in one transaction; areas
   * fetched before `expireBefore` are forgotten.
   */
  writeLive(places: PlaceRecord[], area: LiveArea, fetchedAt: number, expireBefore: number): Promise<WriteResult>;
  /** Whether a live fetch at or after `since` covered this circle for every category of `mask`. */
  liveCovered(lat: number, lon: number, radiusM: number, mask: number, since: number): Promise<boolean>;
}
