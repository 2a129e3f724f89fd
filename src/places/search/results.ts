// One search result, from a place's card: as an object (tRPC, in-process callers) and as JSON text
// (GET /api/places: the card's fixed members are text already, so a result is a few
// concatenations). Both give the same fields and values; test/places/cards.test.ts holds them
// to it.
import { categoryName } from '../model/categories.js';
import type { CategoryId } from '../model/category-ids.js';
import { statusLabel, type OpenStatus } from '../model/hours.js';
import { LANGUAGES, type Lang } from '../../i18n.js';
import type { Wheelchair } from '../model/osm.js';
import type { PlaceCard } from './cards.js';

export interface PlaceResult {
  id: string;
  name: string;
  address: string | null;
  lat: number;
  lon: number;
  /** km */
  distance: number;
  phone_number: string | null;
  status_label: string;
  category: CategoryId;
  status: OpenStatus;
  opening_hours: string | null;
  website: string | null;
  wheelchair: Wheelchair | null;
  /** 'own': one of the admin's own places */
  source: 'osm' | 'own';
}

/** Kilometres to the metre: what a result's `distance` says. */
const roundedKm = (km: number) => Math.round(km * 1000) / 1000;

/** The place's name in the request's language, else its own, else its category's. */
const nameOf = (place: PlaceCard, category: CategoryId, lang: Lang) => place.names?.[lang] ?? place.name ?? categoryName(category, lang);

export function resultOf(place: PlaceCard, category: CategoryId, status: OpenStatus, lang: Lang, distanceKm: number): PlaceResult {
  return {
    id: place.key,
    name: nameOf(place, category, lang),
    address: place.address,
    lat: place.lat,
    lon: place.lon,
    distance: roundedKm(distanceKm),
    phone_number: place.phone,
    status_label: statusLabel(status, lang),
    category,
    status,
    opening_hours: place.openingHours,
    website: place.website,
    wheelchair: place.wheelchair,
    source: place.source,
  };
}

/** resultOf() as JSON text. */
export function resultJson(place: PlaceCard, category: CategoryId, status: OpenStatus, lang: Lang, distanceKm: number): string {
  // Numbers print as JSON.stringify prints them; the labels and names need its escaping.
  // What does not depend on the question is kept on the card: the next answer reuses it.
  const position = (place.position ??= `"lat":${place.lat},"lon":${place.lon}`);
  let name = place.nameJson?.[lang];
  if (name === undefined) {
    const own = place.names?.[lang] ?? place.name;
    name = JSON.stringify(own ?? categoryName(category, lang));
    // a name from the category depends on the category asked: not kept
    if (own !== null) (place.nameJson ??= {})[lang] = name;
  }
  return `{"name":${name},"category":"${category}",${place.json},${position},"distance":${roundedKm(distanceKm)},"status":"${status}","status_label":${LABELS[lang][status]}}`;
}

/** The status labels as JSON strings, made once. */
const LABELS = Object.fromEntries(
  LANGUAGES.map((lang) => [
    lang,
    Object.fromEntries((['open', 'closing_soon', 'closed', 'unknown'] as const).map((status) => [status, JSON.stringify(statusLabel(status, lang))])),
  ]),
) as Record<Lang, Record<OpenStatus, string>>;
