// What both places indexes write and how they choose their reads: one place for the columns of
// a place, the upsert by OSM type and id, and the split between specific and broad searches.
import { CATEGORIES, hasBit } from '../categories.js';
import type { PlaceRecord } from '../osm.js';

/** A place's own columns, in the order of placeRow(). */
export const PLACE_COLUMNS = `osm_type, osm_id, lat, lon, categories, name, names, address, phone, website,
  opening_hours, wheelchair, country, timezone`;

/** The values of PLACE_COLUMNS for a place. */
export function placeRow(place: PlaceRecord): unknown[] {
  return [
    place.osmType, place.osmId, place.lat, place.lon, place.categories, place.name,
    place.names ? JSON.stringify(place.names) : null, place.address, place.phone, place.website,
    place.openingHours, place.wheelchair, place.country, place.timezone,
  ];
}

/** An import or a live answer replaces the same OSM object (same SQL on both engines). */
export const UPDATE_ON_CONFLICT = `on conflict (osm_type, osm_id) do update set
  lat = excluded.lat, lon = excluded.lon, categories = excluded.categories, name = excluded.name,
  names = excluded.names, address = excluded.address, phone = excluded.phone,
  website = excluded.website, opening_hours = excluded.opening_hours,
  wheelchair = excluded.wheelchair, country = excluded.country, timezone = excluded.timezone,
  source = excluded.source, fetched_at = excluded.fetched_at`;

/** Searches over more categories than this, or over broad ones, read the index of all places. */
const MAX_OWN = 6;

/**
 * How to read a category mask: `own` lists its categories (by index), each read from its own
 * index when `broad` is false; a broad search reads the index of all places and checks masks.
 */
export function searchPlan(mask: number): { own: number[]; broad: boolean } {
  const own: number[] = [];
  let broad = false;
  CATEGORIES.forEach((category, i) => {
    if (!hasBit(mask, i)) return;
    own.push(i);
    if (category.specificity < 2) broad = true;
  });
  return { own, broad: broad || own.length > MAX_OWN };
}
