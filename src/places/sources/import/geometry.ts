// The point a way or relation is shown at: the centre of its bounding box, as Overpass's
// `out center` does, so imported and live places sit at the same spot.
import type { LatLon } from './types.js';

export class Bounds {
  minLat = Infinity;
  maxLat = -Infinity;
  minLon = Infinity;
  maxLon = -Infinity;

  add(lat: number, lon: number): void {
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) return;
    if (lat < this.minLat) this.minLat = lat;
    if (lat > this.maxLat) this.maxLat = lat;
    if (lon < this.minLon) this.minLon = lon;
    if (lon > this.maxLon) this.maxLon = lon;
  }

  get empty(): boolean {
    return this.minLat === Infinity;
  }
}

export function boundsCenter(bounds: Bounds): LatLon | null {
  if (bounds.empty) return null;
  return {
    lat: Math.round(((bounds.minLat + bounds.maxLat) / 2) * 1e7) / 1e7,
    lon: Math.round(((bounds.minLon + bounds.maxLon) / 2) * 1e7) / 1e7,
  };
}

/** Every [lon, lat] pair in a GeoJSON coordinates array, at any depth. */
export function addGeoJsonCoordinates(bounds: Bounds, coordinates: unknown): void {
  if (!Array.isArray(coordinates)) return;
  if (typeof coordinates[0] === 'number') {
    bounds.add(Number(coordinates[1]), Number(coordinates[0]));
    return;
  }
  for (const item of coordinates) addGeoJsonCoordinates(bounds, item);
}

export function validLatLon(lat: number, lon: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
}
