// What a change file does to the index, worked out from the file and the stored state the plan
// asks for (index/types.ts ChangePlan): the same logic for both engines, which only read and write.
//
// - A node, way or relation in the file is replaced by its new version (unless the index holds a
//   newer one): new tags may put it in other categories or in none (then it goes), new coordinates
//   or a new node list move it. A delete removes it.
// - Ways and relations follow their nodes: the file moves a node without its way (diffs are not
//   referentially complete), so every place whose position that node feeds (place_nodes) is
//   recomputed from the stored node locations, as the importer computes it (bounding-box centre).
// - Where a location is unknown, the last good position stays, and it is counted.
import { categorize } from '../../model/categories.js';
import { Bounds, boundsCenter } from '../import/geometry.js';
import type { Member } from '../../model/osm.js';
import type { ChangePosition } from '../../search/change-feed.js';
import { toPlace, type PlaceRecord } from '../../model/osm.js';
import type {
  ChangeKnown,
  ChangeNeed,
  ChangePlan,
  ChangeWrites,
  PlaceShape,
  StoredChangePlace,
} from '../../store/types.js';
import { keyOf, type ChangedElement } from './parse.js';

export interface ChangeSummary {
  created: number;
  modified: number;
  deleted: number;
  /** elements of the file older than what the index holds */
  skippedOlder: number;
  /** places left where they were (or not created) because a node location was unknown */
  unknownLocations: number;
  /** places whose address was worked out again around what changed, and of them, changed */
  addresses?: { derived: number; changed: number };
  /** where the file's write left the change log (the store's `feed.caughtUp` takes it) */
  position?: ChangePosition;
}

export interface SourceUpdate {
  name: string;
  sequence: number | null;
  dataTimestamp: string | null;
  replicationUrl: string | null;
}

/** Positions are compared at OSM's precision. */
const samePoint = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) =>
  Math.abs(a.lat - b.lat) < 5e-8 && Math.abs(a.lon - b.lon) < 5e-8;

export function planChanges(
  elements: ChangedElement[],
  source: SourceUpdate,
  now: number,
  summary: ChangeSummary,
): ChangePlan {
  const fileNodes = new Map<number, ChangedElement>();
  const fileWays = new Map<number, ChangedElement>();
  for (const e of elements) {
    if (e.type === 'node') fileNodes.set(e.id, e);
    if (e.type === 'way') fileWays.set(e.id, e);
  }

  return (known: ChangeKnown) => {
    const need: ChangeNeed = { places: [], placeIds: [], nodes: [], ways: [], relations: [], users: [] };
    // Each getter answers what is known, or notes the need (undefined: not asked yet).
    const ask = <K, V>(map: Map<K, V>, key: K, list: K[]): V | undefined => {
      if (map.has(key)) return map.get(key);
      if (!list.includes(key)) list.push(key);
      return undefined;
    };
    const place = (e: { type: ChangedElement['type']; id: number }) =>
      ask(known.places, keyOf(e.type, e.id), need.places);
    const users = (nodeId: number) => ask(known.users, nodeId, need.users) ?? [];

    // A node's location now: from the file (null when deleted), else as stored.
    const location = (id: number): [number, number] | null | undefined => {
      const inFile = fileNodes.get(id);
      if (inFile) return inFile.action === 'delete' ? null : [inFile.lat, inFile.lon];
      return ask(known.nodes, id, need.nodes);
    };
    const wayRefs = (id: number): number[] | null | undefined => {
      const inFile = fileWays.get(id);
      if (inFile) return inFile.action === 'delete' ? null : inFile.refs;
      return ask(known.ways, id, need.ways);
    };
    /** The nodes feeding a shape, and its centre (null: some location unknown, or none at all). */
    const centreOf = (nodes: number[]): { centre: { lat: number; lon: number } | null; complete: boolean } => {
      const bounds = new Bounds();
      let complete = true;
      for (const id of nodes) {
        const point = location(id);
        if (point) bounds.add(point[0], point[1]);
        else complete = false;
      }
      return { centre: boundsCenter(bounds), complete };
    };
    const relationNodes = (members: Member[]): { nodes: number[]; complete: boolean } => {
      const nodes: number[] = [];
      let complete = true;
      for (const member of members) {
        if (member.type === 'node') nodes.push(member.ref);
        else if (member.type === 'way') {
          const refs = wayRefs(member.ref);
          if (refs) nodes.push(...refs);
          else complete = false;
        }
      }
      return { nodes, complete };
    };

    const writes: ChangeWrites = {
      source: { ...source, updatedAt: now },
      upserts: [],
      moves: [],
      removals: [],
      nodeLocations: [],
      deletedNodes: [],
      wayNodes: [],
      relationMembers: [],
      fetchedAt: now,
    };
    const counts: ChangeSummary = { created: 0, modified: 0, deleted: 0, skippedOlder: 0, unknownLocations: 0 };
    /** places handled as elements of the file: not recomputed again as dependents */
    const handled = new Set<number>();
    /** places whose nodes may have moved */
    const dependents = new Set<number>();

    for (const e of elements) {
      const stored = place(e);
      if (stored === undefined) continue;
      if (stored) handled.add(stored.id);
      if (stored && stored.version !== null && e.version !== null && e.version <= stored.version) {
        if (e.version < stored.version) counts.skippedOlder++;
        continue;
      }
      const mask = e.action === 'delete' || !e.tags ? 0 : categorize(e.tags);

      if (e.type === 'node') {
        // A node some place way or relation uses: its location is kept, and those places follow.
        const feeds = users(e.id);
        if (feeds.length > 0) {
          if (e.action === 'delete') writes.deletedNodes.push(e.id);
          else writes.nodeLocations.push([e.id, e.lat, e.lon]);
        }
        for (const id of feeds) dependents.add(id);
      }
      if (e.type === 'way' && e.action !== 'delete') {
        // A way some place relation uses keeps its node list; the places its old nodes fed follow.
        const before = ask(known.ways, e.id, need.ways);
        if (before) {
          writes.wayNodes.push([e.id, e.refs]);
          for (const node of before) for (const id of users(node)) dependents.add(id);
        }
      }

      if (mask === 0) {
        if (stored) {
          writes.removals.push(stored.id);
          counts.deleted++;
        }
        continue;
      }
      const shape: PlaceShape = { version: e.version };
      let at: { lat: number; lon: number } | null;
      if (e.type === 'node') at = { lat: e.lat, lon: e.lon };
      else {
        let nodes: number[];
        let complete: boolean;
        if (e.type === 'way') {
          nodes = e.refs;
          complete = true;
          shape.refs = e.refs;
        } else {
          ({ nodes, complete } = relationNodes(e.members));
          shape.members = e.members;
          writes.relationMembers.push([e.id, e.members]);
          for (const m of e.members) {
            const way = m.type === 'way' ? fileWays.get(m.ref) : undefined;
            if (way && way.action !== 'delete') writes.wayNodes.push([way.id, way.refs]);
          }
        }
        shape.nodes = [...new Set(nodes)];
        const found = centreOf(shape.nodes);
        complete &&= found.complete;
        // New nodes of the shape come with the file: keep their locations.
        for (const id of shape.nodes) {
          const inFile = fileNodes.get(id);
          if (inFile && inFile.action !== 'delete' && !writes.nodeLocations.some((n) => n[0] === id))
            writes.nodeLocations.push([id, inFile.lat, inFile.lon]);
        }
        if (!complete) counts.unknownLocations++;
        at = complete ? found.centre : (stored ?? found.centre);
        if (!at) continue; // nothing known of where it is: not created
        if (e.type === 'way') writes.wayNodes.push([e.id, e.refs]);
      }
      const record: PlaceRecord | null = toPlace(e.type, e.id, at.lat, at.lon, e.tags!, mask);
      if (!record) continue;
      writes.upserts.push({ place: record, shape });
      if (stored) counts.modified++;
      else counts.created++;
    }

    // Places whose nodes moved without them: recomputed from their stored shape.
    for (const id of dependents) {
      if (handled.has(id)) continue;
      const stored = ask(known.placeIds, id, need.placeIds);
      if (!stored) continue;
      let nodes: number[] | null = null;
      let complete = true;
      if (stored.osmType === 'way') nodes = wayRefs(stored.osmId) ?? null;
      else if (stored.osmType === 'relation') {
        const members = ask(known.relations, stored.osmId, need.relations);
        if (members) ({ nodes, complete } = relationNodes(members));
      }
      if (!nodes) {
        complete = false;
        nodes = [];
      }
      const found = centreOf(nodes);
      if (!complete || !found.complete || !found.centre) {
        counts.unknownLocations++;
        continue;
      }
      if (samePoint(found.centre, stored)) continue;
      writes.moves.push({ id, lat: found.centre.lat, lon: found.centre.lon });
      counts.modified++;
    }

    if (Object.values(need).some((list) => list.length > 0)) return { need };
    Object.assign(summary, counts);
    return { writes };
  };
}

export type { StoredChangePlace };
