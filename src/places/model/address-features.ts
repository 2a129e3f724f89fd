// Which OSM objects are address context, and the address text a derived address makes.
import type { Tags } from './categories.js';
import type { OsmType } from './osm.js';
import { formatAddress } from './osm.js';
import { LOCALITY_EXTENT_M, type AddressTags, type ContextKind, type DerivedAddress } from './address-context.js';

/**
 * Highways that are not streets a place has its address on: paths, motorways, things not built.
 * (Nominatim parents to them too; a finder's card is better without: measured by hiding, they are
 * most of the wrong streets.) A named service road or slip road is a street: quays, mews and
 * alleys with shops on them ("Quai Antoine 1er", "Railspur Alley"), a slip road with its own name.
 */
const NOT_STREETS = new Set([
  'proposed',
  'construction',
  'abandoned',
  'platform',
  'razed',
  'no',
  'footway',
  'path',
  'steps',
  'cycleway',
  'corridor',
  'bridleway',
  'track',
  'elevator',
  'escape',
  'raceway',
  'bus_guideway',
  'motorway',
  'motorway_link',
]);

const text = (value: string | undefined) => value?.trim() || undefined;

/**
 * A bridge or a tunnel: nothing has its address on it, though it passes right by (measured by
 * hiding, a bridge overhead was the nearest street of many places below it).
 */
const overOrUnder = (tags: Tags) =>
  (tags.bridge !== undefined && tags.bridge !== 'no') ||
  (tags.tunnel !== undefined && tags.tunnel !== 'no' && tags.tunnel !== 'building_passage');

/**
 * The keys of a street's other names: its road number, the names it is also known by, and its
 * name in other languages (name:xx). An address may name its street by any of them ("CG-2" for
 * Andorra's Carretera General 2).
 */
const OTHER_NAME_KEYS = ['ref', 'alt_name', 'official_name', 'old_name', 'loc_name', 'short_name'];
const isLanguageName = (key: string) => /^name:[a-z]{2,3}$/.test(key);

/** Every key contextKind and addressTags read (and name:xx, isLanguageName). */
const CONTEXT_TAG_KEYS = [
  'name',
  ...OTHER_NAME_KEYS,
  'place',
  'highway',
  'type',
  'bridge',
  'tunnel',
  'addr:housenumber',
  'addr:street',
  'addr:place',
  'addr:postcode',
  'postal_code',
  'addr:city',
];

/** Of an object's tags, only those that say what context it is and its address (a way's may be held long). */
export function contextTags(tags: Tags): Tags {
  const out: Record<string, string> = {};
  for (const key of CONTEXT_TAG_KEYS) if (tags[key] !== undefined) out[key] = tags[key];
  if (tags.highway) for (const key in tags) if (isLanguageName(key)) out[key] = tags[key];
  return out;
}

/**
 * A street's names other than its `name` (OTHER_NAME_KEYS and name:xx; a value may hold several,
 * split at ';'), each once. Read by the hiding measurement too: an address that names its street
 * by any of them names that street.
 */
export function otherStreetNames(tags: Tags): string[] {
  const names = new Set<string>();
  for (const key in tags)
    if (OTHER_NAME_KEYS.includes(key) || isLanguageName(key))
      for (const value of tags[key].split(';')) {
        const name = value.trim();
        if (name && name !== tags.name?.trim()) names.add(name);
      }
  return [...names];
}

/** The address context an object is, if any; ways are areas only when closed (the caller says). */
export function contextKind(type: OsmType, tags: Tags, closed: boolean): ContextKind | null {
  if (type === 'node') {
    if (text(tags.name) && tags.place && LOCALITY_EXTENT_M[tags.place]) return 'locality';
    if (text(tags['addr:housenumber']) && (text(tags['addr:street']) || text(tags['addr:place']))) return 'point';
    return null;
  }
  // a building with a number but no street says nothing a place can use: the number goes with a
  // street it does not name, which may not be the nearest
  const addressed = text(tags['addr:street']) || text(tags['addr:place']);
  if (addressed && (closed || (type === 'relation' && (tags.type === 'multipolygon' || tags.type === 'building'))))
    return 'area';
  if (
    type === 'way' &&
    tags.highway &&
    !NOT_STREETS.has(tags.highway) &&
    (text(tags.name) || text(tags.ref)) &&
    !overOrUnder(tags)
  )
    return 'street';
  return null;
}

/** The address tags of a context object. */
export function addressTags(tags: Tags): AddressTags {
  const out: AddressTags = {};
  const put = (key: Exclude<keyof AddressTags, 'otherNames' | 'nameIsRef'>, value: string | undefined) => {
    const v = text(value);
    if (v) out[key] = v;
  };
  put('housenumber', tags['addr:housenumber']);
  put('street', tags['addr:street']);
  put('place', tags['addr:place']);
  put('postcode', tags['addr:postcode'] ?? tags.postal_code);
  put('city', tags['addr:city']);
  put('name', tags.name);
  if (tags.highway) {
    put('highway', tags.highway);
    // a road known only by its number is named by it, as its addresses are ("CG-2, km 3")
    if (!out.name) {
      put('name', tags.ref?.split(';')[0]);
      if (out.name) out.nameIsRef = true;
    }
    const others = otherStreetNames(tags).filter((name) => name !== out.name);
    if (others.length) out.otherNames = others;
  }
  return out;
}

/** A place's own address tags say where it is (a street, a square, or the whole address). */
export function hasOwnAddress(tags: Tags): boolean {
  return Boolean(text(tags['addr:street']) || text(tags['addr:place']) || text(tags['addr:full']));
}

/**
 * The address text of a derived address, laid out as the country writes it. The place's own
 * postcode and city, when it has them without a street, win over the neighbours'.
 */
export function derivedText(derived: DerivedAddress, country: string | null, own: Tags = {}): string | null {
  const tags: Record<string, string> = {};
  if (derived.street) tags['addr:street'] = derived.street;
  if (derived.street && derived.housenumber) tags['addr:housenumber'] = derived.housenumber;
  const postcode = text(own['addr:postcode']) ?? derived.postcode;
  const city = text(own['addr:city']) ?? derived.city;
  if (postcode) tags['addr:postcode'] = postcode;
  if (city) tags['addr:city'] = city;
  return formatAddress(tags, country);
}
