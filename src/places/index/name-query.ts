import { distanceKm, intersects } from '../geo.js';
import { cardOf, type PlaceCard } from './cards.js';
import type { Nearby, StoredPlace } from './types.js';

// What a visitor typed -> the words an index matches, each as a prefix ("starb" finds Starbucks):
// lower case, accents removed, letters and digits only (so nothing typed is query syntax).
export function nameTerms(query: string): string[] {
  const folded = query.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return (folded.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}

/** FTS5 MATCH: every word, as a prefix. */
export const ftsMatch = (terms: string[]) => terms.map((term) => `"${term}"*`).join(' ');

/** PostgreSQL to_tsquery('simple', ...): every word, as a prefix. */
export const tsQuery = (terms: string[]) => terms.map((term) => `${term}:*`).join(' & ');

/** The name index's candidates within the radius and mask that `accept` takes, nearest first. */
export function rankByDistance(
  candidates: Iterable<StoredPlace>,
  lat: number,
  lon: number,
  radiusKm: number,
  mask: number,
  limit: number,
  accept: (place: PlaceCard) => boolean = () => true,
): Nearby[] {
  const found: Nearby[] = [];
  for (const place of candidates) {
    if (!intersects(place.categories, mask)) continue;
    const distance = distanceKm(lat, lon, place.lat, place.lon);
    if (distance > radiusKm) continue;
    const card = cardOf(place);
    if (accept(card)) found.push({ place: card, distanceKm: distance });
  }
  found.sort((a, b) => a.distanceKm - b.distanceKm || a.place.id - b.place.id);
  return found.slice(0, limit);
}

/** A box around the circle, in degrees (a little wide; the exact distance decides). */
export function boxAround(lat: number, lon: number, radiusKm: number) {
  const dLat = radiusKm / 110.574 + 1e-6;
  const dLon = radiusKm / (111.32 * Math.max(Math.cos((Math.min(Math.abs(lat) + dLat, 89.9) * Math.PI) / 180), 1e-6)) + 1e-6;
  return { minLat: lat - dLat, maxLat: lat + dLat, minLon: lon - dLon, maxLon: lon + dLon };
}
