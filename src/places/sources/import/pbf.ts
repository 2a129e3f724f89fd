// .osm.pbf reader: reads the file one blob at a time (at most 32 MB by the format's own rule),
// so memory does not grow with the file. Decodes the protobuf itself, and only the parts a pass
// needs: nodes come as typed arrays, tags are decoded only for elements with a key the pass asked
// for. A decoder thread (pbf-decoder.ts) reads, inflates and decodes the blobs a few ahead of the
// one the visitor is given, and hands each back as typed arrays moved between the threads, so
// the caller's thread spends its time on the elements, not on zlib and varints; the blobs come
// back in file order.
//
// Which element types each blob holds is learnt the first time it is inflated. In a file ordered
// by type then id (its header says so: osmium, osmconvert and Geofabrik write such files), the
// blobs where ways and relations start are found by a binary search over a handful of blobs, so
// a pass reads only the blobs of its types: the relations, the ways and the nodes passes together
// inflate the file once. In an unordered file the first pass reads every blob, the next ones
// only those that hold their types.
// Format: https://wiki.openstreetmap.org/wiki/PBF_Format
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { Worker, type MessagePort } from 'node:worker_threads';
import { inflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import {
  ImportError,
  type ElementSource,
  type ElementVisitor,
  type LatLon,
  type NodeBatch,
  type ScanOptions,
  type Tags,
  type WayRefs,
} from './types.js';
import type { Member, OsmType } from '../../model/osm.js';

const MAX_HEADER_BYTES = 64 * 1024;
const MAX_BLOB_BYTES = 32 * 1024 * 1024;
const SUPPORTED_FEATURES = new Set(['OsmSchema-V0.6', 'DenseNodes']);
const ORDERED_FEATURE = 'Sort.Type_then_ID';
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

/** The strings of one block, decoded on first use (most belong to data a pass skips). */
class StringTable {
  private readonly cache: (string | undefined)[] = [];
  /** per string: 0 not looked at yet, 1 a key the scan asked for, 2 another */
  private readonly wanted: Uint8Array;
  constructor(
    private readonly buf: Buffer,
    private readonly ranges: number[],
    private readonly keys: ReadonlySet<string> | undefined,
  ) {
    this.wanted = new Uint8Array(ranges.length / 2);
  }

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

  /** Whether string `index`, as a key, is one the scan asked for (any key when none were named). */
  isWantedKey(index: number): boolean {
    if (!this.keys) return true;
    let flag = this.wanted[index];
    if (flag === 0) {
      flag = this.keys.has(this.get(index)) ? 1 : 2;
      this.wanted[index] = flag;
    }
    return flag === 1;
  }
}

/** Whether any key of a packed key list is wanted (the list is read, not kept). */
function anyWantedKey(proto: Proto, range: [number, number] | null, strings: StringTable): boolean {
  if (!range) return false;
  const p = proto.sub(range);
  while (p.more) if (strings.isWantedKey(p.varint())) return true;
  return false;
}

function tagsFrom(proto: Proto, keys: [number, number], values: [number, number] | null, strings: StringTable): Tags {
  const tags: Tags = {};
  const k = proto.sub(keys);
  const v = values ? proto.sub(values) : null;
  while (k.more) {
    const key = strings.get(k.varint());
    if (!v?.more) throw new ImportError('corrupt block: a key without a value');
    tags[key] = strings.get(v.varint());
  }
  return tags;
}

/** A block's geometry fields: coordinates are offset + granularity * value, in nanodegrees. */
interface BlockGeometry {
  granularity: number;
  latOffset: number;
  lonOffset: number;
}

/** Nanodegree integers to OSM's 1e-7 degree integers. */
function fixed(offset: number, granularity: number, value: number): number {
  return Math.round((offset + granularity * value) / 100);
}

/** The nodes of a block, in typed arrays reused from block to block. */
class DenseBatch implements NodeBatch {
  count = 0;
  ids = new Float64Array(8192);
  lats = new Int32Array(8192);
  lons = new Int32Array(8192);
  tagged = new Int32Array(8192);
  taggedCount = 0;
  /** for each node, where its keys_vals start */
  private tagStarts = new Int32Array(8192);
  private proto: Proto | null = null;
  private strings: StringTable | null = null;
  private versionsRange: [number, number] | null = null;
  private versions: number[] | null = null;
  private keysVals: [number, number] = [0, 0];

  reset(capacity: number, proto: Proto, strings: StringTable): void {
    if (capacity > this.ids.length) {
      this.ids = new Float64Array(capacity);
      this.lats = new Int32Array(capacity);
      this.lons = new Int32Array(capacity);
      this.tagged = new Int32Array(capacity);
      this.tagStarts = new Int32Array(capacity);
    }
    this.count = 0;
    this.taggedCount = 0;
    this.proto = proto;
    this.strings = strings;
    this.versionsRange = null;
    this.versions = null;
  }

  read(p: Proto, g: BlockGeometry): void {
    let ids: [number, number] | null = null;
    let lats: [number, number] | null = null;
    let lons: [number, number] | null = null;
    let keysVals: [number, number] | null = null;
    while (p.more) {
      const [field, wire] = p.key();
      if (field === 1 && wire === 2) ids = p.bytes();
      else if (field === 5 && wire === 2) this.versionsRange = p.bytes();
      else if (field === 8 && wire === 2) lats = p.bytes();
      else if (field === 9 && wire === 2) lons = p.bytes();
      else if (field === 10 && wire === 2) keysVals = p.bytes();
      else p.skip(wire);
    }
    if (!ids || !lats || !lons) return;
    const idReader = p.sub(ids);
    const latReader = p.sub(lats);
    const lonReader = p.sub(lons);
    const kv = keysVals ? p.sub(keysVals) : null;
    if (keysVals) this.keysVals = keysVals;
    const plain = g.granularity === 100 && g.latOffset === 0 && g.lonOffset === 0;
    const strings = this.strings!;
    let id = 0;
    let lat = 0;
    let lon = 0;
    let n = 0;
    while (idReader.more) {
      id += idReader.svarint();
      lat += latReader.svarint();
      lon += lonReader.svarint();
      if (n === this.ids.length) throw new ImportError('corrupt block: more nodes than its id list holds');
      this.ids[n] = id;
      this.lats[n] = plain ? lat : fixed(g.latOffset, g.granularity, lat);
      this.lons[n] = plain ? lon : fixed(g.lonOffset, g.granularity, lon);
      // keys_vals: key, value pairs per node, each node's list ended by a 0
      if (kv?.more) {
        const start = kv.pos;
        let wanted = false;
        for (let key = kv.varint(); key !== 0; key = kv.varint()) {
          if (!wanted && strings.isWantedKey(key)) wanted = true;
          kv.varint();
        }
        if (wanted) {
          this.tagged[this.taggedCount++] = n;
          this.tagStarts[n] = start;
        }
      }
      n++;
    }
    this.count = n;
  }

  tags(i: number): Tags {
    const kv = this.proto!.sub(this.keysVals);
    kv.pos = this.tagStarts[i];
    const tags: Tags = {};
    const strings = this.strings!;
    for (let key = kv.varint(); key !== 0; key = kv.varint()) tags[strings.get(key)] = strings.get(kv.varint());
    return tags;
  }

  version(i: number): number | null {
    if (!this.versions) this.versions = this.versionsRange ? denseVersions(this.proto!, this.versionsRange) : [];
    return this.versions[i] ?? null;
  }
}

/** A packed varint field's length in ids, by counting its last bytes. */
function packedCount(buf: Uint8Array, [start, end]: [number, number]): number {
  let n = 0;
  for (let i = start; i < end; i++) if (buf[i] < 0x80) n++;
  return n;
}

/** A way's delta-coded node ids, decoded on demand. */
class PackedRefs implements WayRefs {
  constructor(
    private readonly proto: Proto,
    private readonly range: [number, number] | null,
  ) {}

  count(): number {
    return this.range ? packedCount(this.proto.buf, this.range) : 0;
  }

  forEach(add: (ref: number) => void): void {
    if (!this.range) return;
    const p = this.proto.sub(this.range);
    let value = 0;
    while (p.more) {
      value += p.svarint();
      add(value);
    }
  }
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
function infoVersion(p: Proto, range: [number, number] | null): number | null {
  if (!range) return null;
  const info = p.sub(range);
  while (info.more) {
    const [field, wire] = info.key();
    if (field === 1 && wire === 0) return info.varint();
    info.skip(wire);
  }
  return null;
}

/** A non-dense node, handed over as a batch of one. */
function readNode(p: Proto, strings: StringTable, g: BlockGeometry, visitor: ElementVisitor): void {
  let info: [number, number] | null = null;
  let id = 0;
  let lat = 0;
  let lon = 0;
  let keys: [number, number] | null = null;
  let values: [number, number] | null = null;
  while (p.more) {
    const [field, wire] = p.key();
    if (field === 1) id = p.svarint();
    else if (field === 2 && wire === 2) keys = p.bytes();
    else if (field === 3 && wire === 2) values = p.bytes();
    else if (field === 4 && wire === 2) info = p.bytes();
    else if (field === 8) lat = p.svarint();
    else if (field === 9) lon = p.svarint();
    else p.skip(wire);
  }
  const tags = keys && anyWantedKey(p, keys, strings) ? tagsFrom(p, keys, values, strings) : null;
  const version = tags ? infoVersion(p, info) : null;
  const single: NodeBatch = {
    count: 1,
    ids: Float64Array.of(id),
    lats: Int32Array.of(fixed(g.latOffset, g.granularity, lat)),
    lons: Int32Array.of(fixed(g.lonOffset, g.granularity, lon)),
    tagged: tags ? Int32Array.of(0) : new Int32Array(0),
    taggedCount: tags ? 1 : 0,
    tags: () => tags!,
    version: () => version,
  };
  visitor.nodes(single);
}

function readWay(p: Proto, strings: StringTable, visitor: ElementVisitor): void {
  let info: [number, number] | null = null;
  let id = 0;
  let keys: [number, number] | null = null;
  let values: [number, number] | null = null;
  let refs: [number, number] | null = null;
  while (p.more) {
    const [field, wire] = p.key();
    if (field === 1) id = p.varint(true);
    else if (field === 2 && wire === 2) keys = p.bytes();
    else if (field === 3 && wire === 2) values = p.bytes();
    else if (field === 4 && wire === 2) info = p.bytes();
    else if (field === 8 && wire === 2) refs = p.bytes();
    else p.skip(wire);
  }
  const tags = keys && anyWantedKey(p, keys, strings) ? tagsFrom(p, keys, values, strings) : null;
  visitor.way(id, tags, new PackedRefs(p, refs), null, tags ? infoVersion(p, info) : null);
}

function readRelation(p: Proto, strings: StringTable, visitor: ElementVisitor): void {
  let info: [number, number] | null = null;
  let id = 0;
  let keys: [number, number] | null = null;
  let values: [number, number] | null = null;
  let memberIds: [number, number] | null = null;
  let memberTypes: [number, number] | null = null;
  while (p.more) {
    const [field, wire] = p.key();
    if (field === 1) id = p.varint(true);
    else if (field === 2 && wire === 2) keys = p.bytes();
    else if (field === 3 && wire === 2) values = p.bytes();
    else if (field === 4 && wire === 2) info = p.bytes();
    else if (field === 9 && wire === 2) memberIds = p.bytes();
    else if (field === 10 && wire === 2) memberTypes = p.bytes();
    else p.skip(wire);
  }
  const tags = keys && anyWantedKey(p, keys, strings) ? tagsFrom(p, keys, values, strings) : null;
  let members: Member[] | null = null;
  if (tags) {
    const types = memberTypes ? packedVarints(p, memberTypes) : [];
    members = (memberIds ? packedDeltas(p, memberIds) : []).map((ref, i) => ({
      type: MEMBER_TYPES[types[i]] ?? 'relation',
      ref,
    }));
  }
  visitor.relation(id, tags, members, null, tags ? infoVersion(p, info) : null);
}

/** Element kinds as bits, in file order. */
const NODES = 1;
const WAYS = 2;
const RELATIONS = 4;
const GROUP_KIND: Record<number, number> = { 1: NODES, 2: NODES, 3: WAYS, 4: RELATIONS };

/** The parts of a primitive block: its groups and the kinds they hold. */
function blockParts(data: Buffer): {
  block: Proto;
  groups: [number, number][];
  stringRanges: number[];
  g: BlockGeometry;
  kinds: number;
} {
  const block = new Proto(data);
  const groups: [number, number][] = [];
  const stringRanges: number[] = [];
  const g: BlockGeometry = { granularity: 100, latOffset: 0, lonOffset: 0 };
  let kinds = 0;
  while (block.more) {
    const [field, wire] = block.key();
    if (field === 1 && wire === 2) {
      const table = block.sub(block.bytes());
      while (table.more) {
        const [f, w] = table.key();
        if (f === 1 && w === 2) {
          const [start, end] = table.bytes();
          stringRanges.push(start, end);
        } else table.skip(w);
      }
    } else if (field === 2 && wire === 2) {
      const range = block.bytes();
      groups.push(range);
      // a group holds one kind: its first field says which
      const first = block.sub(range);
      if (first.more) kinds |= GROUP_KIND[first.key()[0]] ?? 0;
    } else if (field === 17) g.granularity = block.varint(true);
    else if (field === 19) g.latOffset = block.varint(true);
    else if (field === 20) g.lonOffset = block.varint(true);
    else block.skip(wire);
  }
  return { block, groups, stringRanges, g, kinds };
}

function readPrimitiveBlock(data: Buffer, options: ScanOptions, visitor: ElementVisitor, batch: DenseBatch): number {
  const { block, groups, stringRanges, g, kinds } = blockParts(data);
  const strings = new StringTable(data, stringRanges, options.keys);
  for (const range of groups) {
    const group = block.sub(range);
    while (group.more) {
      const [field, wire] = group.key();
      if (wire !== 2) {
        group.skip(wire);
        continue;
      }
      const item = group.bytes();
      if (field === 2 && options.nodes) {
        const dense = group.sub(item);
        batch.reset(denseCapacity(dense), group, strings);
        batch.read(dense, g);
        if (batch.count) visitor.nodes(batch);
      } else if (field === 1 && options.nodes) readNode(group.sub(item), strings, g, visitor);
      else if (field === 3 && options.ways) readWay(group.sub(item), strings, visitor);
      else if (field === 4 && options.relations) readRelation(group.sub(item), strings, visitor);
    }
  }
  return kinds;
}

/** How many nodes a DenseNodes message holds (the length of its id list). */
function denseCapacity(p: Proto): number {
  const probe = p.sub([p.pos, p.end]);
  while (probe.more) {
    const [field, wire] = probe.key();
    if (field === 1 && wire === 2) return packedCount(probe.buf, probe.bytes());
    probe.skip(wire);
  }
  return 0;
}

/** Checks the header's required features; returns whether the file is ordered by type then id. */
function checkHeaderBlock(data: Buffer, label: string): boolean {
  const p = new Proto(data);
  let ordered = false;
  while (p.more) {
    const [field, wire] = p.key();
    if ((field === 4 || field === 5) && wire === 2) {
      const [start, end] = p.bytes();
      const feature = data.toString('utf8', start, end);
      if (field === 5 && feature === ORDERED_FEATURE) ordered = true;
      if (field === 4 && !SUPPORTED_FEATURES.has(feature)) {
        throw new ImportError(`${label}: needs the PBF feature "${feature}", which this importer does not support`);
      }
    } else p.skip(wire);
  }
  return ordered;
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
        throw new ImportError(
          `${label}: a data block does not decompress (${(error as Error).message}); the file is damaged`,
        );
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

/**
 * Reads `length` bytes at `position`. Synchronous: a pass reads thousands of blobs from the page
 * cache, and an await for each would hand the processor over (on a busy machine, for long).
 */
function readExactly(file: number, position: number, length: number, label: string): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const bytesRead = readSync(file, buffer, done, length - done, position + done);
    if (bytesRead === 0) throw new ImportError(`${label}: the file ends in the middle of a block; it is truncated`);
    done += bytesRead;
  }
  return buffer;
}

/** A data blob of the file: where its payload is, and the element kinds it holds once known. */
interface Blob {
  start: number;
  size: number;
  /** bits NODES, WAYS, RELATIONS; 0 until the blob has been inflated */
  kinds: number;
}

/** The file's blobs, from their headers alone, and whether its header says it is ordered. */
interface BlobIndex {
  blobs: Blob[];
  ordered: boolean;
  size: number;
}

function indexBlobs(file: number, label: string): BlobIndex {
  const size = fstatSync(file).size;
  const blobs: Blob[] = [];
  let ordered = false;
  let position = 0;
  let sawHeader = false;
  while (position < size) {
    const headerLength = readExactly(file, position, 4, label).readUInt32BE(0);
    if (headerLength === 0 || headerLength > MAX_HEADER_BYTES) {
      throw new ImportError(`${label}: not an OSM PBF file (bad block header at byte ${position})`);
    }
    const header = new Proto(readExactly(file, position + 4, headerLength, label));
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
    const start = position + 4 + headerLength;
    if (start + dataSize > size)
      throw new ImportError(`${label}: the file ends in the middle of a block; it is truncated`);
    if (type === 'OSMHeader') {
      ordered = checkHeaderBlock(blobData(readExactly(file, start, dataSize, label), label), label);
      sawHeader = true;
    } else if (type === 'OSMData') {
      if (!sawHeader) throw new ImportError(`${label}: not an OSM PBF file (no OSMHeader block first)`);
      blobs.push({ start, size: dataSize, kinds: 0 });
    }
    position = start + dataSize;
  }
  if (!sawHeader) throw new ImportError(`${label}: not an OSM PBF file (it is empty)`);
  return { blobs, ordered, size };
}

/** What a pass reads: every blob's data of the wanted kinds, in file order. */
function kindsOf(options: ScanOptions): number {
  return (options.nodes ? NODES : 0) | (options.ways ? WAYS : 0) | (options.relations ? RELATIONS : 0);
}

/** One blob's elements as the decoder thread hands them over: typed arrays, moved, not copied. */
interface DecodedBlob {
  kinds: number;
  /** the keys and values of the tagged elements' tags, one after another */
  strings: string[];
  nodeIds: Float64Array;
  lats: Int32Array;
  lons: Int32Array;
  /** positions of the nodes with a wanted key, ascending */
  tagged: Int32Array;
  /** per tagged node: where its tags start and end in `strings` */
  nodeTags: Int32Array;
  /** per tagged node: its version, NaN for none */
  nodeVersions: Float64Array;
  wayIds: Float64Array;
  /** per way: where its tags start and end in `strings`, -1, -1 when it has no wanted key */
  wayTags: Int32Array;
  wayVersions: Float64Array;
  /** per way: where its node ids start in `refs`; one more at the end */
  refStarts: Float64Array;
  refs: Float64Array;
  relations: { id: number; tags: Tags | null; members: Member[] | null; version: number | null }[];
}

/** A typed array that grows as values are pushed. */
class Column<A extends Float64Array | Int32Array> {
  length = 0;
  constructor(
    private values: A,
    private readonly make: (size: number) => A,
  ) {}

  push(value: number): void {
    if (this.length === this.values.length) {
      const next = this.make(this.values.length * 2);
      next.set(this.values);
      this.values = next;
    }
    this.values[this.length++] = value;
  }

  /** The values pushed, in an array of their own (its buffer can be moved to another thread). */
  take(): A {
    return this.values.slice(0, this.length) as A;
  }
}

const floats = () => new Column(new Float64Array(1024), (size) => new Float64Array(size));
const ints = () => new Column(new Int32Array(1024), (size) => new Int32Array(size));

/** Gathers a blob's elements, as readPrimitiveBlock hands them over, into a DecodedBlob. */
class BlobGatherer implements ElementVisitor {
  private readonly strings: string[] = [];
  private readonly nodeIds = floats();
  private readonly lats = ints();
  private readonly lons = ints();
  private readonly tagged = ints();
  private readonly nodeTags = ints();
  private readonly nodeVersions = floats();
  private readonly wayIds = floats();
  private readonly wayTags = ints();
  private readonly wayVersions = floats();
  private readonly refStarts = floats();
  private readonly refs = floats();
  private readonly relations: DecodedBlob['relations'] = [];

  constructor() {
    this.refStarts.push(0);
  }

  private addTags(tags: Tags, range: Column<Int32Array>): void {
    range.push(this.strings.length);
    for (const key in tags) this.strings.push(key, tags[key]);
    range.push(this.strings.length);
  }

  nodes(batch: NodeBatch): void {
    const first = this.nodeIds.length;
    for (let i = 0; i < batch.count; i++) {
      this.nodeIds.push(batch.ids[i]);
      this.lats.push(batch.lats[i]);
      this.lons.push(batch.lons[i]);
    }
    for (let t = 0; t < batch.taggedCount; t++) {
      const i = batch.tagged[t];
      this.tagged.push(first + i);
      this.addTags(batch.tags(i), this.nodeTags);
      this.nodeVersions.push(batch.version(i) ?? NaN);
    }
  }

  way(id: number, tags: Tags | null, refs: WayRefs | null, _center: LatLon | null, version: number | null): void {
    this.wayIds.push(id);
    if (tags) this.addTags(tags, this.wayTags);
    else {
      this.wayTags.push(-1);
      this.wayTags.push(-1);
    }
    this.wayVersions.push(version ?? NaN);
    refs?.forEach((ref) => this.refs.push(ref));
    this.refStarts.push(this.refs.length);
  }

  relation(id: number, tags: Tags | null, members: Member[] | null, _center: LatLon | null, version: number | null) {
    this.relations.push({ id, tags, members, version });
  }

  take(kinds: number): DecodedBlob {
    return {
      kinds,
      strings: this.strings,
      nodeIds: this.nodeIds.take(),
      lats: this.lats.take(),
      lons: this.lons.take(),
      tagged: this.tagged.take(),
      nodeTags: this.nodeTags.take(),
      nodeVersions: this.nodeVersions.take(),
      wayIds: this.wayIds.take(),
      wayTags: this.wayTags.take(),
      wayVersions: this.wayVersions.take(),
      refStarts: this.refStarts.take(),
      refs: this.refs.take(),
      relations: this.relations,
    };
  }
}

/** The buffers of a DecodedBlob, to move rather than copy. */
function buffersOf(decoded: DecodedBlob): ArrayBuffer[] {
  return Object.values(decoded)
    .filter((value) => ArrayBuffer.isView(value))
    .map((view) => (view as Float64Array).buffer as ArrayBuffer);
}

/** A way's node ids in a blob's list of them; moved along from way to way. */
class RefsView implements WayRefs {
  start = 0;
  end = 0;
  constructor(private readonly refs: Float64Array) {}

  count(): number {
    return this.end - this.start;
  }

  forEach(add: (ref: number) => void): void {
    for (let i = this.start; i < this.end; i++) add(this.refs[i]);
  }
}

/** Hands a decoded blob's elements to the visitor, in the order the blob holds them. */
function visitDecoded(decoded: DecodedBlob, visitor: ElementVisitor): void {
  const { strings } = decoded;
  const tagsAt = (ranges: Int32Array, i: number): Tags | null => {
    const start = ranges[i * 2];
    if (start < 0) return null;
    const tags: Tags = {};
    for (let s = start; s < ranges[i * 2 + 1]; s += 2) tags[strings[s]] = strings[s + 1];
    return tags;
  };
  if (decoded.nodeIds.length > 0) {
    const { tagged, nodeVersions } = decoded;
    /** the position in `tagged` of node i */
    const taggedIndex = (i: number): number => {
      let low = 0;
      let high = tagged.length - 1;
      while (low <= high) {
        const mid = (low + high) >>> 1;
        if (tagged[mid] < i) low = mid + 1;
        else if (tagged[mid] > i) high = mid - 1;
        else return mid;
      }
      throw new RangeError(`node ${i} of the block has no wanted tags`);
    };
    visitor.nodes({
      count: decoded.nodeIds.length,
      ids: decoded.nodeIds,
      lats: decoded.lats,
      lons: decoded.lons,
      tagged,
      taggedCount: tagged.length,
      tags: (i) => tagsAt(decoded.nodeTags, taggedIndex(i))!,
      version: (i) => {
        const version = nodeVersions[taggedIndex(i)];
        return Number.isNaN(version) ? null : version;
      },
    });
  }
  const { wayIds, wayVersions, refStarts, refs } = decoded;
  const wayRefs = new RefsView(refs);
  for (let w = 0; w < wayIds.length; w++) {
    wayRefs.start = refStarts[w];
    wayRefs.end = refStarts[w + 1];
    const version = wayVersions[w];
    visitor.way(wayIds[w], tagsAt(decoded.wayTags, w), wayRefs, null, Number.isNaN(version) ? null : version);
  }
  for (const r of decoded.relations) visitor.relation(r.id, r.tags, r.members, null, r.version);
}

/** What the decoder thread is started with: the reading thread's open file and a scan's options. */
interface DecoderSetup {
  file: number;
  label: string;
  nodes: boolean;
  ways: boolean;
  relations: boolean;
  keys: string[] | null;
}

/** A blob the reading thread asks the decoder thread for. */
interface DecodeRequest {
  start: number;
  size: number;
}

type DecoderReply = { decoded: DecodedBlob } | { error: string; kind: 'import' | 'range' | 'other' };

/**
 * The decoder thread's side: reads, inflates and decodes each blob asked for, in the order asked,
 * and hands back its elements. The file descriptor is the reading thread's (descriptors belong to
 * the process); it stays open until this thread has been stopped.
 */
export function runDecoder(port: MessagePort, setup: DecoderSetup): void {
  const options: ScanOptions = {
    nodes: setup.nodes,
    ways: setup.ways,
    relations: setup.relations,
    keys: setup.keys ? new Set(setup.keys) : undefined,
  };
  const batch = new DenseBatch();
  port.on('message', ({ start, size }: DecodeRequest) => {
    let reply: DecoderReply;
    let transfer: ArrayBuffer[] = [];
    try {
      const gatherer = new BlobGatherer();
      const data = blobData(readExactly(setup.file, start, size, setup.label), setup.label);
      const decoded = gatherer.take(readPrimitiveBlock(data, options, gatherer, batch));
      reply = { decoded };
      transfer = buffersOf(decoded);
    } catch (error) {
      const kind = error instanceof ImportError ? 'import' : error instanceof RangeError ? 'range' : 'other';
      reply = { error: error instanceof Error ? error.message : String(error), kind };
    }
    port.postMessage(reply, transfer);
  });
}

/**
 * Starts the decoder thread: its module is beside this one, as JavaScript in the server's bundle,
 * as TypeScript when run from the sources (the thread then registers tsx's loader first: the one
 * the process was started with does not reach threads).
 */
function startDecoderThread(setup: DecoderSetup): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./pbf-decoder.js', import.meta.url), { workerData: setup });
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const decoder = new URL('./pbf-decoder.ts', import.meta.url).href;
  const start = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(decoder)}); })`;
  return new Worker(start, { eval: true, workerData: setup });
}

/** Blobs this many ahead of the one being visited are decoded meanwhile (memory: a few blobs). */
const LOOKAHEAD = 4;

/** The reading thread's side of a decoder thread: asks for blobs, takes them in the same order. */
class Decoder {
  private readonly worker: Worker;
  private readonly arrived: (DecodedBlob | Error)[] = [];
  private waiting: ((item: DecodedBlob | Error) => void) | null = null;

  constructor(setup: DecoderSetup) {
    this.worker = startDecoderThread(setup);
    this.worker.on('message', (reply: DecoderReply) => {
      if ('decoded' in reply) return this.arrive(reply.decoded);
      const message = `${setup.label}: ${reply.error}`;
      this.arrive(
        reply.kind === 'import'
          ? new ImportError(reply.error)
          : reply.kind === 'range'
            ? new RangeError(reply.error)
            : new Error(message),
      );
    });
    this.worker.on('error', (error) => this.arrive(error));
    this.worker.on('exit', (code) => this.arrive(new Error(`the .osm.pbf decoder thread stopped (exit code ${code})`)));
  }

  private arrive(item: DecodedBlob | Error): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) waiting(item);
    else this.arrived.push(item);
  }

  request(blob: Blob): void {
    this.worker.postMessage({ start: blob.start, size: blob.size } satisfies DecodeRequest);
  }

  /** The next blob asked for. */
  async next(): Promise<DecodedBlob> {
    const item =
      this.arrived.shift() ?? (await new Promise<DecodedBlob | Error>((resolve) => (this.waiting = resolve)));
    if (item instanceof Error) throw item;
    return item;
  }

  async stop(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}

export function pbfSource(path: string, label = path): ElementSource {
  let index: BlobIndex | null = null;

  const withFile = async <T>(use: (file: number) => Promise<T>): Promise<T> => {
    let file: number;
    try {
      file = openSync(path, 'r');
    } catch (error) {
      throw new ImportError(
        `${label}: cannot open (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    try {
      index ??= indexBlobs(file, label);
      return await use(file);
    } catch (error) {
      if (error instanceof ImportError) throw error;
      if (error instanceof RangeError) throw new ImportError(`${label}: the file is damaged (${error.message})`);
      throw error;
    } finally {
      closeSync(file);
    }
  };

  const inflate = (file: number, blob: Blob) => blobData(readExactly(file, blob.start, blob.size, label), label);

  /** The kinds a blob holds, inflating it once to learn them. */
  const kindsAt = (file: number, i: number): number => {
    const blob = index!.blobs[i];
    if (blob.kinds === 0) blob.kinds = blockParts(inflate(file, blob)).kinds || NODES | WAYS | RELATIONS;
    return blob.kinds;
  };

  /** The first blob for which `test` holds (it holds for all after it: the file is ordered). */
  const firstWhere = (file: number, test: (kinds: number) => boolean): number => {
    let low = 0;
    let high = index!.blobs.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (test(kindsAt(file, mid))) high = mid;
      else low = mid + 1;
    }
    return low;
  };

  return {
    label,
    ascendingIds: () => withFile(async () => index!.ordered),
    async scan(visitor, options) {
      await withFile(async (file) => {
        const { blobs, ordered } = index!;
        const wanted = kindsOf(options);
        let from = 0;
        let to = blobs.length;
        if (ordered && wanted !== 0) {
          // the wanted kinds are one stretch of the file: from the first blob with a kind at or
          // after the first wanted, to the last blob with a kind at or before the last wanted
          const lowest = wanted & -wanted;
          const highest = 1 << (31 - Math.clz32(wanted));
          from = firstWhere(file, (kinds) => kinds >= lowest);
          to = firstWhere(file, (kinds) => (kinds & -kinds) > highest);
        }
        // blobs known to hold none of the wanted kinds are not read
        const reading: Blob[] = [];
        for (let i = from; i < to; i++) {
          const blob = blobs[i];
          if (blob.kinds === 0 || (blob.kinds & wanted) !== 0) reading.push(blob);
        }
        const total = reading.reduce((sum, blob) => sum + blob.size, 0);
        // Inflating and decoding run on another thread while this one visits the blobs before.
        const decoder = new Decoder({
          file,
          label,
          nodes: options.nodes,
          ways: options.ways,
          relations: options.relations,
          keys: options.keys ? [...options.keys] : null,
        });
        try {
          let asked = 0;
          for (; asked < Math.min(LOOKAHEAD, reading.length); asked++) decoder.request(reading[asked]);
          let done = 0;
          for (const blob of reading) {
            const decoded = await decoder.next();
            if (asked < reading.length) decoder.request(reading[asked++]);
            blob.kinds = decoded.kinds || NODES | WAYS | RELATIONS;
            visitDecoded(decoded, visitor);
            done += blob.size;
            options.onProgress?.(done, total);
          }
        } finally {
          await decoder.stop();
        }
        options.onProgress?.(total, total);
      });
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
  const file = openSync(path, 'r');
  try {
    const headerLength = readExactly(file, 0, 4, label).readUInt32BE(0);
    if (headerLength === 0 || headerLength > MAX_HEADER_BYTES)
      throw new ImportError(`${label}: not an OSM PBF file (bad block header at byte 0)`);
    const header = new Proto(readExactly(file, 4, headerLength, label));
    let dataSize = -1;
    while (header.more) {
      const [field, wire] = header.key();
      if (field === 3 && wire === 0) dataSize = header.varint();
      else header.skip(wire);
    }
    if (dataSize < 0 || dataSize > MAX_BLOB_BYTES)
      throw new ImportError(`${label}: not an OSM PBF file (bad block header at byte 0)`);
    const data = blobData(readExactly(file, 4 + headerLength, dataSize, label), label);
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
    closeSync(file);
  }
}
