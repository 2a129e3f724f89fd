// What an import keeps of the address context while it reads its input: address points and towns
// (nodes, with their position), buildings and areas with an address and named streets (ways, and
// multipolygons of ways). The reader hands them over with their geometry once it has read the
// node locations (import/collect.ts, ContextFeatures). A country has a million of them: each is
// written to a file as it comes, one JSON line, and read back as the store writes them.
import { closeSync, openSync, writeSync } from 'node:fs';
import { jsonLines } from '../../../shared/json-lines.js';
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

const BUFFER_BYTES = 1 << 20;

/**
 * A file of JSON lines, written as they come and read back as often as asked, through one buffer
 * each way (a country's context is hundreds of MB: no buffer of its own for each MB).
 */
class LineFile {
  private file: number | null;
  private buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;

  constructor(private readonly path: string) {
    this.file = openSync(path, 'w');
  }

  push(value: unknown): void {
    const line = `${JSON.stringify(value)}\n`;
    const bytes = Buffer.byteLength(line);
    if (this.used + bytes > this.buffer.length) this.flush();
    if (bytes > this.buffer.length) this.write(Buffer.from(line));
    else this.used += this.buffer.write(line, this.used);
  }

  /** Writes what is still held and closes the file. */
  finish(): void {
    try {
      this.flush();
    } finally {
      this.close();
    }
  }

  /** Closes the file, whatever is still held (an import that failed). */
  close(): void {
    if (this.file !== null) closeSync(this.file);
    this.file = null;
  }

  *read<T>(): Generator<T> {
    this.finish();
    const file = openSync(this.path, 'r');
    try {
      for (const line of jsonLines<T>(file)) yield line.value;
    } finally {
      closeSync(file);
    }
  }

  private flush(): void {
    if (this.used > 0) this.write(this.buffer.subarray(0, this.used));
    this.used = 0;
  }

  private write(data: Buffer): void {
    if (this.file === null) return;
    for (let written = 0; written < data.length;) written += writeSync(this.file, data, written);
  }
}

export class ContextGatherer implements ContextFeatures {
  readonly keys = CONTEXT_KEYS;
  /** the features, ready for the store */
  private readonly gathered: LineFile;
  /** ways with their node ids and context tags, until the node locations are read */
  private readonly pendingWays: LineFile;

  /** the file the features are kept in, one JSON line each (complete once `finish` is called) */
  readonly featuresFile: string;

  /** `path`: the start of the names of the files the features are kept in (the caller removes them) */
  constructor(path: string) {
    this.featuresFile = `${path}.features.jsonl`;
    this.gathered = new LineFile(this.featuresFile);
    this.pendingWays = new LineFile(`${path}.ways.jsonl`);
  }

  /** The features gathered, read from their file each time they are iterated (once the reading is done). */
  readonly features: Iterable<ContextFeature> = { [Symbol.iterator]: () => this.gathered.read<ContextFeature>() };

  /** The reading is done: what is still held is written. */
  finish(): void {
    this.pendingWays.finish();
    this.gathered.finish();
  }

  /** Closes the files (an import that failed). */
  close(): void {
    this.pendingWays.close();
    this.gathered.close();
  }

  way(id: number, tags: Tags, refs: number[]): void {
    this.pendingWays.push([id, contextTags(tags), refs]);
  }

  ways(locate: (refs: ArrayLike<number>) => Float64Array): void {
    for (const [id, tags, refs] of this.pendingWays.read<[number, Tags, number[]]>())
      this.feature('way', id, tags, [locate(refs)], refs);
  }

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
      this.gathered.push(feature);
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
      this.gathered.push({
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
      this.gathered.push({
        osmType: 'relation',
        osmId: id,
        kind: 'area',
        coords,
        parts: starts,
        tags: addressTags(tags),
      });
  }
}
