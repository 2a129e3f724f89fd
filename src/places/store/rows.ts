// The row code both stores share: the columns of a place, a stored row read back, the upsert by
// OSM type and id, the own places' records, and the sources' summaries.
import { categorize, CATEGORIES, categoryBit, hasBit, type Tags } from '../model/categories.js';
import type { CategoryId } from '../model/category-ids.js';
import {
  countryOf,
  timezoneAt,
  type PlaceRecord,
  type PlaceType,
  type StoredPlace,
  type Wheelchair,
} from '../model/osm.js';
import type { ChangeKnown, OwnPlace, SourceSummary } from './types.js';

/** A place's own columns, in the order of placeRow(). */
export const PLACE_COLUMNS = `osm_type, osm_id, lat, lon, categories, name, names, address, phone, website,
  opening_hours, wheelchair, country, timezone`;

/** What a read of a stored place selects: PLACE_COLUMNS and the index's own. */
export const STORED_COLUMNS = `id, ${PLACE_COLUMNS}, source, fetched_at, address_source`;

/** A row of STORED_COLUMNS, on either engine. */
export interface PlaceRow {
  id: number;
  osm_type: PlaceType;
  osm_id: number;
  lat: number;
  lon: number;
  categories: number;
  name: string | null;
  names: string | null;
  address: string | null;
  phone: string | null;
  website: string | null;
  opening_hours: string | null;
  wheelchair: Wheelchair | null;
  country: string | null;
  timezone: string | null;
  source: StoredPlace['source'];
  fetched_at: number;
  address_source: StoredPlace['addressSource'];
}

export function fromRow(row: PlaceRow): StoredPlace {
  return {
    id: row.id,
    osmType: row.osm_type,
    osmId: row.osm_id,
    lat: row.lat,
    lon: row.lon,
    categories: row.categories,
    name: row.name,
    names: row.names ? (JSON.parse(row.names) as Record<string, string>) : null,
    address: row.address,
    addressSource: row.address_source,
    phone: row.phone,
    website: row.website,
    openingHours: row.opening_hours,
    wheelchair: row.wheelchair,
    country: row.country,
    timezone: row.timezone,
    source: row.source,
    fetchedAt: row.fetched_at,
  };
}

/** What a change plan knows before it asks anything. */
export function emptyKnown(): ChangeKnown {
  return {
    places: new Map(),
    placeIds: new Map(),
    nodes: new Map(),
    ways: new Map(),
    relations: new Map(),
    users: new Map(),
  };
}

/** The values of PLACE_COLUMNS for a place. */
export function placeRow(place: PlaceRecord): unknown[] {
  return [
    place.osmType,
    place.osmId,
    place.lat,
    place.lon,
    place.categories,
    place.name,
    place.names ? JSON.stringify(place.names) : null,
    place.address,
    place.phone,
    place.website,
    place.openingHours,
    place.wheelchair,
    place.country,
    place.timezone,
  ];
}

/**
 * An import, a change file or a live answer replaces the same OSM object (same SQL on both
 * engines). An import takes the object into its source; a change or a live answer leaves it in
 * the source it is in (so a re-import of that source still knows it as its own).
 * `addressSource`: the rows carry their address as derived, with where it came from and its parts
 * (an import that derives addresses).
 */
export function updateOnConflict(take: boolean, addressSource = false): string {
  return `on conflict (osm_type, osm_id) do update set
  lat = excluded.lat, lon = excluded.lon, categories = excluded.categories, name = excluded.name,
  names = excluded.names, address = excluded.address, phone = excluded.phone,
  website = excluded.website, opening_hours = excluded.opening_hours,
  wheelchair = excluded.wheelchair, country = excluded.country, timezone = excluded.timezone,
  fetched_at = excluded.fetched_at, version = coalesce(excluded.version, places.version),
  source = excluded.source, source_id = ${take ? 'excluded.source_id' : 'coalesce(places.source_id, excluded.source_id)'}${
    addressSource ? ', address_source = excluded.address_source, address_parts = excluded.address_parts' : ''
  }`;
}

/** The tag that keeps an own place's category (own places have no OSM tags to categorise). */
const OWN_CATEGORY = 'own:category';

/** A stored place's category mask from its kept tags (when the category table changes). */
export function storedMask(osmType: string, tags: Tags): number {
  if (osmType !== 'own') return categorize(tags);
  const id = tags[OWN_CATEGORY];
  return CATEGORIES.some((c) => c.id === id) ? categoryBit(id as CategoryId) : 0;
}

/** An own place as the index stores it; its tags say what the admin entered. */
export function ownRecord(place: OwnPlace, osmId: number): PlaceRecord {
  if (!CATEGORIES.some((c) => c.id === place.category)) throw new RangeError(`unknown category "${place.category}"`);
  const tags: Record<string, string> = { name: place.name, [OWN_CATEGORY]: place.category };
  if (place.address) tags['own:address'] = place.address;
  if (place.phone) tags.phone = place.phone;
  if (place.website) tags.website = place.website;
  if (place.openingHours) tags.opening_hours = place.openingHours;
  return {
    osmType: 'node', // stored as 'own' by the writers; PlaceRecord speaks OSM
    osmId,
    lat: place.lat,
    lon: place.lon,
    categories: categoryBit(place.category as CategoryId),
    name: place.name,
    names: null,
    address: place.address ?? null,
    phone: place.phone ?? null,
    website: place.website ?? null,
    openingHours: place.openingHours ?? null,
    wheelchair: null,
    country: countryOf(tags, place.lat, place.lon),
    timezone: timezoneAt(place.lat, place.lon),
    tags,
  };
}

/** A row of place_sources. */
interface SourceRow {
  id: number;
  name: string;
  kind: SourceSummary['kind'];
  replication_url: string | null;
  sequence: number | null;
  data_timestamp: string | null;
  imported_at: number | null;
  updated_at: number | null;
}

/** The sources, or the one named ($1 on PostgreSQL, ? on SQLite), in the order they came. */
export const sourcesQuery = (name: string | undefined, parameter: string) =>
  `select * from place_sources ${name === undefined ? '' : `where name = ${parameter}`} order by id`;

/** The places per source and category mask: one pass over the places. */
export const SOURCE_COUNTS = 'select source_id, categories, count(*) as n from places group by source_id, categories';

/** The admin's view of the sources: each with its places, in all and per category. */
export function sourceSummaries(
  rows: SourceRow[],
  counts: { source_id: number; categories: number; n: number | string }[],
): SourceSummary[] {
  return rows.map((row) => {
    const perCategory: Record<string, number> = {};
    let places = 0;
    for (const c of counts) {
      if (c.source_id !== row.id) continue;
      const n = Number(c.n);
      places += n;
      CATEGORIES.forEach((category, i) => {
        if (hasBit(c.categories, i)) perCategory[category.id] = (perCategory[category.id] ?? 0) + n;
      });
    }
    return {
      id: row.id,
      name: row.name,
      kind: row.kind,
      replicationUrl: row.replication_url,
      sequence: row.sequence,
      dataTimestamp: row.data_timestamp,
      importedAt: row.imported_at,
      updatedAt: row.updated_at,
      places,
      perCategory,
    };
  });
}
