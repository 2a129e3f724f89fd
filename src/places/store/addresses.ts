// The address context in the database (table address_context) and the derived addresses of the
// places around what changed, for both engines: one plan of queries (a generator the engine runs in
// its own transaction, answering each query with its rows), so the logic is written once.
//
// An import writes its context and derives every place; a change file writes what it changed and
// derives the places within reach of it: the old and new boxes of the context it changed, and the
// places it created or moved, widened by the furthest a feature reaches (REACH_M).
import type { Tags } from '../model/categories.js';
import { formatAddress } from '../model/osm.js';
import {
  AddressContext,
  featureBox,
  NEIGHBOURS_REACH_M,
  POSTCODE_REACH_M,
  STREET_REACH_M,
  type ContextFeature,
  type ContextKind,
  type DerivedAddress,
} from '../model/address-context.js';
import { derivedText, hasOwnAddress } from '../model/address-features.js';
import type { OsmType } from '../model/osm.js';

/** How far a feature's change can move an address: the furthest reach of a point, street or neighbour. */
export const REACH_M = Math.max(POSTCODE_REACH_M, STREET_REACH_M, NEIGHBOURS_REACH_M);

/** [minLat, minLon, maxLat, maxLon] */
export type Box = [number, number, number, number];

export interface ContextKey {
  osmType: OsmType;
  osmId: number;
  kind?: ContextKind;
}

export interface AddressUpdate {
  /** the source the features belong to; an import's replaces that source's context */
  source: string | null;
  replaceSource?: boolean;
  /** the features put: a change file's list, or an import's as it kept them (read twice, never held whole) */
  put: Iterable<ContextFeature>;
  remove: ContextKey[];
  /** node positions ([lon, lat]) for ways put with `refs` and no coordinates (a change file's) */
  nodes?: Map<number, [number, number]>;
  /** where places are derived again: boxes, or every place */
  within: Box[] | 'all';
  /**
   * with `within: 'all'`, the places derived (default every place in `places`): an import's staged
   * rows; null: none, the caller derives them (an import's address thread)
   */
  places?: PlaceSet | null;
  /** `put` as a file of JSON lines (an import's gathered context), for a thread to read on its own */
  featuresFile?: string;
}

/**
 * A set of places whose addresses are derived, on either engine: by default the index's own (every
 * place in `places`), or an import's staged rows before they are moved into the index, so that
 * each place is written once, with its address (an update of `places` runs its triggers again).
 */
export interface PlaceSet {
  /** `id, lat, lon` of the places, with `id > ?`, in the order of `id`, at most `limit` of them */
  positions: (limit: number) => string;
  /** `id, lat, lon, address, address_source, address_parts, country, tags` of the places whose `id` is in `ids` (SQL) */
  rows: (ids: string) => string;
  /** sets `address`, `address_source` and `address_parts` of each place in `values` (rows of id, address, source, parts: SQL) */
  update: (values: string) => string;
}

const PLACE_COLUMNS = `select p.id, p.lat, p.lon, p.address, p.address_source, p.address_parts, p.country, t.tags
  from places p left join place_tags t on t.id = p.id where p.osm_type <> 'own'`;

/** Every place of the index (own places have no derived address). */
export const INDEXED_PLACES: PlaceSet = {
  positions: (limit) => `select id, lat, lon from places where osm_type <> 'own' and id > ? order by id limit ${limit}`,
  rows: (ids) => `${PLACE_COLUMNS} and p.id in (${ids})`,
  // `+v.column1`: SQLite would otherwise index the VALUES list and scan every place for each batch
  // (the unary plus leaves it the list to scan and the places' key to search)
  update: (values) =>
    `update places set address = v.column2, address_source = v.column3, address_parts = v.column4 from (values ${values}) as v
     where places.id = +v.column1`,
};

/** A staged place's address (staged row `s`, derived address `a`): as derived, else its own. */
export const STAGED_ADDRESS = 'case when a.id is null then s.address else a.address end';

/**
 * An import's staged places, before they are moved into the index: the rows of `table`, keyed by
 * its column `id`, with the addresses derived that differ from their own written into
 * `addresses` (id, address, address_source, address_parts): a narrow table, rather than a rewrite of each wide
 * staged row. Each place is derived once, so an address is written once.
 */
export function stagedPlaces(table: string, id: string, addresses: string): PlaceSet {
  return {
    positions: (limit) => `select ${id} as id, lat, lon from ${table} where ${id} > ? order by ${id} limit ${limit}`,
    rows: (ids) =>
      `select s.${id} as id, s.lat, s.lon, ${STAGED_ADDRESS} as address, a.address_source, a.address_parts, s.country, s.tags
       from ${table} s left join ${addresses} a on a.id = s.${id} where s.${id} in (${ids})`,
    update: (values) =>
      `insert into ${addresses} (id, address, address_source, address_parts) select * from (values ${values}) as v`,
  };
}

/** The places of the index that are not among an import's staged rows (`table`: osm_type, osm_id). */
export function placesNotStaged(table: string): PlaceSet {
  return {
    ...INDEXED_PLACES,
    positions: (limit) =>
      `select id, lat, lon from places p where osm_type <> 'own' and id > ? and not exists
       (select 1 from ${table} s where s.osm_type = p.osm_type and s.osm_id = p.osm_id) order by id limit ${limit}`,
  };
}

export interface AddressSummary {
  /** places whose address was worked out */
  derived: number;
  /** of which, places whose address changed */
  changed: number;
  /** places with an address now (of those worked out) */
  withAddress: number;
}

/** A query with `?` parameters, answered with its rows. */
export interface Query {
  sql: string;
  params: unknown[];
}

/** Queries run one after the other, each answered with its rows, and what they come to. */
export type Plan<T> = Generator<Query, T, Record<string, unknown>[]>;
export type AddressPlan = Plan<AddressSummary>;

/** A place's address in parts, as schema.org's PostalAddress wants it, and where it came from. */
export interface AddressParts {
  source: 'osm' | DerivedAddress['source'];
  street: string | null;
  housenumber: string | null;
  postcode: string | null;
  city: string | null;
  /** ISO 3166-1 code, as the place's address text is laid out for */
  country: string | null;
}

const M_PER_DEG = 111_195;
const BATCH = 500;
const round7 = (n: number) => Math.round(n * 1e7) / 1e7;

/** A box widened by `metres` on every side. */
export function widen(box: Box, metres: number): Box {
  const dLat = metres / M_PER_DEG;
  const dLon = dLat / Math.max(0.01, Math.cos((((box[0] + box[2]) / 2) * Math.PI) / 180));
  return [box[0] - dLat, box[1] - dLon, box[2] + dLat, box[3] + dLon];
}

interface StoredData {
  c: number[];
  p?: number[];
  t: ContextFeature['tags'];
  e?: number;
  r?: number[];
}

function toRow(feature: ContextFeature, source: string | null): unknown[] {
  const [minLon, minLat, maxLon, maxLat] = featureBox(feature);
  const data: StoredData = { c: feature.coords.map(round7), t: feature.tags };
  if (feature.parts && feature.parts.length > 1) data.p = feature.parts;
  if (feature.extentM) data.e = feature.extentM;
  if (feature.refs) data.r = feature.refs;
  return [source, feature.osmType, feature.osmId, feature.kind, minLat, minLon, maxLat, maxLon, JSON.stringify(data)];
}

/** A feature as address_context stores it. */
export function featureOfRow(row: Record<string, unknown>): ContextFeature {
  const data = JSON.parse(row.data as string) as StoredData;
  return {
    osmType: row.osm_type as OsmType,
    osmId: Number(row.osm_id),
    kind: row.kind as ContextKind,
    coords: data.c,
    parts: data.p,
    tags: data.t,
    extentM: data.e,
    refs: data.r,
  };
}

const boxOfRow = (row: Record<string, unknown>): Box => [
  Number(row.min_lat),
  Number(row.min_lon),
  Number(row.max_lat),
  Number(row.max_lon),
];

/** The plan of one update; the engine runs each query it yields and sends back the rows. */
export function* addressPlan(update: AddressUpdate): AddressPlan {
  const boxes: Box[] = update.within === 'all' ? [] : [...update.within];
  const keyWhere = 'osm_type = ? and osm_id = ?';

  // What is replaced or removed: its old box is where addresses may change, and a way's old
  // node positions place it when a change renames it without its nodes.
  const stored = new Map<string, ContextFeature>();
  if (update.within !== 'all') {
    for (const key of [...update.remove, ...update.put]) {
      const rows = yield { sql: `select * from address_context where ${keyWhere}`, params: [key.osmType, key.osmId] };
      for (const row of rows) {
        boxes.push(boxOfRow(row));
        stored.set(`${row.osm_type}/${row.osm_id}`, featureOfRow(row));
      }
    }
  }
  if (update.replaceSource && update.source !== null)
    yield { sql: 'delete from address_context where source = ?', params: [update.source] };
  for (const key of update.remove) {
    yield {
      sql: `delete from address_context where ${keyWhere}${key.kind ? ' and kind = ?' : ''}`,
      params: key.kind ? [key.osmType, key.osmId, key.kind] : [key.osmType, key.osmId],
    };
  }

  // The features put: first the rows of another kind under the same objects go (a building that
  // lost its address), then the features are written; both in batches, reading `put` twice rather
  // than holding a copy of it (an import's is a country's). An empty table (a first import) has
  // nothing to delete: `put` is read once.
  const place = (feature: ContextFeature): ContextFeature | null =>
    feature.refs && feature.coords.length === 0
      ? placeWay(feature, update.nodes, stored.get(`${feature.osmType}/${feature.osmId}`))
      : feature;
  let batch: unknown[][] = [];
  const deleteOtherKinds = function* (): Generator<Query, void, Record<string, unknown>[]> {
    if (batch.length === 0) return;
    yield {
      // the list first (SQLite keeps a cross join's order): the table's key searched for each of its rows
      sql: `delete from address_context where id in (select a.id from (values ${batch
        .map(() => '(cast(? as text), cast(? as bigint), cast(? as text))')
        .join(', ')}) as v cross join address_context a
        where a.osm_type = v.column1 and a.osm_id = v.column2 and a.kind <> v.column3)`,
      params: batch.flat(),
    };
    batch = [];
  };
  const [stillStored] = yield { sql: 'select 1 as found from address_context limit 1', params: [] };
  if (stillStored) {
    for (const feature of update.put) {
      batch.push([feature.osmType, feature.osmId, feature.kind]);
      if (batch.length >= BATCH) yield* deleteOtherKinds();
      // a way whose nodes are nowhere: the object's rows go
      if (!place(feature))
        yield { sql: `delete from address_context where ${keyWhere}`, params: [feature.osmType, feature.osmId] };
    }
    yield* deleteOtherKinds();
  }
  const insertBatch = function* (): Generator<Query, void, Record<string, unknown>[]> {
    if (batch.length === 0) return;
    yield {
      sql: `insert into address_context (source, osm_type, osm_id, kind, min_lat, min_lon, max_lat, max_lon, data)
        values ${batch.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}
        on conflict (osm_type, osm_id, kind) do update set source = excluded.source, min_lat = excluded.min_lat,
        min_lon = excluded.min_lon, max_lat = excluded.max_lat, max_lon = excluded.max_lon, data = excluded.data`,
      params: batch.flat(),
    };
    batch = [];
  };
  for (const feature of update.put) {
    const placed = place(feature);
    if (!placed) continue;
    batch.push(toRow(placed, update.source));
    if (batch.length >= BATCH) yield* insertBatch();
    if (update.within !== 'all') {
      const [minLon, minLat, maxLon, maxLat] = featureBox(placed);
      boxes.push([minLat, minLon, maxLat, maxLon]);
    }
  }
  yield* insertBatch();

  const summary: AddressSummary = { derived: 0, changed: 0, withAddress: 0 };
  if (update.within === 'all')
    return update.places === null ? summary : yield* deriveEveryPlace(summary, update.places ?? INDEXED_PLACES);
  if (boxes.length === 0) return summary;
  // The places to derive, and the context that can reach them.
  const areas = boxes.map((box) => widen(box, REACH_M));
  const features: ContextFeature[] = [];
  const seen = new Set<string>();
  for (const area of areas) {
    const reach = widen(area, REACH_M);
    const found = yield {
      sql: 'select osm_type, osm_id, kind, data from address_context where max_lat >= ? and min_lat <= ? and max_lon >= ? and min_lon <= ?',
      params: [reach[0], reach[2], reach[1], reach[3]],
    };
    for (const row of found) {
      const key = `${row.osm_type}/${row.osm_id}/${row.kind}`;
      if (!seen.has(key)) {
        seen.add(key);
        features.push(featureOfRow(row));
      }
    }
  }
  const context = new AddressContext(features);
  const derive = deriver(context, summary, INDEXED_PLACES);
  const done = new Set<number>();
  for (const area of areas) {
    const places = yield {
      sql: `${PLACE_COLUMNS} and p.lat between ? and ? and p.lon between ? and ?`,
      params: [area[0], area[2], area[1], area[3]],
    };
    yield* derive(places.filter((p) => !done.has(Number(p.id)) && done.add(Number(p.id))));
  }
  return summary;
}

/** Derives the addresses of places from a context, writing those that changed into `set`. */
function deriver(context: AddressContext, summary: AddressSummary, set: PlaceSet) {
  // Changed addresses are written in batches: one statement per place costs a round trip each
  // on PostgreSQL. (Both engines name a VALUES list's columns column1, column2...)
  const pending: unknown[][] = [];
  const writePending = function* (): Generator<Query, void, Record<string, unknown>[]> {
    if (pending.length === 0) return;
    yield {
      sql: set.update(
        pending.map(() => '(cast(? as bigint), cast(? as text), cast(? as text), cast(? as text))').join(', '),
      ),
      params: pending.flat(),
    };
    pending.length = 0;
  };
  return function* (places: Record<string, unknown>[]): Generator<Query, void, Record<string, unknown>[]> {
    for (const place of places) {
      summary.derived++;
      const tags = place.tags ? (JSON.parse(place.tags as string) as Tags) : {};
      const country = (place.country as string | null) ?? null;
      let address = formatAddress(tags, country);
      let source: string | null = null;
      let parts: string | null = null;
      if (!hasOwnAddress(tags)) {
        const derived = context.derive(Number(place.lat), Number(place.lon));
        const text = derived ? derivedText(derived, country, tags) : null;
        if (text) [address, source] = [text, derived!.source];
        if (derived) parts = storedParts(derived);
      }
      if (address !== null) summary.withAddress++;
      if (
        address === place.address &&
        source === (place.address_source ?? null) &&
        parts === (place.address_parts ?? null)
      )
        continue;
      summary.changed++;
      pending.push([place.id, address, source, parts]);
      if (pending.length >= BATCH) yield* writePending();
    }
    yield* writePending();
  };
}

/** Degrees of latitude (and of longitude) of a cell: every place's address is derived cell by cell. */
export const CELL_DEG = 0.05;

interface StoredFeature {
  id: number;
  box: Box;
  feature: ContextFeature;
}

/**
 * Derives every place's address (an import's), cell by cell so that memory does not grow with the
 * country: the cells that hold places are taken row by row from the south, each row's context
 * read once (in slices of the index on min_lat) and dropped once the rows have passed it; each
 * cell's places get an AddressContext of the features within reach of the cell, in the order of
 * their ids, as one context of every feature would hold them (ties go the same way).
 */
function* deriveEveryPlace(summary: AddressSummary, set: PlaceSet): AddressPlan {
  // Where each place is: 24 bytes a place, read in batches.
  let ids = new Float64Array(1 << 16);
  let lats = new Float64Array(ids.length);
  let lons = new Float64Array(ids.length);
  let count = 0;
  for (let after = 0; ;) {
    const batch = yield { sql: set.positions(10_000), params: [after] };
    if (batch.length === 0) break;
    if (count + batch.length > ids.length) {
      const grow = (old: Float64Array) => {
        const bigger = new Float64Array(old.length * 2);
        bigger.set(old);
        return bigger;
      };
      [ids, lats, lons] = [grow(ids), grow(lats), grow(lons)];
    }
    for (const place of batch) {
      ids[count] = Number(place.id);
      lats[count] = Number(place.lat);
      lons[count] = Number(place.lon);
      count++;
    }
    after = ids[count - 1];
  }
  const rows = new Int32Array(count);
  const columns = new Int32Array(count);
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    rows[i] = Math.floor(lats[i] / CELL_DEG);
    columns[i] = Math.floor(lons[i] / CELL_DEG);
    order[i] = i;
  }
  order.sort((a, b) => rows[a] - rows[b] || columns[a] - columns[b] || a - b);

  // Twice the furthest reach, so that a place near its cell's edge finds everything it would find
  // in a context of every feature (whose search box is sized at the place's own latitude).
  const marginLat = (2 * REACH_M) / M_PER_DEG;
  const [lowest] = yield { sql: 'select min(min_lat) as low from address_context', params: [] };
  let loadedTo = lowest?.low === null || lowest?.low === undefined ? Infinity : Number(lowest.low) - 1;
  let active: StoredFeature[] = [];
  for (let start = 0; start < count;) {
    const row = rows[order[start]];
    let end = start;
    while (end < count && rows[order[end]] === row) end++;
    const south = row * CELL_DEG - marginLat;
    const north = (row + 1) * CELL_DEG + marginLat;
    active = active.filter((f) => f.box[2] >= south);
    // the features that start south of the row's northern edge, read a slice of one row's height
    // at a time (the index on min_lat), those that end south of the row dropped
    while (loadedTo < north) {
      const to = Math.min(north, loadedTo + CELL_DEG);
      const found = yield {
        sql: `select id, osm_type, osm_id, kind, min_lat, min_lon, max_lat, max_lon, data from address_context
          where min_lat > ? and min_lat <= ?`,
        params: [loadedTo, to],
      };
      for (const stored of found) {
        const box = boxOfRow(stored);
        if (box[2] >= south) active.push({ id: Number(stored.id), box, feature: featureOfRow(stored) });
      }
      loadedTo = to;
    }
    const marginLon =
      marginLat / Math.max(0.01, Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180));
    // The row's cells go from west to east: the features within reach of a cell are swept along
    // the row (those starting west of its eastern edge come in, those ending west of its western
    // edge go), rather than each cell looking through every feature of the row (a country's row
    // is thousands of cells wide).
    active.sort((a, b) => a.box[1] - b.box[1]);
    let next = 0;
    let window: StoredFeature[] = [];
    for (let cellStart = start; cellStart < end;) {
      const column = columns[order[cellStart]];
      let cellEnd = cellStart;
      while (cellEnd < end && columns[order[cellEnd]] === column) cellEnd++;
      const west = column * CELL_DEG - marginLon;
      const east = (column + 1) * CELL_DEG + marginLon;
      while (next < active.length && active[next].box[1] <= east) window.push(active[next++]);
      window = window.filter((f) => f.box[3] >= west);
      const near = window
        .slice()
        .sort((a, b) => a.id - b.id)
        .map((f) => f.feature);
      const derive = deriver(new AddressContext(near), summary, set);
      for (let i = cellStart; i < cellEnd; i += BATCH) {
        const batchIds = Array.from(order.subarray(i, Math.min(cellEnd, i + BATCH)), (k) => ids[k]);
        const places = yield { sql: set.rows(batchIds.map(() => '?').join(', ')), params: batchIds };
        yield* derive(places.sort((a, b) => Number(a.id) - Number(b.id)));
      }
      cellStart = cellEnd;
    }
    start = end;
  }
  return summary;
}

/**
 * A place's row as the stores read it (`columns` of places), with its tags: by a subquery rather
 * than a join, which PostgreSQL plans in half the time (~55 µs of its CPU a read against ~110),
 * planned again at every read (no named prepared statements behind a pool in transaction mode).
 */
export const placeWithTags = (columns: string) => `select ${columns},
  (select tags from place_tags t where t.id = places.id) as tags from places where osm_type = ? and osm_id = ?`;

/** Derived parts as `places.address_parts` keeps them: JSON, the parts it has. */
type StoredParts = Pick<DerivedAddress, 'source'> &
  Partial<Pick<DerivedAddress, 'street' | 'housenumber' | 'postcode' | 'city'>>;

/** A derived address as `places.address_parts` keeps it (the house number only with a street). */
export function storedParts(derived: DerivedAddress): string {
  const parts: StoredParts = { source: derived.source };
  if (derived.street) {
    parts.street = derived.street;
    if (derived.housenumber) parts.housenumber = derived.housenumber;
  }
  if (derived.postcode) parts.postcode = derived.postcode;
  if (derived.city) parts.city = derived.city;
  return JSON.stringify(parts);
}

/**
 * The parts of a place's address (null if it has none), from its row as a store read it with its
 * tags and `address_parts`: its own addr:* tags, else the parts derived when its stored text was
 * (from the same features, by the same rule), its own postcode and city winning.
 */
export function addressPartsOf(row: Record<string, unknown>): AddressParts | null {
  const tags = row.tags ? (JSON.parse(row.tags as string) as Tags) : {};
  const own = (key: string) => tags[key]?.trim() || null;
  const country = (row.country as string | null) ?? null;
  if (hasOwnAddress(tags) || row.osm_type === 'own') {
    const street = own('addr:street') ?? own('addr:place');
    const parts = {
      street,
      housenumber: street ? own('addr:housenumber') : null,
      postcode: own('addr:postcode'),
      city: own('addr:city'),
    };
    // addr:full alone (or an own place's free text) has no parts: the page keeps the text
    return parts.street || parts.postcode || parts.city ? { source: 'osm', ...parts, country } : null;
  }
  if (typeof row.address_parts !== 'string') return null;
  const derived = JSON.parse(row.address_parts) as StoredParts;
  return {
    source: derived.source,
    street: derived.street ?? null,
    housenumber: derived.housenumber ?? null,
    postcode: own('addr:postcode') ?? derived.postcode ?? null,
    city: own('addr:city') ?? derived.city ?? null,
    country,
  };
}

/** A way put by a change file: its nodes' positions from the file, else as stored before. */
function placeWay(
  feature: ContextFeature,
  nodes: Map<number, [number, number]> | undefined,
  before: ContextFeature | undefined,
): ContextFeature | null {
  const known = new Map<number, [number, number]>();
  if (before?.refs) before.refs.forEach((ref, i) => known.set(ref, [before.coords[i * 2], before.coords[i * 2 + 1]]));
  const coords: number[] = [];
  for (const ref of feature.refs!) {
    const at = nodes?.get(ref) ?? known.get(ref);
    if (at) coords.push(at[0], at[1]);
  }
  if (coords.length < (feature.kind === 'area' ? 6 : 2)) return null;
  return { ...feature, coords };
}

/**
 * Derives the address of every place of a set (inside the caller's transaction, the context
 * written), adding to `summary`.
 */
export function* derivePlaces(set: PlaceSet, summary: AddressSummary): AddressPlan {
  return yield* deriveEveryPlace(summary, set);
}

/**
 * The places_meta key of an index whose places were derived before their address parts were kept
 * (migration 0017): they are derived again once, by the next import or the first place page read.
 */
export const ADDRESS_PARTS_PENDING = 'address_parts_pending';

/** Says that every place's address parts are kept (after an import derived every place). */
export function* keptAddressParts(): Plan<void> {
  yield { sql: 'delete from places_meta where key = ?', params: [ADDRESS_PARTS_PENDING] };
}

/**
 * Derives every place again if the index still lacks its places' address parts (inside the
 * caller's write transaction); null when nothing was pending.
 */
export function* pendingAddressParts(): Plan<AddressSummary | null> {
  const [pending] = yield { sql: 'select 1 as found from places_meta where key = ?', params: [ADDRESS_PARTS_PENDING] };
  if (!pending) return null;
  const summary = yield* deriveEveryPlace({ derived: 0, changed: 0, withAddress: 0 }, INDEXED_PLACES);
  yield* keptAddressParts();
  return summary;
}

/**
 * Runs address updates one after the other (inside the caller's transaction) and sums them up:
 * the last one's summary, which derives what the import reached.
 */
export function* addressPlans(updates: AddressUpdate[]): AddressPlan {
  let summary: AddressSummary = { derived: 0, changed: 0, withAddress: 0 };
  for (const update of updates) summary = yield* addressPlan(update);
  return summary;
}

/** Runs a plan on a synchronous connection (SQLite, inside its transaction). */
export function runPlanSync<T>(plan: Plan<T>, run: (query: Query) => Record<string, unknown>[]): T {
  let step = plan.next([]);
  while (!step.done) step = plan.next(run(step.value));
  return step.value;
}

/** Runs a plan on an asynchronous connection (PostgreSQL, inside its transaction). */
export async function runPlan<T>(plan: Plan<T>, run: (query: Query) => Promise<Record<string, unknown>[]>): Promise<T> {
  let step = plan.next([]);
  while (!step.done) step = plan.next(await run(step.value));
  return step.value;
}
