// Reads one source into the writer. Nodes carry their point; ways and relations get the centre
// of their nodes' bounding box, which needs the nodes' coordinates. Files list nodes first, so
// the reader goes over the source up to three times, remembering only what the places need:
//   1. every element: places with a point are written; for ways and relations in a category,
//      the node and way ids they need are noted;
//   2. (only if relations need ways not yet seen) ways: the node ids of those ways;
//   3. (only if nodes are still missing) nodes: the coordinates of the noted nodes.
// Memory grows with the number of places kept, not with the size of the file.
import { categorize, CATEGORIES } from '../../model/categories.js';
import { toPlace } from '../../model/osm.js';
import { Bounds, boundsCenter, validLatLon } from './geometry.js';
import type { ElementSource, OsmElement, Tags } from './types.js';
import type { Member } from '../../model/osm.js';
import type { ImportWriter, PlaceShape } from '../../store/index.js';
import { ContextGatherer } from '../addresses/gather.js';
import type { ContextFeature } from '../../model/address-context.js';

export interface CollectStats {
  /** elements read in the first pass */
  elements: number;
  /** places written, per category id (a place counts in each of its categories) */
  perCategory: Record<string, number>;
  places: number;
  /** ways and relations in a category whose nodes are not in the input */
  withoutGeometry: number;
  passes: number;
  /** what addresses are derived from (addresses/gather.ts) */
  context: ContextFeature[];
}

export interface PassProgress {
  pass(number: number, of: number): void;
  update(done: number, total: number): void;
}

interface PendingWay {
  tags: Tags;
  mask: number;
  refs: number[];
  version: number | null;
}

interface PendingRelation {
  tags: Tags;
  mask: number;
  members: Member[];
  version: number | null;
}

export async function collect(source: ElementSource, writer: ImportWriter, progress?: PassProgress): Promise<CollectStats> {
  const stats: CollectStats = { elements: 0, perCategory: {}, places: 0, withoutGeometry: 0, passes: 0, context: [] };
  const context = new ContextGatherer();
  const pendingWays = new Map<number, PendingWay>();
  const pendingRelations = new Map<number, PendingRelation>();
  /** node id -> [lat, lon], filled for needed nodes only */
  const nodeCoords = new Map<number, [number, number]>();
  const neededNodes = new Set<number>();
  /** way id -> node ids, for ways that relations need */
  const wayRefs = new Map<number, number[]>();
  const neededWays = new Set<number>();

  const write = (element: OsmElement, lat: number, lon: number, tags: Tags, mask: number, shape: PlaceShape = { version: element.version }) => {
    if (!validLatLon(lat, lon)) {
      stats.withoutGeometry++;
      return;
    }
    const place = toPlace(element.type, element.id, lat, lon, tags, mask);
    if (!place) return;
    writer.add(place, shape);
    stats.places++;
    CATEGORIES.forEach((category, index) => {
      if (Math.floor(mask / 2 ** index) % 2 === 1) stats.perCategory[category.id] = (stats.perCategory[category.id] ?? 0) + 1;
    });
  };

  const needWays = (refs: number[]) => {
    for (const ref of refs) if (!nodeCoords.has(ref)) neededNodes.add(ref);
  };

  const scan = async (visit: (e: OsmElement) => void, options: { nodes: boolean; ways: boolean; relations: boolean }, passes: number) => {
    stats.passes++;
    progress?.pass(stats.passes, passes);
    await source.scan(visit, { ...options, onProgress: progress ? (done, total) => progress.update(done, total) : undefined });
  };

  // Pass 1 does not know yet how many passes there will be; "3" is the most it can take.
  await scan(
    (element) => {
      stats.elements++;
      if (element.type === 'node' && neededNodes.has(element.id)) nodeCoords.set(element.id, [element.lat, element.lon]);
      if (element.type === 'way' && neededWays.has(element.id) && element.refs) {
        wayRefs.set(element.id, element.refs);
        needWays(element.refs);
      }
      const needs = context.visit(element);
      if (needs?.nodes) needWays(needs.nodes);
      for (const id of needs?.ways ?? []) {
        const known = wayRefs.get(id);
        if (known) needWays(known);
        else neededWays.add(id);
      }
      const tags = element.tags;
      if (!tags) return;
      const mask = categorize(tags);
      if (mask === 0) {
        writer.drop(element.type, element.id);
        return;
      }
      if (element.type === 'node') return write(element, element.lat, element.lon, tags, mask);
      if (element.center) return write(element, element.center.lat, element.center.lon, tags, mask);
      if (element.type === 'way' && element.refs?.length) {
        pendingWays.set(element.id, { tags, mask, refs: element.refs, version: element.version ?? null });
        needWays(element.refs);
      } else if (element.type === 'relation' && element.members?.length) {
        pendingRelations.set(element.id, { tags, mask, members: element.members, version: element.version ?? null });
        for (const member of element.members) {
          if (member.type === 'node' && !nodeCoords.has(member.ref)) neededNodes.add(member.ref);
          if (member.type === 'way') {
            const known = pendingWays.get(member.ref)?.refs ?? wayRefs.get(member.ref);
            if (known) needWays(known);
            else neededWays.add(member.ref);
          }
        }
      } else stats.withoutGeometry++;
    },
    { nodes: true, ways: true, relations: true },
    3,
  );

  const missingWays = () => [...neededWays].some((id) => !wayRefs.has(id) && !pendingWays.has(id));
  if (missingWays()) {
    await scan(
      (element) => {
        if (element.type === 'way' && neededWays.has(element.id) && element.refs && !wayRefs.has(element.id)) {
          wayRefs.set(element.id, element.refs);
          needWays(element.refs);
        }
      },
      { nodes: false, ways: true, relations: false },
      3,
    );
  }
  if (nodeCoords.size < neededNodes.size) {
    await scan(
      (element) => {
        if (element.type === 'node' && neededNodes.has(element.id)) nodeCoords.set(element.id, [element.lat, element.lon]);
      },
      { nodes: true, ways: false, relations: false },
      stats.passes + 1,
    );
  }

  // Ways and relations are written with the nodes that place them, and those nodes' locations
  // are kept: a change file that moves only the nodes then moves the place (changes/plan.ts).
  const addNodes = (bounds: Bounds, refs: number[]) => {
    for (const ref of refs) {
      const point = nodeCoords.get(ref);
      if (point) bounds.add(point[0], point[1]);
    }
  };
  const kept = new Set<number>();
  const keepLocations = (nodes: number[]) => {
    for (const id of nodes) {
      const point = nodeCoords.get(id);
      if (point && !kept.has(id)) {
        kept.add(id);
        writer.nodeLocation(id, point[0], point[1]);
      }
    }
  };
  for (const [id, way] of pendingWays) {
    const bounds = new Bounds();
    addNodes(bounds, way.refs);
    const center = boundsCenter(bounds);
    if (!center) {
      stats.withoutGeometry++;
      continue;
    }
    const nodes = [...new Set(way.refs)];
    write({ type: 'way', id, tags: way.tags, refs: null, center: null }, center.lat, center.lon, way.tags, way.mask, { version: way.version, refs: way.refs, nodes });
    keepLocations(nodes);
  }
  for (const [id, relation] of pendingRelations) {
    const bounds = new Bounds();
    const nodes: number[] = [];
    for (const member of relation.members) {
      if (member.type === 'node') nodes.push(member.ref);
      else if (member.type === 'way') {
        const refs = pendingWays.get(member.ref)?.refs ?? wayRefs.get(member.ref) ?? [];
        nodes.push(...refs);
        if (!pendingWays.has(member.ref) && refs.length) writer.wayNodes(member.ref, refs);
      }
      // sub-relations are not followed: the outer ways of a place's own relation give its extent
    }
    addNodes(bounds, nodes);
    const center = boundsCenter(bounds);
    if (!center) {
      stats.withoutGeometry++;
      continue;
    }
    const unique = [...new Set(nodes)];
    write({ type: 'relation', id, tags: relation.tags, members: null, center: null }, center.lat, center.lon, relation.tags, relation.mask, { version: relation.version, members: relation.members, nodes: unique });
    keepLocations(unique);
  }
  stats.context = context.finish((id) => nodeCoords.get(id), (id) => pendingWays.get(id)?.refs ?? wayRefs.get(id));
  return stats;
}
