// What every reader produces: OSM elements, in the reader's own order, one pass at a time.
import type { Member } from '../../model/osm.js';

export type Tags = Record<string, string>;

export interface LatLon {
  lat: number;
  lon: number;
}

/** `center` is set when the source already reduced a way or relation to a point. */
/** `version`: the OSM version, when the input carries it. */
export type OsmElement =
  | { type: 'node'; id: number; lat: number; lon: number; tags: Tags | null; version?: number | null }
  | {
      type: 'way';
      id: number;
      tags: Tags | null;
      refs: number[] | null;
      center: LatLon | null;
      version?: number | null;
    }
  | {
      type: 'relation';
      id: number;
      tags: Tags | null;
      members: Member[] | null;
      center: LatLon | null;
      version?: number | null;
    };

/**
 * A run of nodes as typed arrays: a nodes pass touches every node of the file, most of them
 * untagged, so they come without an object each. Valid only during the call that gives it.
 */
export interface NodeBatch {
  count: number;
  ids: Float64Array;
  /** 1e-7 degrees, OSM's precision */
  lats: Int32Array;
  lons: Int32Array;
  /** the positions in this batch of the nodes with tags the scan asked for */
  tagged: Int32Array;
  taggedCount: number;
  /** all the tags of a node listed in `tagged` */
  tags(i: number): Tags;
  /** the version of a node listed in `tagged` */
  version(i: number): number | null;
}

/** A way's node ids, in order. */
export interface WayRefs {
  count(): number;
  /** calls `add` with each node id in order */
  forEach(add: (ref: number) => void): void;
}

/** What a scan hands its elements to, by kind. */
export interface ElementVisitor {
  nodes(batch: NodeBatch): void;
  way(id: number, tags: Tags | null, refs: WayRefs | null, center: LatLon | null, version: number | null): void;
  /** `members` is given for relations with tags the scan asked for */
  relation(
    id: number,
    tags: Tags | null,
    members: Member[] | null,
    center: LatLon | null,
    version: number | null,
  ): void;
}

export interface ScanOptions {
  /** Element types the caller needs this pass; readers skip the others, unread where they can. */
  nodes: boolean;
  ways: boolean;
  relations: boolean;
  /**
   * Tags are given only for elements with one of these keys (null for the others), and all of
   * their tags then; every element's tags when absent.
   */
  keys?: ReadonlySet<string>;
  /** Called now and then with the bytes read so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

/** A readable input. `scan` may be called several times, each time for other element types. */
export interface ElementSource {
  label: string;
  /** Whether the nodes of a scan come in ascending id order (an ordered file says so). */
  ascendingIds(): Promise<boolean>;
  scan(visitor: ElementVisitor, options: ScanOptions): Promise<void>;
}

/** A problem with an input, with a message meant for the person who gave it. */
export class ImportError extends Error {
  override name = 'ImportError';
}
