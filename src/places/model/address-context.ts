// An address for a place that has none of its own, from what surrounds it (as Nominatim does for
// points of interest): the building or area it stands in, else the nearest address point or named
// street, plus the town it is in and a postcode where known. Pure: the features come in, the
// answers go out; store.ts keeps the features and applies the answers.
//
// Reach: an address point within 40 m (a point of interest is mapped inside or in front of its
// building; a plot's street front is 10-30 m in towns, so 40 m is the next door at most), weighed
// against the named streets within 100 m (half a typical city block: further away, the nearest
// street is as likely a side one as the place's own). A house number only from the building the
// place is in: next door is another number (measured by hiding, a nearby point's number was the
// place's own half of the time). The streets that the addresses within 150 m name count nearer
// (NAMED_BY_NEIGHBOURS_WEIGHT).
import Flatbush from 'flatbush';
import type { OsmType } from './osm.js';
import { isSquareName, streetKey } from './address-names.js';

export type ContextKind = 'area' | 'point' | 'street' | 'locality';

/** Address tags a feature carries (a street's and a locality's `name` is their own name). */
export interface AddressTags {
  housenumber?: string;
  street?: string;
  /** addr:place: an address on a square or a hamlet rather than a street */
  place?: string;
  postcode?: string;
  city?: string;
  name?: string;
  /** a street's highway=* value: a main road counts as nearer (STREET_WEIGHT) */
  highway?: string;
  /** a street's other names: its ref, alt_name, official_name, name:xx... (otherStreetNames) */
  otherNames?: string[];
  /** a street with no name: `name` is its road number (ref) */
  nameIsRef?: true;
}

export interface ContextFeature {
  osmType: OsmType;
  osmId: number;
  kind: ContextKind;
  /**
   * [lon, lat, lon, lat, ...]: an area's rings one after the other (outer and inner, read
   * even-odd), a street's lines, a point's or locality's one position
   */
  coords: number[];
  /** where each ring or line starts, in pairs (the first is 0); absent for one part */
  parts?: number[];
  tags: AddressTags;
  /** a locality's extent in metres (place=city 15 km ... isolated_dwelling 500 m) */
  extentM?: number;
  /** a way's node ids, so that a change that renames it without moving it keeps its shape */
  refs?: number[];
}

/** What a place gets: the parts of an address and where they came from. */
export interface DerivedAddress {
  source: 'building' | 'nearby';
  street: string | null;
  housenumber: string | null;
  postcode: string | null;
  city: string | null;
}

export const POINT_REACH_M = 40;
/**
 * A place this near a building's outline is on its wall: a door or a shop front mapped as a
 * vertex of the building, which a point-in-polygon test may put on either side.
 */
export const ON_OUTLINE_M = 1;
export const STREET_REACH_M = 100;
/**
 * How much nearer a street of each class counts: shops and offices line the main roads, and a
 * place near a corner is on the main road more often than on the side street (measured by
 * hiding on the three extracts: the nearest street alone picks the side street at most corners).
 */
export const STREET_WEIGHT: Readonly<Record<string, number>> = {
  trunk: 0.5,
  primary: 0.5,
  secondary: 0.6,
  tertiary: 0.75,
  pedestrian: 0.75,
};

/**
 * A square counts nearer still, whatever its class: its way runs through its middle or round its
 * edge, so the doors on it are further from its line than a street's doors are from the street's;
 * and the buildings round a square are numbered on the square, not on the streets that leave it
 * (measured by hiding: at "Place d'Armes" or "Place de la Visitation" the side street a few metres
 * nearer was picked).
 */
export const SQUARE_WEIGHT = 0.6;

/**
 * A street that the addresses of the neighbours (address points and addressed buildings within
 * NEIGHBOURS_REACH_M) name counts nearer: buildings around are numbered on it, so doors open onto
 * it; a street no neighbour names is as often a slip road, a driveway or the blind side of a block.
 * This is how the neighbours' addresses say which street of a corner the shops front.
 */
export const NAMED_BY_NEIGHBOURS_WEIGHT = 0.8;
export const NEIGHBOURS_REACH_M = 150;

/**
 * A place in a building whose own street is further than this (or not within STREET_REACH_M)...
 */
export const OWN_STREET_FAR_M = 50;
/**
 * ...and this near another named street opens onto that street: a large building's or site's
 * address names the street of its main door, and a shop at its far edge, right on another street,
 * has its door there (a mall's or casino's units along a side street). It gets the nearby street,
 * without the building's number.
 */
export const OTHER_STREET_ON_M = 10;

/**
 * How much nearer an address point counts than a street: an address point 30 m away beats a
 * side street 14 m away (measured by hiding: weighting addressed buildings the same way, or
 * adding up the neighbours' votes per street, found fewer hidden streets on two extracts of three).
 */
export const POINT_WEIGHT = 0.5;

/** Where a postcode may be borrowed from a neighbouring address point. */
export const POSTCODE_REACH_M = 150;

/**
 * Extents of the place=* nodes that name the town of an address, as Nominatim assumes them (a
 * suburb or neighbourhood is not written in an address line).
 */
export const LOCALITY_EXTENT_M: Readonly<Record<string, number>> = {
  city: 15_000,
  town: 4_000,
  village: 2_000,
  hamlet: 1_000,
  isolated_dwelling: 500,
};

const M_PER_DEG = 111_195;

/** The bounding box of a feature: [minLon, minLat, maxLon, maxLat]. */
export function featureBox(
  feature: Pick<ContextFeature, 'coords' | 'extentM' | 'kind'>,
): [number, number, number, number] {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  const c = feature.coords;
  for (let i = 0; i < c.length; i += 2) {
    if (c[i] < minX) minX = c[i];
    if (c[i] > maxX) maxX = c[i];
    if (c[i + 1] < minY) minY = c[i + 1];
    if (c[i + 1] > maxY) maxY = c[i + 1];
  }
  if (feature.kind === 'locality' && feature.extentM) {
    const dLat = feature.extentM / M_PER_DEG;
    const dLon = dLat / Math.max(0.01, Math.cos((minY * Math.PI) / 180));
    return [minX - dLon, minY - dLat, maxX + dLon, maxY + dLat];
  }
  return [minX, minY, maxX, maxY];
}

/** One kind's features packed for queries: coordinates in one typed array, a static R-tree. */
class Layer {
  readonly index: Flatbush | null;
  /** every feature's coordinates, one after the other */
  readonly coords: Float64Array;
  /** feature i's parts start at parts[partStart[i]] .. parts[partStart[i + 1]] (offsets in coords, in numbers) */
  readonly partStart: Uint32Array;
  readonly parts: Uint32Array;
  readonly tags: AddressTags[];
  readonly extent: Float64Array;
  readonly area: Float64Array;
  /** each feature's street as streetKey has it, worked out when first asked (AddressContext.keyOf) */
  readonly keys: (string | null | undefined)[] = [];

  constructor(features: ContextFeature[]) {
    const n = features.length;
    let numbers = 0;
    let partCount = 0;
    for (const f of features) {
      numbers += f.coords.length;
      partCount += (f.parts?.length ?? 1) + 1;
    }
    this.coords = new Float64Array(numbers);
    this.partStart = new Uint32Array(n + 1);
    this.parts = new Uint32Array(partCount);
    this.tags = new Array(n);
    this.extent = new Float64Array(n);
    this.area = new Float64Array(n);
    this.index = n > 0 ? new Flatbush(n) : null;
    let at = 0;
    let p = 0;
    features.forEach((f, i) => {
      this.coords.set(f.coords, at);
      this.partStart[i] = p;
      for (const start of f.parts ?? [0]) this.parts[p++] = at + start * 2;
      this.parts[p++] = at + f.coords.length; // the end of the last part
      at += f.coords.length;
      this.tags[i] = f.tags;
      this.extent[i] = f.extentM ?? 0;
      const box = featureBox(f);
      this.area[i] = (box[2] - box[0]) * (box[3] - box[1]);
      this.index!.add(box[0], box[1], box[2], box[3]);
    });
    this.partStart[n] = p;
    this.index?.finish();
  }

  /** even-odd over every ring of feature i */
  contains(i: number, lon: number, lat: number): boolean {
    let inside = false;
    const c = this.coords;
    for (let k = this.partStart[i]; k < this.partStart[i + 1] - 1; k++) {
      const start = this.parts[k];
      const end = this.parts[k + 1];
      for (let a = start, b = end - 2; a < end; b = a, a += 2) {
        const xa = c[a],
          ya = c[a + 1],
          xb = c[b],
          yb = c[b + 1];
        if (ya > lat !== yb > lat && lon < ((xb - xa) * (lat - ya)) / (yb - ya) + xa) inside = !inside;
      }
    }
    return inside;
  }

  /** metres from a point to feature i's lines (or its point), on a local flat projection; 0 inside a closed one */
  distanceM(i: number, lon: number, lat: number): number {
    const first = this.parts[this.partStart[i]];
    const last = this.parts[this.partStart[i] + 1] - 2;
    if (
      last - first >= 6 &&
      this.coords[first] === this.coords[last] &&
      this.coords[first + 1] === this.coords[last + 1] &&
      this.contains(i, lon, lat)
    )
      return 0;
    const kx = Math.cos((lat * Math.PI) / 180) * M_PER_DEG;
    const c = this.coords;
    let best = Infinity;
    for (let k = this.partStart[i]; k < this.partStart[i + 1] - 1; k++) {
      const start = this.parts[k];
      const end = this.parts[k + 1];
      if (end - start === 2) {
        best = Math.min(best, Math.hypot((c[start] - lon) * kx, (c[start + 1] - lat) * M_PER_DEG));
        continue;
      }
      for (let a = start; a + 2 < end; a += 2) {
        const ax = (c[a] - lon) * kx,
          ay = (c[a + 1] - lat) * M_PER_DEG;
        const bx = (c[a + 2] - lon) * kx,
          by = (c[a + 3] - lat) * M_PER_DEG;
        const dx = bx - ax,
          dy = by - ay;
        const len = dx * dx + dy * dy;
        const t = len === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len));
        best = Math.min(best, Math.hypot(ax + t * dx, ay + t * dy));
      }
    }
    return best;
  }

  /** features whose box comes within `metres` of the point (north, south, east or west of it) */
  within(lon: number, lat: number, metres: number): number[] {
    if (!this.index) return [];
    const dLat = metres / M_PER_DEG;
    const dLon = dLat / Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    return this.index.search(lon - dLon, lat - dLat, lon + dLon, lat + dLat);
  }

  /** features whose box is within `metres` of the point, nearest first, with their distance */
  near(lon: number, lat: number, metres: number): { i: number; m: number }[] {
    if (!this.index) return [];
    const dLat = metres / M_PER_DEG;
    const dLon = dLat / Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    return this.index
      .search(lon - dLon, lat - dLat, lon + dLon, lat + dLat)
      .map((i) => ({ i, m: this.distanceM(i, lon, lat) }))
      .filter(({ m }) => m <= metres)
      .sort((a, b) => a.m - b.m || a.i - b.i);
  }
}

const street = (tags: AddressTags) => tags.street ?? tags.place ?? null;

/** The address context of an area: ask it for the address of any point. */
export class AddressContext {
  private readonly areas: Layer;
  private readonly points: Layer;
  private readonly streets: Layer;
  private readonly localities: Layer;
  private readonly streetWeights: (number | undefined)[] = [];

  constructor(features: ContextFeature[]) {
    const of = (kind: ContextKind) => features.filter((f) => f.kind === kind && f.coords.length >= 2);
    this.areas = new Layer(of('area').filter((f) => f.coords.length >= 6));
    this.points = new Layer(of('point'));
    this.streets = new Layer(of('street').filter((f) => f.tags.name));
    this.localities = new Layer(of('locality').filter((f) => f.tags.name && f.extentM));
  }

  /** The address of a point, or null when nothing around says anything. */
  derive(lat: number, lon: number): DerivedAddress | null {
    const building = this.buildingAt(lat, lon);
    const town = this.townAt(lat, lon);
    const streets = this.streetsNear(lat, lon);
    if (building && !this.opensOntoAnother(building, streets)) {
      return {
        source: 'building',
        street: street(building),
        housenumber: building.housenumber ?? null,
        postcode: building.postcode ?? this.nearbyPostcode(lat, lon),
        city: building.city ?? town,
      };
    }
    // a place sent to another street still stands in the building: its postcode and town hold
    const postcode = building?.postcode ?? this.nearbyPostcode(lat, lon);
    const best = this.streetNear(lat, lon, streets);
    if (best || town || postcode) {
      return {
        source: 'nearby',
        street: best?.street ?? null,
        housenumber: null,
        postcode: best?.postcode ?? postcode,
        city: best?.city ?? building?.city ?? town,
      };
    }
    return null;
  }

  /**
   * The streets within STREET_REACH_M of a point, nearest first. A road known only by its number
   * (nameIsRef) is among them only where no named street is (out of town): in a town, the
   * buildings along it are numbered on the named streets around.
   */
  private streetsNear(lat: number, lon: number): { i: number; m: number }[] {
    const streets = this.streets.near(lon, lat, STREET_REACH_M);
    const numberOnly = (i: number) => this.streets.tags[i].nameIsRef === true;
    return streets.some(({ i }) => !numberOnly(i)) ? streets.filter(({ i }) => !numberOnly(i)) : streets;
  }

  /**
   * The streets the derivation chooses from at a point: the streets within STREET_REACH_M
   * (streetsNear), by each of their names, and the streets of the address points within
   * POINT_REACH_M (the hiding measurement's ceiling).
   */
  candidateStreets(lat: number, lon: number): string[] {
    const names = this.streetsNear(lat, lon).flatMap(({ i }) => [
      this.streets.tags[i].name!,
      ...(this.streets.tags[i].otherNames ?? []),
    ]);
    for (const { i } of this.points.near(lon, lat, POINT_REACH_M)) {
      const name = street(this.points.tags[i]);
      if (name) names.push(name);
    }
    return names;
  }

  /**
   * The other names (ref, alt_name, name:xx...) of the ways named `street` within STREET_REACH_M
   * of a point: what a derived street is also called there (read by the hiding measurement).
   */
  otherNamesOf(lat: number, lon: number, street: string): string[] {
    const key = streetKey(street);
    return this.streetsNear(lat, lon)
      .filter(({ i }) => this.keyOf(this.streets, i) === key)
      .flatMap(({ i }) => this.streets.tags[i].otherNames ?? []);
  }

  /** Whether a place in `building` is right on another street, far from the building's own (OTHER_STREET_ON_M). */
  private opensOntoAnother(building: AddressTags, streets: { i: number; m: number }[]): boolean {
    const own = streetKey(street(building)!);
    let ownM = Infinity;
    let otherM = Infinity;
    for (const { i, m } of streets) {
      if (this.keyOf(this.streets, i) === own) ownM = Math.min(ownM, m);
      else otherM = Math.min(otherM, m);
    }
    return ownM > OWN_STREET_FAR_M && otherM <= OTHER_STREET_ON_M;
  }

  /**
   * The street a place is most likely on, of the named streets within STREET_REACH_M (`streets`):
   * the nearest, a main road (STREET_WEIGHT), a square (SQUARE_WEIGHT) and a street the neighbours'
   * addresses name (NAMED_BY_NEIGHBOURS_WEIGHT) counting as nearer, and an address point within
   * POINT_REACH_M counting as nearer still (POINT_WEIGHT): neighbours share their street more often
   * than the nearest street is the place's own, which at a corner it is only half the time. A place
   * on the wall of a building with an address takes that building's street before any (not its
   * number: a wall may be shared).
   */
  private streetNear(
    lat: number,
    lon: number,
    streets: { i: number; m: number }[],
  ): { street: string; postcode?: string; city?: string } | null {
    let best: { street: string; score: number; postcode?: string; city?: string } | null = null;
    const offer = (name: string, score: number, tags?: AddressTags) => {
      if (!best || score < best.score) best = { street: name, score, postcode: tags?.postcode, city: tags?.city };
    };
    for (const { i, m } of this.areas.near(lon, lat, ON_OUTLINE_M)) {
      // a building the place is in had its say (derive): only walls from outside count here
      if (m === 0 && this.areas.contains(i, lon, lat)) continue;
      const name = street(this.areas.tags[i]);
      if (name) offer(name, -Infinity, this.areas.tags[i]);
    }
    // with one street in reach (in one or more ways) there is nothing to weigh
    const first = streets.length > 0 ? this.keyOf(this.streets, streets[0].i) : null;
    const named = streets.some(({ i }) => this.keyOf(this.streets, i) !== first)
      ? this.namedByNeighbours(lat, lon)
      : null;
    for (const { i, m } of streets) {
      let weight = this.streetWeight(i);
      if (named?.has(this.keyOf(this.streets, i)!)) weight *= NAMED_BY_NEIGHBOURS_WEIGHT;
      offer(this.streets.tags[i].name!, m * weight);
    }
    for (const { i, m } of this.points.near(lon, lat, POINT_REACH_M)) {
      const name = street(this.points.tags[i]);
      if (name) offer(name, m * POINT_WEIGHT, this.points.tags[i]);
    }
    return best;
  }

  /**
   * The streets (as streetKey has them) that the address points and addressed areas around name:
   * those whose box comes within NEIGHBOURS_REACH_M (a box search, no distances: a place has
   * hundreds of neighbours in a town centre).
   */
  private namedByNeighbours(lat: number, lon: number): Set<string> {
    const named = new Set<string>();
    for (const layer of [this.points, this.areas])
      for (const i of layer.within(lon, lat, NEIGHBOURS_REACH_M)) {
        const key = this.keyOf(layer, i);
        if (key) named.add(key);
      }
    return named;
  }

  /** How much nearer street i counts for its class and for being a square, worked out once. */
  private streetWeight(i: number): number {
    let weight = this.streetWeights[i];
    if (weight === undefined) {
      const tags = this.streets.tags[i];
      weight = STREET_WEIGHT[tags.highway ?? ''] ?? 1;
      if (isSquareName(tags.name!)) weight = Math.min(weight, SQUARE_WEIGHT);
      this.streetWeights[i] = weight;
    }
    return weight;
  }

  /** A feature's street (a street's own name, else the street of its address) as streetKey has it, worked out once. */
  private keyOf(layer: Layer, i: number): string | null {
    let key = layer.keys[i];
    if (key === undefined) {
      const name = layer === this.streets ? layer.tags[i].name! : street(layer.tags[i]);
      key = layer.keys[i] = name ? streetKey(name) : null;
    }
    return key;
  }

  /** The smallest area with an address that the point is in. */
  private buildingAt(lat: number, lon: number): AddressTags | null {
    if (!this.areas.index) return null;
    let best = -1;
    for (const i of this.areas.index.search(lon, lat, lon, lat)) {
      if (!street(this.areas.tags[i])) continue;
      if ((best < 0 || this.areas.area[i] < this.areas.area[best]) && this.areas.contains(i, lon, lat)) best = i;
    }
    return best < 0 ? null : this.areas.tags[best];
  }

  /** The town the point is in: the locality whose extent holds it, nearest relative to its extent. */
  private townAt(lat: number, lon: number): string | null {
    if (!this.localities.index) return null;
    let best = -1;
    let bestRatio = Infinity;
    for (const i of this.localities.index.search(lon, lat, lon, lat)) {
      const ratio = this.localities.distanceM(i, lon, lat) / this.localities.extent[i];
      if (ratio <= 1 && ratio < bestRatio) [best, bestRatio] = [i, ratio];
    }
    return best < 0 ? null : this.localities.tags[best].name!;
  }

  private nearbyPostcode(lat: number, lon: number): string | null {
    for (const { i } of this.points.near(lon, lat, POSTCODE_REACH_M))
      if (this.points.tags[i].postcode) return this.points.tags[i].postcode!;
    return null;
  }
}
