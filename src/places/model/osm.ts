// An OSM object's tags and point -> the place we store: names, address, phone, hours, country,
// time zone. One function for every source (import files and the live Overpass source).
import tzLookup from '@photostructure/tz-lookup';
import { categorize, type Tags } from './categories.js';
import { gazetteer } from './gazetteer.js';

/** The three kinds of OpenStreetMap element. */
export type OsmType = 'node' | 'way' | 'relation';

/** A relation's member. */
export interface Member {
  type: OsmType;
  ref: number;
}

export type Wheelchair = 'yes' | 'limited' | 'no';

export interface PlaceRecord {
  osmType: OsmType;
  osmId: number;
  lat: number;
  lon: number;
  /** Category mask (see categories.ts); never 0 for a stored place */
  categories: number;
  name: string | null;
  /** Every name:xx tag, keyed by xx */
  names: Record<string, string> | null;
  address: string | null;
  phone: string | null;
  website: string | null;
  openingHours: string | null;
  wheelchair: Wheelchair | null;
  country: string | null;
  timezone: string | null;
  tags: Tags;
}

// Where the house number goes before the street ("12 Main St") and the city before the postcode
// ("Washington 20009"); elsewhere "Carrer Major, 12" and "08001 Barcelona".
const NUMBER_FIRST = new Set([
  'US',
  'CA',
  'GB',
  'IE',
  'AU',
  'NZ',
  'FR',
  'MC',
  'LU',
  'IN',
  'ZA',
  'PH',
  'SG',
  'MY',
  'IL',
]);
const CITY_FIRST = new Set(['US', 'CA', 'GB', 'IE', 'AU', 'NZ', 'IN', 'ZA', 'PH', 'SG']);
/** name:xx where xx is a language code (name:en, name:pt-BR), not name:etymology and the like */
const LANGUAGE_NAME = /^name:([a-z]{2,3}(?:-[A-Za-z]{2,4})?)$/;

const text = (value: string | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/** The first of several values ("+1 604 555 0100;+1 604 555 0199"): a tel: link needs one. */
const firstOf = (value: string | undefined): string | null => text(value?.split(';')[0]);

export function formatAddress(tags: Tags, country: string | null): string | null {
  const number = text(tags['addr:housenumber']);
  const street = text(tags['addr:street']) ?? text(tags['addr:place']);
  const city = text(tags['addr:city']);
  const postcode = text(tags['addr:postcode']);
  const numberFirst = country !== null && NUMBER_FIRST.has(country);
  const cityFirst = country !== null && CITY_FIRST.has(country);
  const line1 = street && number ? (numberFirst ? `${number} ${street}` : `${street}, ${number}`) : street;
  const line2 = [cityFirst ? city : postcode, cityFirst ? postcode : city].filter(Boolean).join(' ') || null;
  const address = [line1, line2].filter(Boolean).join(', ');
  return address || text(tags['addr:full']);
}

function wheelchairOf(value: string | undefined): Wheelchair | null {
  if (value === 'yes' || value === 'designated') return 'yes';
  if (value === 'limited') return 'limited';
  if (value === 'no') return 'no';
  return null;
}

export function timezoneAt(lat: number, lon: number): string | null {
  try {
    return tzLookup(lat, lon);
  } catch {
    return null;
  }
}

/** The country from `addr:country`, else the nearest city's (GeoNames). */
export function countryOf(tags: Tags, lat: number, lon: number): string | null {
  const tagged = tags['addr:country']?.trim().toUpperCase();
  if (tagged && /^[A-Z]{2}$/.test(tagged)) return tagged;
  return gazetteer().countryAt(lat, lon);
}

/**
 * What a place is called: its `name` and `name:xx` tags; without a name, its brand (`brand:xx` in
 * each language), else its operator (`operator:xx`), as shops of a chain and offices are known by
 * them. Null when none: the result then shows its category and says it has no name.
 */
export function namesOf(tags: Tags): { name: string | null; names: Record<string, string> | null } {
  const key = text(tags.name) ? 'name' : text(tags.brand) ? 'brand' : text(tags.operator) ? 'operator' : null;
  if (key === null) return { name: null, names: null };
  let names: Record<string, string> | null = null;
  for (const [tag, value] of Object.entries(tags)) {
    if (!tag.startsWith(key + ':')) continue;
    const match = LANGUAGE_NAME.exec('name' + tag.slice(key.length));
    const name = text(value);
    if (match && name) (names ??= {})[match[1]] = name;
  }
  return { name: text(tags[key]), names };
}

/** The place an OSM object is, or null when it is in no category. */
export function toPlace(
  osmType: OsmType,
  osmId: number,
  lat: number,
  lon: number,
  tags: Tags,
  categories = categorize(tags),
): PlaceRecord | null {
  if (categories === 0) return null;
  const { name, names } = namesOf(tags);
  const country = countryOf(tags, lat, lon);
  return {
    osmType,
    osmId,
    lat,
    lon,
    categories,
    name,
    names,
    address: formatAddress(tags, country),
    phone: firstOf(tags.phone) ?? firstOf(tags['contact:phone']),
    website: text(tags.website) ?? text(tags['contact:website']) ?? text(tags.url),
    openingHours: text(tags.opening_hours),
    wheelchair: wheelchairOf(tags.wheelchair),
    country,
    timezone: timezoneAt(lat, lon),
    tags,
  };
}

/** A place as the index holds it: the record (less its raw tags, kept apart) and where it came from. */
export interface StoredPlace extends Omit<PlaceRecord, 'tags' | 'osmType'> {
  id: number;
  /** a derived address's origin; null when the address is the place's own, or there is none */
  addressSource: DerivedSource | null;
  /** 'own': the admin's own place (osmId is then its own stable id) */
  osmType: PlaceType;
  source: 'import' | 'overpass' | 'own';
  fetchedAt: number;
}

export type PlaceType = OsmType | 'own';

/** Where a derived address comes from: the building the place is in, or what is near it. */
export type DerivedSource = 'building' | 'nearby';
/** Where a result's address comes from: `osm` is the place's own (its tags, or the admin's). */
export type AddressSource = 'osm' | DerivedSource;
