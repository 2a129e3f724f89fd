// What an import keeps of the address context while it reads its input: address points and towns
// (nodes, with their position), buildings and areas with an address and named streets (ways, and
// multipolygons of ways), whose node positions the reader looks up with the places' own.
import type { Tags } from '../../model/categories.js';
import type { OsmElement } from '../import/types.js';
import type { Member } from '../../model/osm.js';
import { LOCALITY_EXTENT_M, type ContextFeature, type ContextKind } from '../../model/address-context.js';
import { addressTags, contextKind } from '../../model/address-features.js';

interface PendingWay {
  id: number;
  kind: ContextKind;
  tags: ContextFeature['tags'];
  refs: number[];
}

interface PendingRelation {
  id: number;
  tags: ContextFeature['tags'];
  ways: number[];
}

export class ContextGatherer {
  readonly features: ContextFeature[] = [];
  private readonly ways: PendingWay[] = [];
  private readonly relations: PendingRelation[] = [];

  /**
   * Looks at one element of the first pass; returns the node ids (a way's) or way ids (a
   * relation's) whose positions it will need, or null.
   */
  visit(element: OsmElement): { nodes?: number[]; ways?: number[] } | null {
    const tags: Tags | null = element.tags;
    if (!tags) return null;
    if (element.type === 'node') {
      const kind = contextKind('node', tags, false);
      if (!kind) return null;
      const feature: ContextFeature = { osmType: 'node', osmId: element.id, kind, coords: [element.lon, element.lat], tags: addressTags(tags) };
      if (kind === 'locality') feature.extentM = LOCALITY_EXTENT_M[tags.place];
      this.features.push(feature);
      return null;
    }
    if (element.type === 'way') {
      const refs = element.refs;
      if (!refs || refs.length < 2) return null;
      const kind = contextKind('way', tags, refs.length >= 4 && refs[0] === refs[refs.length - 1]);
      if (!kind) return null;
      this.ways.push({ id: element.id, kind, tags: addressTags(tags), refs });
      return { nodes: refs };
    }
    const members = element.members;
    if (!members || contextKind('relation', tags, false) !== 'area') return null;
    const ways = members.filter((m: Member) => m.type === 'way').map((m) => m.ref);
    if (ways.length === 0) return null;
    this.relations.push({ id: element.id, tags: addressTags(tags), ways });
    return { ways };
  }

  /** The features, once every needed position is known. */
  finish(nodeAt: (id: number) => [number, number] | undefined, wayRefs: (id: number) => number[] | undefined): ContextFeature[] {
    const line = (refs: number[]) => {
      const coords: number[] = [];
      for (const ref of refs) {
        const at = nodeAt(ref); // [lat, lon]
        if (at) coords.push(at[1], at[0]);
      }
      return coords;
    };
    for (const way of this.ways) {
      const coords = line(way.refs);
      if (coords.length < (way.kind === 'area' ? 6 : 4)) continue;
      const complete = coords.length === way.refs.length * 2;
      this.features.push({ osmType: 'way', osmId: way.id, kind: way.kind, coords, tags: way.tags, ...(complete ? { refs: way.refs } : {}) });
    }
    for (const relation of this.relations) {
      const coords: number[] = [];
      const parts: number[] = [];
      for (const id of relation.ways) {
        const refs = wayRefs(id);
        if (!refs) continue;
        const ring = line(refs);
        if (ring.length < 6) continue;
        parts.push(coords.length / 2);
        coords.push(...ring);
      }
      if (coords.length) this.features.push({ osmType: 'relation', osmId: relation.id, kind: 'area', coords, parts, tags: relation.tags });
    }
    this.ways.length = 0;
    this.relations.length = 0;
    return this.features;
  }
}
