// Import: files or URLs -> the places index, all inputs in one all-or-nothing write.
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CATEGORY_IDS } from '../../model/category-ids.js';
import { collect, type PassProgress } from './collect.js';
import { jsonFileSource } from './json.js';
import { pbfSource, readPbfReplication } from './pbf.js';
import { isOsmChange } from '../changes/parse.js';
import { ImportError, type ElementSource } from './types.js';
import type { PlaceStore, SourceState, WriteResult, Written } from '../../store/index.js';
import { xmlSource } from './xml.js';
import { ContextGatherer } from '../addresses/gather.js';
import type { AddressSummary, AddressUpdate } from '../../store/addresses.js';
import { trustedFetch, type Fetcher } from '../../../net/outbound.js';

export { ImportError } from './types.js';

export type InputFormat = 'pbf' | 'xml' | 'json' | 'osc' | 'csv';

export interface ImportProgress extends PassProgress {
  start(label: string): void;
  finish(): void;
}

export interface ImportSummary extends WriteResult, Partial<Written> {
  /** places worked out from their surroundings, and how many have an address now */
  addresses: AddressSummary;
  inputs: { label: string; format: InputFormat; source: string; elements: number; places: number; passes: number }[];
  elements: number;
  places: number;
  withoutGeometry: number;
  /** distinct nodes whose locations the ways and relations kept needed */
  neededNodes: number;
  perCategory: Record<string, number>;
  seconds: number;
}

export const USER_AGENT = 'nearby-place-finder-import/0.1 (OpenStreetMap importer)';

/** What a file holds, from its first bytes (extensions lie, downloads have none). */
export async function detectFormat(path: string, label = path): Promise<InputFormat> {
  let head: Buffer;
  try {
    const file = await open(path, 'r');
    try {
      head = Buffer.alloc(1024);
      const { bytesRead } = await file.read(head, 0, 1024, 0);
      head = head.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  } catch (error) {
    throw new ImportError(
      `${label}: cannot open (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  if (head.length === 0) throw new ImportError(`${label}: the file is empty`);
  if (isOsmChange(head)) return 'osc';
  if (head[0] === 0x1f && head[1] === 0x8b)
    throw new ImportError(`${label}: is gzip-compressed; decompress it first (gunzip)`);
  if (head.subarray(0, 3).toString('latin1') === 'BZh')
    throw new ImportError(`${label}: is bzip2-compressed; decompress it first (bunzip2)`);
  if (head.subarray(0, 32).includes('OSMHeader')) return 'pbf';
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith('<')) return 'xml';
  if (text.startsWith('{')) return 'json';
  if (/^name,category,lat,lon\b/i.test(text)) return 'csv';
  throw new ImportError(
    `${label}: not a format this importer reads (.osm.pbf, .osm XML, Overpass JSON, GeoJSON, .osc change files or own places' CSV)`,
  );
}

export function isUrl(input: string): boolean {
  return /^https?:\/\//i.test(input);
}

/** Downloads to a temporary file (the readers go over their input more than once), refusing more than `maxBytes`. */
async function download(
  url: string,
  dir: string,
  maxBytes = Infinity,
  fetcher: Fetcher = trustedFetch,
): Promise<string> {
  let response: Response;
  try {
    response = await fetcher(new URL(url), { headers: { 'user-agent': USER_AGENT } });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new ImportError(`${url}: cannot download (${cause?.code ?? cause?.message ?? (error as Error).message})`);
  }
  if (!response.ok || !response.body) {
    throw new ImportError(`${url}: cannot download (HTTP ${response.status} ${response.statusText})`);
  }
  const tooLarge = () => new ImportError(`${url}: is larger than the ${Math.round(maxBytes / 2 ** 20)} MB allowed`);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body.cancel().catch(() => {});
    throw tooLarge();
  }
  const path = join(dir, `download-${Math.random().toString(36).slice(2)}`);
  let size = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      done(size > maxBytes ? tooLarge() : null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
      cap,
      createWriteStream(path),
    );
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError(`${url}: the download broke off (${(error as Error).message})`);
  }
  return path;
}

async function openSource(path: string, label: string): Promise<{ source: ElementSource; format: InputFormat }> {
  const format = await detectFormat(path, label);
  if (format === 'pbf') return { format, source: pbfSource(path, label) };
  if (format === 'xml') return { format, source: xmlSource(path, label) };
  if (format === 'json') return { format, source: await jsonFileSource(path, label) };
  throw new ImportError(
    `${label}: ${format === 'osc' ? 'is a change file' : 'is a CSV of own places'}; it is applied on its own, not with other inputs`,
  );
}

/**
 * The source an input belongs to: `--source` when given, else the replication feed its header
 * names, else its file name. Its replication state comes from the header.
 */
async function sourceOf(path: string, input: string, format: InputFormat, name?: string): Promise<SourceState> {
  const header = format === 'pbf' ? await readPbfReplication(path, input) : null;
  const fileName = isUrl(input) ? basename(new URL(input).pathname) || input : basename(input);
  return {
    name: name ?? header?.baseUrl ?? fileName,
    replicationUrl: header?.baseUrl ?? null,
    sequence: header?.sequence ?? null,
    dataTimestamp: header?.timestamp ?? null,
  };
}

/**
 * Imports every input into the index in one transaction: if any input cannot be read, nothing
 * is written. `now` stamps the places' fetch time.
 */
export async function importInputs(
  index: PlaceStore,
  inputs: string[],
  options: {
    now?: number;
    progress?: ImportProgress;
    source?: string;
    maxDownloadBytes?: number;
    /** how URLs are fetched: the outbound guard's client for URLs the operator did not give */
    fetch?: Fetcher;
  } = {},
): Promise<ImportSummary> {
  if (inputs.length === 0) throw new ImportError('no input given');
  const started = performance.now();
  const writer = index.importWriter(options.now ?? Date.now());
  writer.derivingAddresses();
  const summary: ImportSummary = {
    inputs: [],
    elements: 0,
    places: 0,
    withoutGeometry: 0,
    neededNodes: 0,
    perCategory: {},
    seconds: 0,
    added: 0,
    replaced: 0,
    removed: 0,
    addresses: { derived: 0, changed: 0, withAddress: 0 },
  };
  const context: { source: string; gatherer: ContextGatherer }[] = [];
  // downloads and the address context gathered, until the commit
  const tempDir = await mkdtemp(join(tmpdir(), 'places-import-'));
  try {
    for (const input of inputs) {
      let path = input;
      if (isUrl(input)) {
        options.progress?.start(`downloading ${input}`);
        path = await download(input, tempDir, options.maxDownloadBytes, options.fetch);
      }
      const { source, format } = await openSource(path, input);
      const state = await sourceOf(path, input, format, options.source);
      writer.source(state);
      options.progress?.start(input);
      const gatherer = new ContextGatherer(join(tempDir, `context-${context.length}`));
      context.push({ source: state.name, gatherer });
      const stats = await collect(source, writer, { progress: options.progress, context: gatherer });
      gatherer.finish();
      options.progress?.finish();
      summary.inputs.push({
        label: input,
        format,
        source: state.name,
        elements: stats.elements,
        places: stats.places,
        passes: stats.passes,
      });
      summary.elements += stats.elements;
      summary.places += stats.places;
      summary.withoutGeometry += stats.withoutGeometry;
      summary.neededNodes += stats.neededNodes;
      for (const [id, n] of Object.entries(stats.perCategory))
        summary.perCategory[id] = (summary.perCategory[id] ?? 0) + n;
    }
    // With the places, each input's address context and the addresses of every place that has
    // none of its own, from what surrounds it (in these inputs and in other sources imported
    // before), in the same transaction.
    // The reading's garbage (node locations, pending ways: hundreds of MB for a country) is
    // collected before the commit, where nothing else would make V8 collect it: the address
    // thread's memory comes on top of it (`npm run import` exposes gc; elsewhere this is skipped).
    (globalThis as { gc?: () => void }).gc?.();
    options.progress?.start('places and addresses from context');
    const updates = context.map(({ source, gatherer }, i): AddressUpdate => ({
      source,
      replaceSource: true,
      put: gatherer.features,
      featuresFile: gatherer.featuresFile,
      remove: [],
      within: i === context.length - 1 ? 'all' : [],
    }));
    const { addresses, ...written } = await writer.commit(updates);
    options.progress?.finish();
    Object.assign(summary, written);
    if (addresses) summary.addresses = addresses;
  } catch (error) {
    options.progress?.finish();
    await writer.abort();
    throw diskFull(error)
      ? new ImportError(`the disk is full (${(error as Error).message}); free some space and import again`)
      : error;
  } finally {
    for (const { gatherer } of context) gatherer.close();
    await rm(tempDir, { recursive: true, force: true });
  }
  summary.seconds = (performance.now() - started) / 1000;
  return summary;
}

/** Whether an error is the disk filling up: SQLite's file, PostgreSQL's, or a staging file. */
function diskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === '53100';
}

/** The summary as lines of text for the terminal. */
export function formatSummary(summary: ImportSummary, peakRssBytes?: number): string {
  const lines: string[] = [];
  for (const input of summary.inputs) {
    lines.push(
      `${input.label} (${input.format}, source ${input.source}): ${input.elements.toLocaleString('en')} elements read, ${input.places.toLocaleString('en')} places kept, ${input.passes} pass${input.passes === 1 ? '' : 'es'}`,
    );
  }
  lines.push(
    `Index: ${summary.added.toLocaleString('en')} added, ${summary.replaced.toLocaleString('en')} replaced, ${summary.removed.toLocaleString('en')} removed` +
      (summary.withoutGeometry ? `; ${summary.withoutGeometry} skipped without coordinates` : ''),
  );
  const { derived, withAddress } = summary.addresses;
  if (derived)
    lines.push(
      `Addresses: ${withAddress.toLocaleString('en')} of ${derived.toLocaleString('en')} places have one (${Math.round((withAddress / derived) * 100)}%)`,
    );
  lines.push('Places per category:');
  const width = Math.max(...CATEGORY_IDS.map((id) => id.length));
  for (const id of CATEGORY_IDS)
    lines.push(`  ${id.padEnd(width)}  ${(summary.perCategory[id] ?? 0).toLocaleString('en').padStart(9)}`);
  const rate = summary.seconds > 0 ? Math.round(summary.elements / summary.seconds) : 0;
  lines.push(
    `Done in ${summary.seconds.toFixed(2)} s (${rate.toLocaleString('en')} elements/s)` +
      (peakRssBytes ? `, peak memory ${Math.round(peakRssBytes / 1024 / 1024)} MB` : ''),
  );
  return lines.join('\n');
}
