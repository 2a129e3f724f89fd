// The nearest places by a plain scan of every row: what the grid's answer must equal. move-db
// checks a copied database with it, and the tests check both engines' reads with it.
import { distanceKm, EARTH_RADIUS_KM, intersects } from '../model/geo.js';

export interface ScannedPlace {
  id: number;
  lat: number;
  lon: number;
  categories: number;
}

/**
 * The `limit` places nearest to a point, in any category of `mask`, within `radiusKm` (by
 * distanceKm, inclusive): nearest first, then by id. The same numbers as the grid's.
 */
export function nearestByScan(
  places: Iterable<ScannedPlace>,
  lat: number,
  lon: number,
  radiusKm: number,
  mask: number,
  limit: number,
): { ids: number[]; distances: number[] } {
  // No place further in latitude than this is within the radius (a great circle is at least that long).
  const band = (radiusKm / EARTH_RADIUS_KM) * (180 / Math.PI) + 1e-9;
  const found: { id: number; d: number }[] = [];
  for (const p of places) {
    if (Math.abs(p.lat - lat) > band || !intersects(p.categories, mask)) continue;
    const d = distanceKm(lat, lon, p.lat, p.lon);
    if (d <= radiusKm) found.push({ id: p.id, d });
  }
  found.sort((a, b) => a.d - b.d || a.id - b.id);
  const kept = found.slice(0, limit);
  return { ids: kept.map((f) => f.id), distances: kept.map((f) => f.d) };
}
