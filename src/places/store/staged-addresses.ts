// An import's addresses derived on a thread of their own (SQLite): the staged places are handed
// over as they are staged, the gathered context is read from its file once the reading is done,
// and every place's address is derived cell by cell while the main thread writes the context and
// the shapes into the index. The same rule as deriveEveryPlace (addresses.ts) on the same data:
// each cell's places get the features whose box meets the cell widened by twice the furthest
// reach, in the order the index's rows would have (the order of the file, a repeated object
// keeping its first place and its last data), with the coordinates as the index stores them.
import { closeSync, openSync, readSync } from 'node:fs';
import { jsonLines } from '../../shared/json-lines.js';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Tags } from '../model/categories.js';
import { formatAddress } from '../model/osm.js';
import { AddressContext, featureBox, type ContextFeature, type ContextKind } from '../model/address-context.js';
import { derivedText, hasOwnAddress } from '../model/address-features.js';
import { CELL_DEG, REACH_M, storedParts, type AddressSummary } from './addresses.js';

const M_PER_DEG = 111_195;
const TYPES = ['node', 'way', 'relation'] as const;
const KINDS: readonly ContextKind[] = ['area', 'point', 'street', 'locality'];
/** What `DerivedRows.sources` number: no derived address, or where it came from. */
export const ADDRESS_SOURCES = [null, 'building', 'nearby'] as const;

/** What the thread hands back: the staged rows whose address differs from their own, and the counts. */
export interface DerivedRows {
  /** staged rowids */
  ids: Float64Array;
  addresses: (string | null)[];
  /** index in ADDRESS_SOURCES */
  sources: Uint8Array;
  /** the derived parts, as `places.address_parts` keeps them (storedParts) */
  parts: (string | null)[];
  summary: AddressSummary;
}

/** The fields of a place in AddressThread.places. */
const PLACE_FIELDS = 8;

/**
 * On the thread, a count the main thread watches (AddressThread.result): it moves while the thread
 * works, and stops when the thread has stopped without a word (its heap bound ends it at once).
 */
let progress: Int32Array | null = null;
const tick = () => {
  if (progress) Atomics.add(progress, 1, 1);
};

/** A Float64Array that grows. */
class Numbers {
  values = new Float64Array(1 << 12);
  length = 0;
  push(value: number): void {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = value;
  }
}

/** A staged place that needs more than its position and country to be derived. */
interface PlaceExtra {
  staged: string | null;
  /** its address from its own tags */
  own: string | null;
  /** the addr:postcode and addr:city it has (derivedText keeps them) */
  tags: Tags;
}

const NO_TAGS: Tags = {};

/** The tags a place's own address is made of (formatAddress, hasOwnAddress, derivedText): null for none. */
const ADDRESS_KEYS = ['addr:housenumber', 'addr:street', 'addr:place', 'addr:postcode', 'addr:city', 'addr:full'];
export function addressTagsOf(tags: Tags): Tags | null {
  let kept: Record<string, string> | null = null;
  for (const key of ADDRESS_KEYS) if (tags[key] !== undefined) (kept ??= {})[key] = tags[key];
  return kept;
}

/**
 * The staged places and, once given, the context: derives every place's address. Memory: 40
 * bytes a place and a few for the rare ones with an address part; the context's coordinates as
 * 1e-7 degree integers (how the index rounds them), its tags as objects.
 */
export class StagedAddresses {
  private readonly rowids = new Numbers();
  private readonly keys = new Numbers();
  private readonly lats = new Numbers();
  private readonly lons = new Numbers();
  /** per place: its country's index in `countries`, + 1 (0: none) */
  private countryOf = new Uint16Array(1 << 12);
  /** per place: 1 when it has an address of its own (nothing is derived) */
  private ownAddress = new Uint8Array(1 << 12);
  private readonly countries: string[] = [];
  private readonly countryIndex = new Map<string, number>();
  private readonly extras = new Map<number, PlaceExtra>();

  /**
   * Staged rows, flat: rowid, osm type, osm id, lat, lon, address (as staged), country and the
   * tags of its address (addressTagsOf) for each place, in the order they were staged.
   */
  addPlaces(flat: unknown[]): void {
    tick();
    for (let at = 0; at < flat.length; at += PLACE_FIELDS) {
      const i = this.rowids.length;
      if (i === this.countryOf.length) {
        const countries = new Uint16Array(i * 2);
        countries.set(this.countryOf);
        this.countryOf = countries;
        const own = new Uint8Array(i * 2);
        own.set(this.ownAddress);
        this.ownAddress = own;
      }
      this.rowids.push(flat[at] as number);
      this.keys.push((flat[at + 2] as number) * 3 + TYPES.indexOf(flat[at + 1] as (typeof TYPES)[number]));
      this.lats.push(flat[at + 3] as number);
      this.lons.push(flat[at + 4] as number);
      const staged = flat[at + 5] as string | null;
      const country = flat[at + 6] as string | null;
      this.countryOf[i] = country === null ? 0 : this.countryNumber(country) + 1;
      const tags = (flat[at + 7] as Tags | null) ?? NO_TAGS;
      const own = formatAddress(tags, country);
      this.ownAddress[i] = hasOwnAddress(tags) ? 1 : 0;
      const kept: Record<string, string> = {};
      if (tags['addr:postcode'] !== undefined) kept['addr:postcode'] = tags['addr:postcode'];
      if (tags['addr:city'] !== undefined) kept['addr:city'] = tags['addr:city'];
      const hasKept = kept['addr:postcode'] !== undefined || kept['addr:city'] !== undefined;
      if (staged !== null || own !== null || hasKept)
        this.extras.set(i, { staged, own, tags: hasKept && !this.ownAddress[i] ? kept : NO_TAGS });
    }
  }

  private countryNumber(country: string): number {
    let n = this.countryIndex.get(country);
    if (n === undefined) {
      n = this.countries.push(country) - 1;
      this.countryIndex.set(country, n);
    }
    return n;
  }

  /** Every staged place derived from the context in `featuresFile` (JSON lines of ContextFeature). */
  derive(featuresFile: string): DerivedRows {
    const file = openSync(featuresFile, 'r');
    try {
      return this.deriveFrom(readContext(featuresFile, file));
    } finally {
      closeSync(file);
    }
  }

  private deriveFrom(context: Context): DerivedRows {
    const count = this.rowids.length;
    // a place staged again replaces the earlier row (the staging table's key): the last one counts
    const live = lastOfEachKey(this.keys.values.subarray(0, count));
    const rows = new Int32Array(count);
    const columns = new Int32Array(count);
    const order: number[] = [];
    const lats = this.lats.values;
    const lons = this.lons.values;
    for (let i = 0; i < count; i++) {
      if (!live[i]) continue;
      rows[i] = Math.floor(lats[i] / CELL_DEG);
      columns[i] = Math.floor(lons[i] / CELL_DEG);
      order.push(i);
    }
    order.sort((a, b) => rows[a] - rows[b] || columns[a] - columns[b] || a - b);

    const summary: AddressSummary = { derived: 0, changed: 0, withAddress: 0 };
    const ids = new Numbers();
    const addresses: (string | null)[] = [];
    const sources: number[] = [];
    const parts: (string | null)[] = [];
    const changed = (i: number, address: string | null, source: number, stored: string | null) => {
      summary.changed++;
      ids.push(this.rowids.values[i]);
      addresses.push(address);
      sources.push(source);
      parts.push(stored);
    };

    const marginLat = (2 * REACH_M) / M_PER_DEG;
    const byMinLat = context.byMinLat;
    let loaded = 0;
    let active: number[] = [];
    /** the active features as objects */
    const made = new Map<number, ContextFeature>();
    for (let start = 0; start < order.length;) {
      tick();
      const row = rows[order[start]];
      let end = start;
      while (end < order.length && rows[order[end]] === row) end++;
      const south = row * CELL_DEG - marginLat;
      const north = (row + 1) * CELL_DEG + marginLat;
      active = active.filter((f) => context.maxLat[f] >= south || (made.delete(f), false));
      for (; loaded < byMinLat.length && context.minLat[byMinLat[loaded]] <= north; loaded++) {
        const f = byMinLat[loaded];
        if (context.maxLat[f] >= south) {
          active.push(f);
          made.set(f, context.feature(f));
        }
      }
      const marginLon =
        marginLat / Math.max(0.01, Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180));
      // the row's cells west to east, the features swept along (as deriveEveryPlace)
      active.sort((a, b) => context.minLon[a] - context.minLon[b] || a - b);
      let next = 0;
      let window: number[] = [];
      for (let cellStart = start; cellStart < end;) {
        const column = columns[order[cellStart]];
        let cellEnd = cellStart;
        while (cellEnd < end && columns[order[cellEnd]] === column) cellEnd++;
        const west = column * CELL_DEG - marginLon;
        const east = (column + 1) * CELL_DEG + marginLon;
        while (next < active.length && context.minLon[active[next]] <= east) window.push(active[next++]);
        window = window.filter((f) => context.maxLon[f] >= west);
        const near = window
          .slice()
          .sort((a, b) => a - b)
          .map((f) => made.get(f)!);
        const addressContext = new AddressContext(near);
        for (let k = cellStart; k < cellEnd; k++) {
          const i = order[k];
          summary.derived++;
          const extra = this.extras.get(i);
          const own = extra?.own ?? null;
          const staged = extra?.staged ?? null;
          if (this.ownAddress[i]) {
            if (own !== null) summary.withAddress++;
            if (own !== staged) changed(i, own, 0, null);
            continue;
          }
          const country = this.countryOf[i] === 0 ? null : this.countries[this.countryOf[i] - 1];
          const derived = addressContext.derive(lats[i], lons[i]);
          const text = derived ? derivedText(derived, country, extra?.tags ?? NO_TAGS) : null;
          const address = text ?? own;
          const source = text ? ADDRESS_SOURCES.indexOf(derived!.source) : 0;
          const stored = derived ? storedParts(derived) : null;
          if (address !== null) summary.withAddress++;
          if (address !== staged || source !== 0 || stored !== null) changed(i, address, source, stored);
        }
        cellStart = cellEnd;
      }
      start = end;
    }
    return { ids: ids.values.slice(0, ids.length), addresses, sources: Uint8Array.from(sources), parts, summary };
  }
}

/** Per entry, whether it is the last of its key (a later copy replaces an earlier one). */
function lastOfEachKey(keys: Float64Array): Uint8Array {
  const live = new Uint8Array(keys.length).fill(1);
  const byKey = Array.from(keys.keys()).sort((a, b) => keys[a] - keys[b] || a - b);
  for (let k = 0; k + 1 < byKey.length; k++) if (keys[byKey[k]] === keys[byKey[k + 1]]) live[byKey[k]] = 0;
  return live;
}

/** The number of lines of a file (each feature is one). */
function countLines(path: string): number {
  const file = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    let lines = 0;
    for (let read; (read = readSync(file, buffer, 0, buffer.length, null)) > 0;) {
      const text = read === buffer.length ? buffer : buffer.subarray(0, read);
      for (let at = text.indexOf(10); at >= 0; at = text.indexOf(10, at + 1)) lines++;
    }
    return lines;
  } finally {
    closeSync(file);
  }
}

const round7 = (n: number) => Math.round(n * 1e7) / 1e7;

/**
 * The gathered context as the index would hold it: in the order of the rows' ids (the file's,
 * a repeated object at its first place with its last data), each feature's box from its own
 * coordinates and its coordinates rounded to 1e-7 degrees (addresses.ts, toRow). A country's
 * context is a million features, hundreds of MB: only their boxes and where their lines are
 * in the file are held (52 bytes a feature); a feature is read again from its line while the
 * cells near it are derived.
 */
class Context {
  /** per feature, by its place in the index's order */
  minLat: Float64Array;
  minLon: Float64Array;
  maxLat: Float64Array;
  maxLon: Float64Array;
  /** the features by ascending min_lat */
  byMinLat = new Uint32Array(0);
  /** per feature, the entry (line of the file) its data comes from; null: its own */
  private dataOf: Int32Array | null = null;
  private entries = 0;
  // per entry, in the file's order
  private readonly keys: Float64Array;
  private readonly boxes: Float64Array[];
  private readonly lineStart: Float64Array;
  private readonly lineLength: Int32Array;
  private line = Buffer.allocUnsafe(1 << 16);

  constructor(
    private readonly file: number,
    capacity: number,
  ) {
    this.keys = new Float64Array(capacity);
    this.boxes = [0, 1, 2, 3].map(() => new Float64Array(capacity));
    [this.minLon, this.minLat, this.maxLon, this.maxLat] = this.boxes;
    this.lineStart = new Float64Array(capacity);
    this.lineLength = new Int32Array(capacity);
  }

  /** The feature of the line at `start` in the file, `length` bytes. */
  add(f: ContextFeature, start: number, length: number): void {
    const e = this.entries++;
    this.keys[e] = (f.osmId * 3 + TYPES.indexOf(f.osmType)) * KINDS.length + KINDS.indexOf(f.kind);
    featureBox(f).forEach((value, side) => (this.boxes[side][e] = value));
    this.lineStart[e] = start;
    this.lineLength[e] = length;
  }

  /** Every entry added: the features in the index's order, and sorted by min_lat. */
  finish(): void {
    const entries = this.entries;
    const keys = this.keys;
    const byKey = Uint32Array.from({ length: entries }, (_, e) => e).sort((a, b) => keys[a] - keys[b] || a - b);
    let repeated = false;
    for (let k = 0; k + 1 < entries && !repeated; k++) repeated = keys[byKey[k]] === keys[byKey[k + 1]];
    if (repeated) {
      const dataOf = new Int32Array(entries).fill(-1);
      for (let k = 0; k < entries;) {
        let last = k;
        while (last + 1 < entries && keys[byKey[last + 1]] === keys[byKey[k]]) last++;
        dataOf[byKey[k]] = byKey[last];
        k = last + 1;
      }
      this.dataOf = dataOf.filter((d) => d >= 0);
      [this.minLon, this.minLat, this.maxLon, this.maxLat] = this.boxes.map((side) =>
        Float64Array.from(this.dataOf!, (e) => side[e]),
      );
    } else {
      [this.minLon, this.minLat, this.maxLon, this.maxLat] = this.boxes.map((side) => side.subarray(0, entries));
    }
    const minLat = this.minLat;
    this.byMinLat = Uint32Array.from(minLat.keys()).sort((a, b) => minLat[a] - minLat[b] || a - b);
  }

  /** Feature i as the index's row of it reads back (featureOfRow). */
  feature(i: number): ContextFeature {
    const e = this.dataOf ? this.dataOf[i] : i;
    const length = this.lineLength[e];
    if (length > this.line.length) this.line = Buffer.allocUnsafe(length);
    for (let read = 0; read < length;)
      read += readSync(this.file, this.line, read, length - read, this.lineStart[e] + read);
    const f = JSON.parse(this.line.toString('utf8', 0, length)) as ContextFeature;
    return {
      osmType: f.osmType,
      osmId: f.osmId,
      kind: f.kind,
      coords: f.coords.map(round7),
      parts: f.parts && f.parts.length > 1 ? f.parts : undefined,
      tags: f.tags,
      extentM: f.extentM || undefined,
    };
  }
}

/** The features of a file of JSON lines (kept open for Context.feature: the caller closes it). */
function readContext(path: string, file: number): Context {
  const context = new Context(file, countLines(path));
  let lines = 0;
  for (const { value, offset, length } of jsonLines<ContextFeature>(file)) {
    if (++lines % 10_000 === 0) tick();
    context.add(value, offset, length);
  }
  context.finish();
  return context;
}

type ThreadRequest = { places: unknown[] } | { derive: string };
type ThreadReply = { rows: DerivedRows } | { error: string };

/** The thread's side (address-thread.ts): places as they come, then one derivation. */
export function runAddressThread(parent: MessagePort, setup: { port: MessagePort; signal: Int32Array }): void {
  progress = setup.signal;
  const staged = new StagedAddresses();
  parent.on('message', (request: ThreadRequest) => {
    if ('places' in request) {
      try {
        staged.addPlaces(request.places);
      } catch (error) {
        reply({ error: (error as Error).message ?? String(error) });
      }
      return;
    }
    let answer: ThreadReply;
    try {
      answer = { rows: staged.derive(request.derive) };
    } catch (error) {
      answer = { error: (error as Error).stack ?? String(error) };
    }
    reply(answer);
  });
  let replied = false;
  const reply = (answer: ThreadReply) => {
    if (replied) return;
    replied = true;
    const transfer =
      'rows' in answer ? [answer.rows.ids.buffer as ArrayBuffer, answer.rows.sources.buffer as ArrayBuffer] : [];
    setup.port.postMessage(answer, transfer);
    Atomics.store(setup.signal, 0, 1);
    Atomics.notify(setup.signal, 0);
  };
}

/**
 * The main thread's side: places are posted as they are staged; `derive` starts the derivation,
 * `result` waits for it without returning to the event loop (it is awaited inside SQLite's
 * synchronous transaction, while the main thread's share of the commit is done).
 */
export class AddressThread {
  private readonly worker: Worker;
  /** [0]: 1 once the thread has answered; [1]: its progress (tick) */
  private readonly signal = new Int32Array(new SharedArrayBuffer(8));
  private readonly channel = new MessageChannel();
  private readonly stallMs: number;

  /**
   * `heapMb` bounds the thread's heap; a thread whose progress stands still for `stallMs` while
   * `result` waits has stopped (its heap bound ends it without a word to a waiting main thread).
   */
  constructor({ heapMb = 256, stallMs = 30_000 }: { heapMb?: number; stallMs?: number } = {}) {
    this.stallMs = stallMs;
    this.worker = startThread({ port: this.channel.port2, signal: this.signal }, [this.channel.port2], heapMb);
    // a thread that could not start says so in `result`; until then, no unhandled error
    this.worker.on('error', () => {});
  }

  /** Staged rows, flat: rowid, osm type, osm id, lat, lon, address, country, addressTagsOf(tags) each. */
  places(flat: unknown[]): void {
    this.worker.postMessage({ places: flat } satisfies ThreadRequest);
  }

  /** Starts deriving every place from the context gathered in `featuresFile`. */
  derive(featuresFile: string): void {
    this.worker.postMessage({ derive: featuresFile } satisfies ThreadRequest);
  }

  /**
   * Waits for the derivation's rows (blocking the thread); null if the thread stopped (its memory).
   * A thread that stopped says so only to the event loop, which this wait holds up: what tells is
   * its progress standing still.
   */
  result(): DerivedRows | null {
    let seen = Atomics.load(this.signal, 1);
    let movedAt = performance.now();
    for (;;) {
      const message = receiveMessageOnPort(this.channel.port1);
      if (message) {
        const reply = message.message as ThreadReply;
        if ('error' in reply) throw new Error(`the address thread failed: ${reply.error}`);
        return reply.rows;
      }
      if (Atomics.wait(this.signal, 0, 0, 100) !== 'timed-out') continue;
      if (this.worker.threadId < 0) return null;
      const now = Atomics.load(this.signal, 1);
      if (now !== seen) [seen, movedAt] = [now, performance.now()];
      else if (performance.now() - movedAt > this.stallMs) return null;
    }
  }

  async close(): Promise<void> {
    this.channel.port1.close();
    await this.worker.terminate();
  }
}

/**
 * Starts the thread: its module is beside this one, as JavaScript in the server's bundle, as
 * TypeScript when run from the sources (the thread then registers tsx's loader first: the one
 * the process was started with does not reach threads). Its heap is bounded (what it holds lives
 * in typed arrays and its file): a country too large for it stops the thread, and the commit
 * derives the addresses itself, as without it.
 */
function startThread(
  setup: { port: MessagePort; signal: Int32Array },
  transferList: MessagePort[],
  heapMb: number,
): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16 };
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./address-thread.js', import.meta.url), {
      workerData: setup,
      transferList,
      resourceLimits,
    });
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const thread = new URL('./address-thread.ts', import.meta.url).href;
  const start = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(thread)}); })`;
  return new Worker(start, { eval: true, workerData: setup, transferList, resourceLimits });
}
