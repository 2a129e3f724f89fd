// The places index: one interface, an SQLite and a PostgreSQL implementation. Search, the
// importers, the live source and the procedures talk to this and never know which is underneath.
// Both search the same way, from memory (local-reads.ts); they differ in where writes go and how
// a process's copy follows them.
import type { Dialect } from '../../../db/index.js';
import type { Member, OsmType } from '../import/types.js';
import type { PlaceRecord } from '../osm.js';
import type { PlaceCard } from './cards.js';

/** A place as the index holds it: the record (less its raw tags, kept apart) and where it came from. */
export interface StoredPlace extends Omit<PlaceRecord, 'tags' | 'osmType'> {
  id: number;
  /** 'own': the admin's own place (osmId is then its own stable id) */
  osmType: PlaceType;
  source: 'import' | 'overpass' | 'own';
  fetchedAt: number;
}

export type PlaceType = OsmType | 'own';

/** Where places come from: an OSM import (one per feed or file), the live fallback, the admin. */
export type SourceKind = 'osm' | 'live' | 'own';

/** What an import says about its source: a re-import of the same name replaces it. */
export interface SourceState {
  name: string;
  replicationUrl: string | null;
  sequence: number | null;
  /** ISO 8601: the data's "as of" */
  dataTimestamp: string | null;
}

export interface SourceSummary extends SourceState {
  id: number;
  kind: SourceKind;
  /** epoch ms */
  importedAt: number | null;
  updatedAt: number | null;
  places: number;
  /** category id -> places (a place counts in each of its categories) */
  perCategory: Record<string, number>;
}

/** The admin's own place, as entered (validated by own-places.ts). `id` absent: a new one. */
export interface OwnPlace {
  id?: number;
  name: string;
  /** a category id of categories.ts */
  category: string;
  lat: number;
  lon: number;
  address?: string | null;
  phone?: string | null;
  website?: string | null;
  openingHours?: string | null;
}

/** What the index keeps of a way or relation so that it can follow its nodes. */
export interface PlaceShape {
  /** the OSM version, when the input says */
  version?: number | null;
  /** a way's node ids */
  refs?: number[];
  /** a relation's members */
  members?: Member[];
  /** every node whose position feeds the place's (a way's refs; a relation's nodes and ways' nodes) */
  nodes?: number[];
}

export interface Nearby {
  /** what an answer shows of the place (cards.ts) */
  place: PlaceCard;
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
  /**
   * The places added from now on belong to this source. On commit, a source named here loses
   * its places that were not added again (a clean re-import) and takes the given state.
   */
  source(state: SourceState): void;
  add(place: PlaceRecord, shape?: PlaceShape): void;
  /** the location of a node that a place way or relation uses */
  nodeLocation(id: number, lat: number, lon: number): void;
  /** the node list of a way that a place relation uses (place ways come with add) */
  wayNodes(id: number, refs: number[]): void;
  /**
   * The OSM ids, sorted, of each type's places the index has when the import starts: the only
   * objects a drop can remove (a first import has none, and stages no drops).
   */
  knownIds(): Promise<Record<OsmType, Float64Array>>;
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
  nearest(lat: number, lon: number, radiusKm: number, mask: number, limit: number, accept?: (place: PlaceCard) => boolean): Promise<Nearby[]>;
  /**
   * Like nearest(), for places whose names (any language) contain every word of `terms` as a word
   * prefix, case and accents aside (`terms` from name-query.ts nameTerms). Read from a name index.
   */
  nearestByName(lat: number, lon: number, radiusKm: number, mask: number, terms: string[], limit: number, accept?: (place: PlaceCard) => boolean): Promise<Nearby[]>;
  getByOsmId(osmType: PlaceType, osmId: number): Promise<StoredPlace | null>;
  count(): Promise<number>;
  /**
   * Recomputes stored category masks when the category table changed since they were computed
   * (from the kept tags); places left in no category are removed. Returns how many changed.
   */
  refreshCategoryMasks(): Promise<number>;
  /** Reads into memory what searches use (the grid; on PostgreSQL the cards too); a server calls it at start. */
  load(): Promise<void>;
  importWriter(fetchedAt: number): ImportWriter;
  /**
   * Upserts live-source places and records the area they answer, in one transaction; areas
   * fetched before `expireBefore` are forgotten.
   */
  writeLive(places: PlaceRecord[], area: LiveArea, fetchedAt: number, expireBefore: number): Promise<WriteResult>;
  listSources(): Promise<SourceSummary[]>;
  getSource(name: string): Promise<SourceSummary | null>;
  /** Removes a source and its places at once; 'live' and 'own' cannot be removed. Returns its places. */
  removeSource(name: string): Promise<number>;
  /** Adds, edits and removes own places in one transaction; returns the stored upserts. */
  writeOwn(changes: { upsert: OwnPlace[]; remove: number[] }, fetchedAt: number): Promise<StoredPlace[]>;
  listOwn(): Promise<StoredPlace[]>;
  /**
   * Applies a change file in one transaction: `plan` is called with what is known of the stored
   * state, asks for what else it needs, and is called again until it returns its writes, which
   * are stored together with the source's new state.
   */
  applyChanges(plan: ChangePlan): Promise<ChangeWrites>;
  /**
   * Whether a live fetch at or after `since` covered this circle for every category of `mask`;
   * when it did, the next search reads that fetch's places (whichever process or node made it).
   */
  liveCovered(lat: number, lon: number, radiusM: number, mask: number, since: number): Promise<boolean>;
}

/** A change plan: the writes, or what it still needs to know. */
export type ChangePlan = (known: ChangeKnown) => { need: ChangeNeed } | { writes: ChangeWrites };

/** Ids whose stored state a plan needs. */
export interface ChangeNeed {
  /** OSM keys "type/id" */
  places: string[];
  placeIds: number[];
  nodes: number[];
  ways: number[];
  relations: number[];
  /** node ids whose dependent places are needed */
  users: number[];
}

/** What the index answered so far (null: not stored). */
export interface ChangeKnown {
  places: Map<string, StoredChangePlace | null>;
  placeIds: Map<number, StoredChangePlace | null>;
  nodes: Map<number, [number, number] | null>;
  ways: Map<number, number[] | null>;
  relations: Map<number, Member[] | null>;
  users: Map<number, number[]>;
}

export interface StoredChangePlace {
  id: number;
  osmType: OsmType;
  osmId: number;
  version: number | null;
  lat: number;
  lon: number;
  categories: number;
}

/** What applying a change file writes, all in one transaction. */
export interface ChangeWrites {
  source: { name: string; sequence: number | null; dataTimestamp: string | null; replicationUrl: string | null; updatedAt: number };
  /** new or changed places (by OSM key), with their shape; `nodes` replaces their node list when given */
  upserts: { place: PlaceRecord; shape: PlaceShape }[];
  /** places whose position changed only because their nodes moved */
  moves: { id: number; lat: number; lon: number }[];
  removals: number[];
  nodeLocations: [number, number, number][];
  deletedNodes: number[];
  wayNodes: [number, number[]][];
  relationMembers: [number, Member[]][];
  fetchedAt: number;
}
