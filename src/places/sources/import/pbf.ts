// .osm.pbf reader: reads the file one blob at a time (at most 32 MB by the format's own rule),
// so memory does not grow with the file. Decodes the protobuf itself, and only the parts a pass
// needs: tags are decoded for tagged elements only, ways and relations are skipped in a nodes pass.
// Format: https://wiki.openstreetmap.org/wiki/PBF_Format
import { open, type FileHandle } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { ImportError, type ElementSource, type OsmElement, type ScanOptions, type Tags } from './types.js';
import type { Member, OsmType } from '../../model/osm.js';

const MAX_HEADER_BYTES = 64 * 1024;
const MAX_BLOB_BYTES = 32 * 1024 * 1024;
const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);
const MEMBER_TYPES: readonly OsmType[] = ['node', 'way', 'relation'];

/** A protobuf message reader over a byte range. */
class Proto {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get more(): boolean {
    return this.pos < this.end;
  }

  /** An unsigned varint up to 2^53 (ids, lengths), or a two's complement int64 when `signed`. */
  varint(signed = false): number {
    const buf = this.buf;
    let b = buf[this.pos++];
    let low = b & 0x7f;
    if (b < 0x80) return low;
    b = buf[this.pos++];
    low |= (b & 0x7f) << 7;
    if (b < 0x80) return low;
    b = buf[this.pos++];
    low |= (b & 0x7f) << 14;
    if (b < 0x80) return low;
    b = buf[this.pos++];
    low |= (b & 0x7f) << 21;
    if (b < 0x80) return low;
    b = buf[this.pos];
    low |= (b & 0x0f) << 28;
    let high = (b & 0x70) >> 4;
    this.pos++;
    if (b >= 0x80) {
      let shift = 3;
      for (let i = 0; i < 5; i++) {
        b = buf[this.pos++];
        high |= (b & 0x7f) << shift;
        if (b < 0x80) break;
        shift += 7;
        if (i === 4) throw new ImportError('corrupt protobuf varint');
      }
    }
    return signed ? high * 0x100000000 + (low >>> 0) : (high >>> 0) * 0x100000000 + (low >>> 0);
  }

  /** A zigzag-encoded sint32/sint64. */
  svarint(): number {
    const n = this.varint();
    return n % 2 === 1 ? -(n + 1) / 2 : n / 2;
  }

  /** Reads a field key; returns [field number, wire type]. */
  key(): [number, number] {
    const key = this.varint();
    return [Math.floor(key / 8), key & 7];
  }

  /** The byte range of a length-delimited field. */
  bytes(): [number, number] {
    const length = this.varint();
    const start = this.pos;
    this.pos += length;
    if (this.pos > this.end) throw new ImportError('corrupt protobuf: a field runs past its message');
    return [start, this.pos];
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) this.bytes();
    else if (wireType === 5) this.pos += 4;
    else throw new ImportError(`corrupt protobuf: unknown wire type ${wireType}`);
  }

  sub([start, end]: [number, number]): Proto {
    return new Proto(this.buf, start, end);
  }
}

/** The strings of one block, decoded on first use (most belong to untagged data we skip). */
class StringTable {
  private readonly cache: (string | undefined)[] = [];
  constructor(
    private readonly buf: Buffer,
    private readonly ranges: number[],
  ) {}
  get(index: number): string {
    let value = this.cache[index];
    if (value === undefined) {
      const start = this.ranges[index * 2];
      if (start === undefined) throw new ImportError(`corrupt block: string ${index} out of range`);
      value = this.buf.toString('utf8', start, this.ranges[index * 2 + 1]);
      this.cache[index] = value;
    }
    return value;
  }
}

function tagsFrom(keys: number[], values: number[], strings: StringTable): Tags | null {
  if (keys.length === 0) return null;
  const tags: Tags = {};
  for (let i = 0; i < keys.length; i++) tags[strings.get(keys[i])] = strings.get(values[i]);
  return tags;
}

function packedVarints(proto: Proto, range: [number, number]): number[] {
  const values: number[] = [];
  const p = proto.sub(range);
  while (p.more) values.push(p.varint());
  return values;
}

function packedDeltas(proto: Proto, range: [number, number]): number[] {
  const values: number[] = [];
  const p = proto.sub(range);
  let value = 0;
  while (p.more) {
    value += p.svarint();
    values.push(value);
  }
  return values;
}

interface BlockGeometry {
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

/** Nanodegree integers to degrees, rounded to OSM's 7 decimals. */
function degrees(offset: number, granularity: number, value: number): number {
  return Math.round((offset + granularity * value) / 100) / 1e7;
}

function readDenseNodes(p: Proto, strings: StringTable, g: BlockGeometry, visit: (e: OsmElement) => void): void {
  let ids: [number, number] | null = null;
  let lats: [number, number] | null = null;
  let lons: [number, number] | null = null;
  let keysVals: [number, number] | null = null;
  let versions: number[] = [];
  while (p.more) {
    const [field, wire] = p.key();
    if (field === 5 && wire === 2) versions = denseVersions(p, p.bytes());
    else if (field === 1 && wire === 2) ids = p.bytes();
    else if (field === 8 && wire === 2) lats = p.bytes();
    else if (field === 9 && wire === 2) lons = p.bytes();
    else if (field === 10 && wire === 2) keysVals = p.bytes();
    else p.skip(wire);
  }
  if (!ids || !lats || !lons) return;
  const idReader = p.sub(ids);
  const latReader = p.sub(lats);
  const lonReader = p.sub(lons);
  const kvReader = keysVals ? p.sub(keysVals) : null;
  let id = 0;
  let lat = 0;
  let lon = 0;
  let n = 0;
  while (idReader.more) {
    id += idReader.svarint();
    lat += latReader.svarint();
    lon += lonReader.svarint();
    let tags: Tags | null = null;
    if (kvReader?.more) {
      // keys_vals: key, value pairs per node, each node's list ended by a 0
      for (let key = kvReader.varint(); key !== 0; key = kvReader.varint()) {
        (tags ??= {})[strings.get(key)] = strings.get(kvReader.varint());
      }
    }
    visit({ type: 'node', id, lat: degrees(g.latOffset, g.granularity, lat), lon: degrees(g.lonOffset, g.granularity, lon), tags, version: versions[n++] ?? null });
  }
}

/** DenseInfo's versions (field 1, packed, not delta-coded). */
function denseVersions(p: Proto, range: [number, number]): number[] {
  const info = p.sub(range);
  while (info.more) {
    const [field, wire] = info.key();
    if (field === 1 && wire === 2) return packedVarints(info, info.bytes());
    info.skip(wire);
  }
  return [];
}

/** Info's version (field 1), for nodes, ways and relations. */
function infoVersion(p: Proto, range: [number, number]): number | null {
  const info = p.sub(range);
  while (info.more) {
    const [field, wire] = info.key();
    if (field === 1 && wire === 0) return info.varint();
    info.skip(wire);
  }
  return null;
}

function readNode(p: Proto, strings: StringTable, g: BlockGeometry): OsmElement {
  let version: number | null = null;
  let id = 0;
  let lat = 0;
  let lon = 0;
  let keys: number[] = [];
  let values: number[] = [];
  while (p.more) {
    const [field, wire] = p.key();
    if (field === 1) id = p.svarint();
    else if (field === 2 && wire === 2) keys = packedVarints(p, p.bytes());
    else if (field === 3 && wire === 2) values = packedVarints(p, p.bytes());
    else if (field === 4 && wire === 2) version = infoVersion(p, p.bytes());
    else if (field === 8) lat = p.svarint();
    else if (field === 9) lon = p.svarint();
    else p.skip(wire);
  }
  return { type: 'node', id, lat: degrees(g.latOffset, g.granularity, lat), lon: degrees(g.lonOffset, g.granularity, lon), tags: tagsFrom(keys, values, strings), version };
}

function readWay(p: Proto, strings: StringTable): OsmElement {
  let version: number | null = null;
  let id = 0;
  let keys: number[] = [];
  let values: number[] = [];
  let refs: number[] = [];
  while (p.more) {
    const [field, wire] = p.key();
    if (field === 1) id = p.varint(true);
    else if (field === 2 && wire === 2) keys = packedVarints(p, p.bytes());
    else if (field === 3 && wire === 2) values = packedVarints(p, p.bytes());
    else if (field === 4 && wire === 2) version = infoVersion(p, p.bytes());
    else if (field === 8 && wire === 2) refs = packedDeltas(p, p.bytes());
    else p.skip(wire);
  }
  return { type: 'way', id, tags: tagsFrom(keys, values, strings), refs, center: null, version };
}

function readRelation(p: Proto, strings: StringTable): OsmElement {
  let version: number | null = null;
  let id = 0;
  let keys: number[] = [];
  let values: number[] = [];
  let memberIds: number[] = [];
  let memberTypes: number[] = [];
  while (p.more) {
    const [field, wire] = p.key();
    if (field === 1) id = p.varint(true);
    else if (field === 2 && wire === 2) keys = packedVarints(p, p.bytes());
    else if (field === 3 && wire === 2) values = packedVarints(p, p.bytes());
    else if (field === 9 && wire === 2) memberIds = packedDeltas(p, p.bytes());
    else if (field === 10 && wire === 2) memberTypes = packedVarints(p, p.bytes());
    else if (field === 4 && wire === 2) version = infoVersion(p, p.bytes());
    else p.skip(wire);
  }
  const members: Member[] = memberIds.map((ref, i) => ({ type: MEMBER_TYPES[memberTypes[i]] ?? 'relation', ref }));
  return { type: 'relation', id, tags: tagsFrom(keys, values, strings), members, center: null, version };
}

function readPrimitiveBlock(data: Buffer, options: ScanOptions, visit: (e: OsmElement) => void): void {
  const block = new Proto(data);
  const groups: [number, number][] = [];
  const stringRanges: number[] = [];
  const g: BlockGeometry = { granularity: 100, latOffset: 0, lonOffset: 0 };
  while (block.more) {
    const [field, wire] = block.key();
    if (field === 1 && wire === 2) {
      const table = block.sub(block.bytes());
      while (table.more) {
        const [f, w] = table.key();
        if (f === 1 && w === 2) stringRanges.push(...table.bytes());
        else table.skip(w);
      }
    } else if (field === 2 && wire === 2) groups.push(block.bytes());
    else if (field === 17) g.granularity = block.varint(true);
    else if (field === 19) g.latOffset = block.varint(true);
    else if (field === 20) g.lonOffset = block.varint(true);
    else block.skip(wire);
  }
  const strings = new StringTable(data, stringRanges);
  for (const range of groups) {
    const group = block.sub(range);
    while (group.more) {
      const [field, wire] = group.key();
      if (wire !== 2) {
        group.skip(wire);
        continue;
      }
      const item = group.bytes();
      if (field === 1 && options.nodes) visit(readNode(group.sub(item), strings, g));
      else if (field === 2 && options.nodes) readDenseNodes(group.sub(item), strings, g, visit);
      else if (field === 3 && options.ways) visit(readWay(group.sub(item), strings));
      else if (field === 4 && options.relations) visit(readRelation(group.sub(item), strings));
    }
  }
}

function checkHeaderBlock(data: Buffer, label: string): void {
  const p = new Proto(data);
  while (p.more) {
    const [field, wire] = p.key();
    if (field === 4 && wire === 2) {
      const [start, end] = p.bytes();
      const feature = data.toString('utf8', start, end);
      if (!SUPPORTED_FEATURES.has(feature)) {
        throw new ImportError(`${label}: needs the PBF feature "${feature}", which this importer does not support`);
      }
    } else p.skip(wire);
  }
}

/** The payload of a Blob message, decompressed. */
function blobData(blob: Buffer, label: string): Buffer {
  const p = new Proto(blob);
  while (p.more) {
    const [field, wire] = p.key();
    if (field === 1 && wire === 2) {
      const [start, end] = p.bytes();
      return blob.subarray(start, end);
    }
    if (field === 3 && wire === 2) {
      const [start, end] = p.bytes();
      try {
        return inflateSync(blob.subarray(start, end));
      } catch (error) {
        throw new ImportError(`${label}: a data block does not decompress (${(error as Error).message}); the file is damaged`);
      }
    }
    if (field >= 4 && field <= 7) {
      const kind = { 4: 'lzma', 5: 'bzip2', 6: 'lz4', 7: 'zstd' }[field];
      throw new ImportError(`${label}: uses ${kind} compression; only zlib and uncompressed PBF blocks are supported`);
    }
    p.skip(wire);
  }
  throw new ImportError(`${label}: a data block has no data`);
}

async function readExactly(file: FileHandle, position: number, length: number, label: string): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) throw new ImportError(`${label}: the file ends in the middle of a block; it is truncated`);
    done += bytesRead;
  }
  return buffer;
}

export function pbfSource(path: string, label = path): ElementSource {
  return {
    label,
    async scan(visit, options) {
      let file: FileHandle;
      try {
        file = await open(path, 'r');
      } catch (error) {
        throw new ImportError(`${label}: cannot open (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      }
      try {
        const size = (await file.stat()).size;
        let position = 0;
        let sawHeader = false;
        while (position < size) {
          const headerLength = (await readExactly(file, position, 4, label)).readUInt32BE(0);
          if (headerLength === 0 || headerLength > MAX_HEADER_BYTES) {
            throw new ImportError(`${label}: not an OSM PBF file (bad block header at byte ${position})`);
          }
          const header = new Proto(await readExactly(file, position + 4, headerLength, label));
          let type = '';
          let dataSize = -1;
          while (header.more) {
            const [field, wire] = header.key();
            if (field === 1 && wire === 2) {
              const [start, end] = header.bytes();
              type = (header.buf as Buffer).toString('utf8', start, end);
            } else if (field === 3 && wire === 0) dataSize = header.varint();
            else header.skip(wire);
          }
          if (!type || dataSize < 0 || dataSize > MAX_BLOB_BYTES) {
            throw new ImportError(`${label}: not an OSM PBF file (bad block header at byte ${position})`);
          }
          const blobStart = position + 4 + headerLength;
          if (type === 'OSMHeader' || type === 'OSMData') {
            const data = blobData(await readExactly(file, blobStart, dataSize, label), label);
            if (type === 'OSMHeader') {
              checkHeaderBlock(data, label);
              sawHeader = true;
            } else {
              if (!sawHeader) throw new ImportError(`${label}: not an OSM PBF file (no OSMHeader block first)`);
              readPrimitiveBlock(data, options, visit);
            }
          }
          position = blobStart + dataSize;
          options.onProgress?.(Math.min(position, size), size);
        }
        if (!sawHeader) throw new ImportError(`${label}: not an OSM PBF file (it is empty)`);
      } catch (error) {
        if (error instanceof ImportError) throw error;
        if (error instanceof RangeError) throw new ImportError(`${label}: the file is damaged (${error.message})`);
        throw error;
      } finally {
        await file.close();
      }
    },
  };
}

/** The replication state an extract's header names (Geofabrik's extracts carry it). */
export interface PbfReplication {
  baseUrl: string | null;
  sequence: number | null;
  /** ISO 8601 */
  timestamp: string | null;
}

/** Reads the header block's osmosis_replication_* fields (32 timestamp, 33 sequence, 34 base URL). */
export async function readPbfReplication(path: string, label = path): Promise<PbfReplication> {
  const file = await open(path, 'r');
  try {
    const headerLength = (await readExactly(file, 0, 4, label)).readUInt32BE(0);
    if (headerLength === 0 || headerLength > MAX_HEADER_BYTES) throw new ImportError(`${label}: not an OSM PBF file (bad block header at byte 0)`);
    const header = new Proto(await readExactly(file, 4, headerLength, label));
    let dataSize = -1;
    while (header.more) {
      const [field, wire] = header.key();
      if (field === 3 && wire === 0) dataSize = header.varint();
      else header.skip(wire);
    }
    if (dataSize < 0 || dataSize > MAX_BLOB_BYTES) throw new ImportError(`${label}: not an OSM PBF file (bad block header at byte 0)`);
    const data = blobData(await readExactly(file, 4 + headerLength, dataSize, label), label);
    const p = new Proto(data);
    const state: PbfReplication = { baseUrl: null, sequence: null, timestamp: null };
    while (p.more) {
      const [field, wire] = p.key();
      if (field === 32 && wire === 0) state.timestamp = new Date(p.varint() * 1000).toISOString().replace('.000Z', 'Z');
      else if (field === 33 && wire === 0) state.sequence = p.varint();
      else if (field === 34 && wire === 2) {
        const [start, end] = p.bytes();
        state.baseUrl = data.toString('utf8', start, end) || null;
      } else p.skip(wire);
    }
    return state;
  } finally {
    await file.close();
  }
}
