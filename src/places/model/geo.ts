// Distances on the sphere, and the boxes around a circle: shared by both places indexes, so
// that both measure, filter and order by exactly the same numbers.

/** Mean Earth radius (IUGG), km */
export const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Great-circle distance in km (haversine). */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

export interface Box {
  south: number;
  north: number;
  west: number;
  east: number;
}

/**
 * The boxes that hold every point within `radiusKm` of a centre: one box, or two when the circle
 * crosses the antimeridian. Exact for a sphere (the longitude span widens away from the equator,
 * and covers all longitudes when a pole is inside the circle).
 */
export function boxesAround(lat: number, lon: number, radiusKm: number): Box[] {
  const angle = radiusKm / EARTH_RADIUS_KM;
  const south = lat - angle / RAD;
  const north = lat + angle / RAD;
  if (south <= -90 || north >= 90)
    return [{ south: Math.max(south, -90), north: Math.min(north, 90), west: -180, east: 180 }];
  const sinRatio = Math.sin(angle) / Math.cos(lat * RAD);
  if (sinRatio >= 1) return [{ south, north, west: -180, east: 180 }];
  const span = Math.asin(sinRatio) / RAD;
  const west = lon - span;
  const east = lon + span;
  if (west < -180)
    return [
      { south, north, west: west + 360, east: 180 },
      { south, north, west: -180, east },
    ];
  if (east > 180)
    return [
      { south, north, west, east: 180 },
      { south, north, west: -180, east: east - 360 },
    ];
  return [{ south, north, west, east }];
}

/** Whether two category masks share a category; arithmetic, as masks pass 32 bits. */
export function intersects(a: number, b: number): boolean {
  // low 32 bits with `&`, the rest by division
  if (((a % 2 ** 32) & (b % 2 ** 32)) !== 0) return true;
  return (Math.floor(a / 2 ** 32) & Math.floor(b / 2 ** 32)) !== 0;
}
