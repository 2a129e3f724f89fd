// What an import keeps of the address context while it reads its input: address points and towns
// (nodes, with their position), buildings and areas with an address and named streets (ways, and
// multipolygons of ways). The reader hands them over with their geometry once it has read the
// node locations (import/collect.ts, ContextFeatures).
import type { Tags } from '../../model/categories.js';
import type { OsmType } from '../../model/osm.js';
import { LOCALITY_EXTENT_M, type ContextFeature } from '../../model/address-context.js';
import { addressTags, contextKind, contextTags } from '../../model/address-features.js';
import type { ContextFeatures } from '../import/collect.js';

/** Every context kind needs one of these keys (contextKind). */
const CONTEXT_KEYS: ReadonlySet<string> = new Set([
  'place',
  'addr:housenumber',
  'addr:street',
  'addr:place',
  'highway',
]);

/** The [lon, lat, ...] of the located points of a part of lat, lon pairs (NaN: a node not in the input). */
function lonLats(part: Float64Array): number[] {
  const coords: number[] = [];
  for (let i = 0; i + 1 < part.length; i += 2) {
    if (!Number.isNaN(part[i])) coords.push(part[i + 1], part[i]);
  }
  return coords;
}

export class ContextGatherer implements ContextFeatures {
  readonly features: ContextFeature[] = [];
  readonly keys = CONTEXT_KEYS;

  wants(type: OsmType, tags: Tags): boolean {
    if (type === 'relation') return contextKind('relation', tags, false) === 'area';
    // whether a way is closed is known only from its nodes (feature)
    return contextKind(type, tags, true) !== null;
  }

  kept(tags: Tags): Tags {
    return contextTags(tags);
  }

  feature(type: OsmType, id: number, tags: Tags, parts: Float64Array[], refs?: number[]): void {
    if (type === 'node') {
      const kind = contextKind('node', tags, false);
      const coords = parts[0] ? lonLats(parts[0]) : [];
      if (!kind || coords.length !== 2) return;
      const feature: ContextFeature = { osmType: 'node', osmId: id, kind, coords, tags: addressTags(tags) };
      if (kind === 'locality') feature.extentM = LOCALITY_EXTENT_M[tags.place];
      this.features.push(feature);
      return;
    }
    if (type === 'way') {
      // a way given by its centre only (no node ids) has no shape to look up
      if (!refs || refs.length < 2 || !parts[0]) return;
      const kind = contextKind('way', tags, refs.length >= 4 && refs[0] === refs[refs.length - 1]);
      if (!kind) return;
      const coords = lonLats(parts[0]);
      if (coords.length < (kind === 'area' ? 6 : 4)) return;
      const complete = coords.length === refs.length * 2;
      this.features.push({
        osmType: 'way',
        osmId: id,
        kind,
        coords,
        tags: addressTags(tags),
        ...(complete ? { refs } : {}),
      });
      return;
    }
    // a multipolygon's rings are its member ways; a node member or a way of fewer than 3 located
    // nodes makes no ring
    const coords: number[] = [];
    const starts: number[] = [];
    for (const part of parts) {
      const ring = lonLats(part);
      if (ring.length < 6) continue;
      starts.push(coords.length / 2);
      coords.push(...ring);
    }
    if (coords.length)
      this.features.push({
        osmType: 'relation',
        osmId: id,
        kind: 'area',
        coords,
        parts: starts,
        tags: addressTags(tags),
      });
  }
}
