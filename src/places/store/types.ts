// The places store: one interface, an SQLite and a PostgreSQL implementation. The importers, the
// live source and the procedures write through it and never know which is underneath. Both give
// the searches the same reads (search/local-reads.ts) through a ChangeFeed; they differ in where
// writes go and how a process's copy follows them.
import type { Dialect } from '../../../db/index.js';
import type { Member, OsmType } from '../model/osm.js';
import type { PlaceRecord, PlaceType, StoredPlace } from '../model/osm.js';
import type { ChangeFeed, ChangePosition } from '../search/change-feed.js';

export type { PlaceType, StoredPlace } from '../model/osm.js';
import type { AddressParts, AddressSummary, AddressUpdate } from './addresses.js';

export type { Nearby } from '../search/local-reads.js';

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

/**
 * What every write returns beside its own result: where it left the change log. The reads of this
 * process hold the write when it returns; `feed.caughtUp(position)` waits until those of another
 * process (or store on the same database) do.
 */
export interface Written {
  position: ChangePosition;
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
  /**
   * The commit will be given the inputs' address context with every place to derive (an import
   * of files): the writer may start on the addresses while it stages.
   */
  derivingAddresses(): void;
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
  /**
   * Moves the staged places into the index and, in the same transaction, runs the address
   * updates (the inputs' context, every place derived again): no crash leaves the new places
   * without their addresses.
   */
  commit(addresses?: AddressUpdate[]): Promise<WriteResult & Written & { addresses: AddressSummary | null }>;
  abort(): Promise<void>;
}

/**
 * Where places are written and kept: imports, change files, the live source, the own places and
 * the sources' admin. Searches do not read it: they read `feed`, the reads it keeps current
 * (every write here is in them before the write returns).
 */
export interface PlaceStore {
  readonly dialect: Dialect;
  /** the grid, cards and names that searches read, following this store's writes */
  readonly feed: ChangeFeed;
  getByOsmId(osmType: PlaceType, osmId: number): Promise<StoredPlace | null>;
  count(): Promise<number>;
  /**
   * Recomputes stored category masks when the category table changed since they were computed
   * (from the kept tags); places left in no category are removed. Returns how many changed.
   */
  refreshCategoryMasks(): Promise<{ changed: number } & Written>;
  importWriter(fetchedAt: number): ImportWriter;
  /**
   * Upserts live-source places and records the area they answer, in one transaction; areas
   * fetched before `expireBefore` are forgotten.
   */
  writeLive(
    places: PlaceRecord[],
    area: LiveArea,
    fetchedAt: number,
    expireBefore: number,
  ): Promise<WriteResult & Written>;
  listSources(): Promise<SourceSummary[]>;
  getSource(name: string): Promise<SourceSummary | null>;
  /**
   * Removes a source and its places at once; returns how many places went. NotFound: no such source;
   * NotRemovable: 'live' and 'own' cannot be removed.
   */
  removeSource(name: string): Promise<{ removed: number } & Written>;
  /** Adds, edits and removes own places in one transaction; returns the stored upserts. */
  writeOwn(
    changes: { upsert: OwnPlace[]; remove: number[] },
    fetchedAt: number,
  ): Promise<{ places: StoredPlace[] } & Written>;
  listOwn(): Promise<StoredPlace[]>;
  /**
   * Applies a change file in one transaction: `plan` is called with what is known of the stored
   * state, asks for what else it needs, and is called again until it returns its writes, which
   * are stored together with the source's new state.
   */
  applyChanges(plan: ChangePlan, addresses?: (writes: ChangeWrites) => AddressUpdate): Promise<AppliedChanges>;
  /**
   * Whether a live fetch at or after `since` covered this circle for every category of `mask`;
   * when it did, the next search reads that fetch's places (whichever process or node made it).
   */
  liveCovered(lat: number, lon: number, radiusM: number, mask: number, since: number): Promise<boolean>;
  /**
   * Writes address context (addresses.ts) and derives again the addresses of the places it
   * can reach (every place, or those within the update's boxes), in one transaction.
   */
  updateAddresses(update: AddressUpdate): Promise<AddressSummary & Written>;
  /**
   * A place (null if there is none) with its address in parts (its own, else derived as its
   * stored text was; null if it has none): what a place page shows, read together.
   */
  placeWithAddressParts(
    osmType: PlaceType,
    osmId: number,
  ): Promise<{ place: StoredPlace; parts: AddressParts | null } | null>;
  /**
   * Derives every place's address again if the index was imported before address parts were kept
   * with the places (migration 0017), once, whichever process or node comes first; null when
   * nothing was pending.
   */
  derivePendingAddressParts(): Promise<AddressSummary | null>;
}

/**
 * A change file's writes and, when asked for, what re-deriving the addresses around them did: in
 * the same transaction, so that no crash leaves the changed places without their addresses.
 */
export interface AppliedChanges extends ChangeWrites, Written {
  addresses: AddressSummary | null;
}

/** No source of that name. */
export class NotFound extends RangeError {
  constructor(what: string) {
    super(`no source named "${what}"`);
    this.name = 'NotFound';
  }
}

/** A source that holds the live fallback's or the admin's own places. */
export class NotRemovable extends RangeError {
  constructor(what: string) {
    super(`"${what}" cannot be removed: it holds the live fallback's or the admin's own places`);
    this.name = 'NotRemovable';
  }
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
  source: {
    name: string;
    sequence: number | null;
    dataTimestamp: string | null;
    replicationUrl: string | null;
    updatedAt: number;
  };
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
