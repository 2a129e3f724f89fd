// Reads one source into the writer. Nodes carry their point; ways and relations get the centre
// of their nodes' bounding box, which needs the nodes' locations. The source is read by kind,
// in the order that lets each pass know what the next one needs:
//   1. relations: those in a category are kept with their members; the ways and nodes they need
//      are noted;
//   2. ways: those in a category are kept with their node ids, as are the ways relations need;
//      the node ids are noted;
//   3. nodes: places with a point are written; the locations of the noted nodes are kept.
// Then the ways and relations are written. Ids and locations are kept in typed arrays (16 bytes
// a needed node, node-store.ts), so memory grows with what the places use, not with the file.
// In a file ordered by type then id each pass reads only its part of the file (pbf.ts).
import { categorize, CATEGORIES, CATEGORY_KEYS } from '../../model/categories.js';
import { toPlace } from '../../model/osm.js';
import { Bounds, boundsCenter, validLatLon } from './geometry.js';
import { findSorted, GrowableIds, NO_LOCATION, NodeLocations, SortedIds } from './node-store.js';
import type { ElementSource, LatLon, NodeBatch, Tags, WayRefs } from './types.js';
import type { Member, OsmType } from '../../model/osm.js';
import type { ImportWriter, PlaceShape } from '../../store/index.js';

export interface CollectStats {
  /** elements read */
  elements: number;
  /** places written, per category id (a place counts in each of its categories) */
  perCategory: Record<string, number>;
  places: number;
  /** ways and relations in a category whose nodes are not in the input */
  withoutGeometry: number;
  passes: number;
  /** distinct nodes whose locations the ways and relations kept needed */
  neededNodes: number;
}

export interface PassProgress {
  pass(number: number, of: number): void;
  update(done: number, total: number): void;
}

/**
 * What else an import may gather in the same passes: features that are no places but that
 * places are described by (buildings with addresses, named streets, localities...). `wants` is
 * asked for each element with one of `keys`; the chosen ones are handed to `feature` with their
 * geometry at the end of the reading, as lat, lon pairs in degrees (NaN for a node not in the
 * input): a node as one part of one point, a way as one part, a relation as one part per member
 * in member order (a node member one point, a way member its nodes, a relation member none).
 * A way read with its nodes is handed to `way` when it is read, and the context holds it (a
 * country has a million such ways: not in this reader's memory); once the node locations are
 * read, `ways` is given the way to locate node ids, and hands each to `feature` with its ids.
 */
export interface ContextFeatures {
  keys: ReadonlySet<string>;
  wants(type: OsmType, tags: Tags): boolean;
  /** the part of a wanted relation's tags that `feature` reads: what is held of it until then */
  kept(tags: Tags): Tags;
  way(id: number, tags: Tags, refs: number[]): void;
  /** `locate`: a part of lat, lon pairs for node ids (NaN for a node not in the input) */
  ways(locate: (refs: ArrayLike<number>) => Float64Array): void;
  feature(type: OsmType, id: number, tags: Tags, parts: Float64Array[], refs?: number[]): void;
}

interface PendingWay {
  id: number;
  tags: Tags;
  mask: number;
  version: number | null;
  /** its node ids: refs.values[start, start + count) */
  start: number;
  count: number;
}

interface PendingRelation {
  id: number;
  tags: Tags;
  mask: number;
  context: boolean;
  members: Member[];
  version: number | null;
}

const PASSES = 3;

export async function collect(
  source: ElementSource,
  writer: ImportWriter,
  options: { progress?: PassProgress; context?: ContextFeatures } = {},
): Promise<CollectStats> {
  const { progress, context } = options;
  const stats: CollectStats = {
    elements: 0,
    perCategory: {},
    places: 0,
    withoutGeometry: 0,
    passes: 0,
    neededNodes: 0,
  };
  const keys = context ? new Set([...CATEGORY_KEYS, ...context.keys]) : CATEGORY_KEYS;
  const ascending = await source.ascendingIds();
  // Places the index has now: only those are worth a drop when the file has them in no category.
  const known = await writer.knownIds();
  const knownIds = {
    node: new SortedIds(known.node),
    way: new SortedIds(known.way),
    relation: new SortedIds(known.relation),
  };
  const dropIfKnown = (type: OsmType, id: number, inOrder: boolean) => {
    if (knownIds[type].size > 0 && knownIds[type].slot(id, inOrder) >= 0) writer.drop(type, id);
  };

  const write = (type: OsmType, id: number, lat: number, lon: number, tags: Tags, mask: number, shape: PlaceShape) => {
    if (!validLatLon(lat, lon)) {
      stats.withoutGeometry++;
      return;
    }
    const place = toPlace(type, id, lat, lon, tags, mask);
    if (!place) return;
    writer.add(place, shape);
    stats.places++;
    CATEGORIES.forEach((category, index) => {
      if (Math.floor(mask / 2 ** index) % 2 === 1)
        stats.perCategory[category.id] = (stats.perCategory[category.id] ?? 0) + 1;
    });
  };

  const scan = async (kind: 'nodes' | 'ways' | 'relations', visitor: Parameters<ElementSource['scan']>[0]) => {
    stats.passes++;
    progress?.pass(stats.passes, PASSES);
    await source.scan(visitor, {
      nodes: kind === 'nodes',
      ways: kind === 'ways',
      relations: kind === 'relations',
      keys,
      onProgress: progress ? (done, total) => progress.update(done, total) : undefined,
    });
  };

  const neededNodes = new GrowableIds('node ids');
  const neededWays = new GrowableIds('way ids');
  /** node ids of the kept ways, one after another */
  const refs = new GrowableIds('way node ids');
  const addRefs = (wayRefs: WayRefs): [number, number] => {
    const start = refs.length;
    refs.grow(start + wayRefs.count());
    wayRefs.forEach((ref) => {
      refs.push(ref);
      neededNodes.push(ref);
    });
    return [start, refs.length - start];
  };

  // 1. Relations
  const pendingRelations: PendingRelation[] = [];
  await scan('relations', {
    nodes() {},
    way() {},
    relation(id, tags, members, center, version) {
      stats.elements++;
      const mask = tags ? categorize(tags) : 0;
      const isContext = tags !== null && context !== undefined && context.wants('relation', tags);
      if (mask === 0 && !isContext) return dropIfKnown('relation', id, ascending);
      if (center) {
        if (mask) write('relation', id, center.lat, center.lon, tags!, mask, { version });
        if (isContext) context!.feature('relation', id, tags!, [Float64Array.of(center.lat, center.lon)]);
        return;
      }
      if (!members?.length) {
        if (mask) stats.withoutGeometry++;
        return;
      }
      // a relation kept only as context holds only the tags the context reads (memory, country-wide)
      pendingRelations.push({
        id,
        tags: mask ? tags! : context!.kept(tags!),
        mask,
        context: isContext,
        members,
        version,
      });
      for (const member of members) {
        if (member.type === 'node') neededNodes.push(member.ref);
        else if (member.type === 'way') neededWays.push(member.ref);
        // sub-relations are not followed: the outer ways of a place's own relation give its extent
      }
    },
  });

  // 2. Ways
  const memberWays = new SortedIds(neededWays.sortedUnique());
  /** per member way: where its node ids are in `refs` (-1: not in the input), and whether it is a place way */
  const memberStart = new Float64Array(memberWays.size).fill(-1);
  const memberCount = new Float64Array(memberWays.size);
  const memberIsPlace = new Uint8Array(memberWays.size);
  const pendingWays: PendingWay[] = [];
  memberWays.restart();
  await scan('ways', {
    nodes() {},
    relation() {},
    way(id, tags, wayRefs, center, version) {
      stats.elements++;
      const mask = tags ? categorize(tags) : 0;
      const isContext = tags !== null && context !== undefined && context.wants('way', tags);
      const member = memberWays.size ? memberWays.slot(id, ascending) : -1;
      if (mask === 0 && !isContext) dropIfKnown('way', id, ascending);
      let kept: [number, number] | null = null;
      if (mask || isContext) {
        if (center) {
          if (mask) write('way', id, center.lat, center.lon, tags!, mask, { version });
          if (isContext) context!.feature('way', id, tags!, [Float64Array.of(center.lat, center.lon)]);
        } else if (wayRefs && wayRefs.count() > 0) {
          if (isContext) {
            const ids: number[] = [];
            wayRefs.forEach((ref) => {
              ids.push(ref);
              neededNodes.push(ref);
            });
            context!.way(id, tags!, ids);
          }
          if (mask) {
            kept = addRefs(wayRefs);
            pendingWays.push({ id, tags: tags!, mask, version, start: kept[0], count: kept[1] });
            if (member >= 0) memberIsPlace[member] = 1;
          }
        } else if (mask) stats.withoutGeometry++;
      }
      if (member >= 0 && wayRefs) {
        kept ??= addRefs(wayRefs);
        memberStart[member] = kept[0];
        memberCount[member] = kept[1];
      }
    },
  });

  // 3. Nodes
  const nodes = new NodeLocations(neededNodes.sortedUnique());
  stats.neededNodes = nodes.size;
  nodes.restart();
  knownIds.node.restart();
  await scan('nodes', {
    way() {},
    relation() {},
    nodes(batch: NodeBatch) {
      const { ids, lats, lons, count } = batch;
      stats.elements += count;
      if (nodes.size > 0) {
        for (let i = 0; i < count; i++) {
          const slot = nodes.slot(ids[i], ascending);
          if (slot >= 0) nodes.set(slot, lats[i], lons[i]);
        }
      }
      let placed: Set<number> | null = null;
      for (let t = 0; t < batch.taggedCount; t++) {
        const i = batch.tagged[t];
        const tags = batch.tags(i);
        const mask = categorize(tags);
        const lat = lats[i] / 1e7;
        const lon = lons[i] / 1e7;
        if (mask) {
          write('node', ids[i], lat, lon, tags, mask, { version: batch.version(i) });
          (placed ??= new Set()).add(i);
        }
        if (context?.wants('node', tags)) context.feature('node', ids[i], tags, [Float64Array.of(lat, lon)]);
      }
      if (knownIds.node.size > 0) {
        for (let i = 0; i < count; i++) if (!placed?.has(i)) dropIfKnown('node', ids[i], ascending);
      }
    },
  });

  // Ways and relations are written with the nodes that place them, and those nodes' locations
  // are kept: a change file that moves only the nodes then moves the place (changes/plan.ts).
  // (handed to the writer at the end, in id order: an index takes them in faster that way)
  const kept = new Uint8Array(nodes.size);
  const keepLocations = (unique: number[]) => {
    for (const id of unique) {
      const slot = findSorted(nodes.ids, id);
      if (slot >= 0) kept[slot] = 1;
    }
  };
  const centerOf = (ids: ArrayLike<number>): LatLon | null => {
    const bounds = new Bounds();
    for (let i = 0; i < ids.length; i++) {
      const slot = findSorted(nodes.ids, ids[i]);
      if (slot >= 0 && nodes.lats[slot] !== NO_LOCATION) bounds.add(nodes.lats[slot] / 1e7, nodes.lons[slot] / 1e7);
    }
    return boundsCenter(bounds);
  };
  const pointsOf = (ids: ArrayLike<number>): Float64Array => {
    const points = new Float64Array(ids.length * 2).fill(NaN);
    for (let i = 0; i < ids.length; i++) {
      const slot = findSorted(nodes.ids, ids[i]);
      if (slot >= 0 && nodes.lats[slot] !== NO_LOCATION) {
        points[i * 2] = nodes.lats[slot] / 1e7;
        points[i * 2 + 1] = nodes.lons[slot] / 1e7;
      }
    }
    return points;
  };

  context?.ways(pointsOf);
  for (const way of pendingWays) {
    const wayRefs = refs.values.subarray(way.start, way.start + way.count);
    const center = centerOf(wayRefs);
    if (!center) {
      stats.withoutGeometry++;
      continue;
    }
    const list = Array.from(wayRefs);
    const unique = [...new Set(list)];
    write('way', way.id, center.lat, center.lon, way.tags, way.mask, {
      version: way.version,
      refs: list,
      nodes: unique,
    });
    keepLocations(unique);
  }
  const memberRefs = (ref: number): Float64Array | null => {
    const member = findSorted(memberWays.ids, ref);
    if (member < 0 || memberStart[member] < 0) return null;
    return refs.values.subarray(memberStart[member], memberStart[member] + memberCount[member]);
  };
  for (const relation of pendingRelations) {
    if (relation.context) {
      const parts = relation.members.map((m) =>
        m.type === 'node'
          ? pointsOf([m.ref])
          : m.type === 'way'
            ? pointsOf(memberRefs(m.ref) ?? [])
            : new Float64Array(0),
      );
      context!.feature('relation', relation.id, relation.tags, parts);
    }
    if (!relation.mask) continue;
    const ids: number[] = [];
    for (const member of relation.members) {
      if (member.type === 'node') ids.push(member.ref);
      else if (member.type === 'way') {
        const wayRefs = memberRefs(member.ref);
        if (!wayRefs?.length) continue;
        const list = Array.from(wayRefs);
        for (const ref of list) ids.push(ref);
        if (!memberIsPlace[findSorted(memberWays.ids, member.ref)]) writer.wayNodes(member.ref, list);
      }
    }
    const center = centerOf(ids);
    if (!center) {
      stats.withoutGeometry++;
      continue;
    }
    const unique = [...new Set(ids)];
    write('relation', relation.id, center.lat, center.lon, relation.tags, relation.mask, {
      version: relation.version,
      members: relation.members,
      nodes: unique,
    });
    keepLocations(unique);
  }
  for (let slot = 0; slot < nodes.size; slot++) {
    if (kept[slot] && nodes.lats[slot] !== NO_LOCATION)
      writer.nodeLocation(nodes.ids[slot], nodes.lats[slot] / 1e7, nodes.lons[slot] / 1e7);
  }
  return stats;
}
