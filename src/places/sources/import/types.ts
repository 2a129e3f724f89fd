// What every reader produces: OSM elements, in the reader's own order, one pass at a time.
import type { Member, OsmType } from '../../model/osm.js';

export type Tags = Record<string, string>;

export interface LatLon {
  lat: number;
  lon: number;
}

/** `center` is set when the source already reduced a way or relation to a point. */
/** `version`: the OSM version, when the input carries it. */
export type OsmElement =
  | { type: 'node'; id: number; lat: number; lon: number; tags: Tags | null; version?: number | null }
  | { type: 'way'; id: number; tags: Tags | null; refs: number[] | null; center: LatLon | null; version?: number | null }
  | { type: 'relation'; id: number; tags: Tags | null; members: Member[] | null; center: LatLon | null; version?: number | null };

export interface ScanOptions {
  /** Element types the caller needs this pass; readers may skip decoding the others. */
  nodes: boolean;
  ways: boolean;
  relations: boolean;
  /** Called now and then with the bytes read so far and the total. */
  onProgress?: (done: number, total: number) => void;
}

/** A readable input. `scan` may be called several times: ways need a second look at nodes. */
export interface ElementSource {
  label: string;
  scan(visit: (element: OsmElement) => void, options: ScanOptions): Promise<void>;
}

/** A problem with an input, with a message meant for the person who gave it. */
export class ImportError extends Error {
  override name = 'ImportError';
}
