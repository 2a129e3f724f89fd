// Place search benchmark: all figures medians of several runs, and every
// throughput also as a ratio to a bare Fastify hello-world measured in the same run:
//  (a) import of the Vancouver extract on SQLite and on PostgreSQL: seconds, elements/s, peak
//      memory (each run its own process, as `npm run import` runs);
//  (b) search on that index, on both engines: p50/p99 in-process through the places.search
//      procedure, and requests/s over HTTP (GET /api/places, autocannon, 50 connections,
//      RATE_LIMIT=off) against a real server process, with WEB_CONCURRENCY=1 and 2;
//  (c) the same on a SYNTHETIC one-million-place SQLite index (the real extracts' places copied
//      to offset positions), and a plain table scan, to show what the grid buys.
// PostgreSQL: BENCH_DATABASE_URL (a superuser URL; databases are created and dropped in it),
// else a private, durable throwaway cluster when PostgreSQL's programs are installed.
// BENCH_CPU_PROF=<dir>: every server process writes a CPU profile there when it stops (open it
// as a flame graph in Chrome's DevTools or speedscope; scripts/profile-summary.ts lists its top).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { checkDb, createDb, migrate, type DbHandle, type SqliteHandle } from '../db/index.js';
import { loadConfig, parseDatabaseUrl } from '../src/config.js';
import { CATEGORY_IDS } from '../src/places/model/category-ids.js';
import { FIRST_LIMIT, MORE_LIMIT } from '../web/lib/placeSearch.js';
import { placesUrl } from '../web/lib/rest.js';
import { importInputs } from '../src/places/sources/import/index.js';
import { createPlaceStore } from '../src/places/store/index.js';
import { CARD_ROWS_SQL } from '../src/places/search/local-reads.js';
import { maskOf } from '../src/places/model/categories.js';
import { placesRouter, searchPlaces } from '../src/procedures/places.js';
import { searchInput } from '../src/places/search/input.js';
import { PlacesService } from '../src/places/search/service.js';
import { scanningStore } from './support/table-scan.js';
import {
  autocannon,
  CONNECTIONS,
  createPostgresDatabase,
  HTTP_SECONDS,
  median,
  memoryOf,
  postgresServer,
  round,
  startBareFastify,
  treeCpuSeconds,
  type LoadResult,
} from './support/load.js';
import { createServices } from '../src/services.js';
import { LAUNCH_ARGS, LAUNCH_ENV } from '../src/launch.js';
import type { Context } from '../src/trpc/context.js';
import { freePort } from '../support/ports.js';
import type { Cluster } from '../support/postgres-cluster.js';

const ROOT = join(import.meta.dirname, '..');
const DATA = join(ROOT, '..', 'shared', 'data');
const VANCOUVER = join(DATA, 'vancouver_canada-2015.osm.pbf');
const ALL_EXTRACTS = [
  'vancouver_canada-2015.osm.pbf',
  'monaco-2021-04-21.osm.pbf',
  'andorra-2021-04-14.osm.pbf',
  'dc-openstreetpois-2013.geojson',
].map((f) => join(DATA, f));
const SYNTHETIC_SIZE = 1_000_000;
/** Wednesday 18 November 2026, 20:00 UTC: shops are open somewhere, closed elsewhere. */
const NOW = Date.parse('2026-11-18T20:00:00Z');

// BENCH_RUNS and BENCH_SECONDS shorten a run to check the benchmark itself; figures use the defaults.
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// A p99 needs many samples: of 300, it is the third slowest, one unlucky collection.
const QUERIES_PER_RUN = 1000;
/** a name search takes ~17 ms on the million */
const NAME_QUERIES_PER_RUN = 300;
const SCAN_QUERIES_PER_RUN = 12;

// Two 2-category queries: a typical one, and a dense one that fills the 100 results in a city.
const QUERIES = {
  '2 categories (pharmacy, hospital)': ['pharmacy', 'hospital'],
  '2 categories (restaurant, pharmacy)': ['restaurant', 'pharmacy'],
  '34 categories': [...CATEGORY_IDS],
} as const;
type QueryName = keyof typeof QUERIES;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
/** A small seeded PRNG: the same query centres on every run of the benchmark. */
function random(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 2 ** 32;
    return seed / 2 ** 32;
  };
}

/** Query centres at the positions of places picked at random (seeded): where visitors search. */
async function centres(handle: DbHandle, count: number): Promise<{ lat: number; lon: number }[]> {
  const all = (await sql<{ lat: number; lon: number }>`select lat, lon from places order by id`.execute(handle.db))
    .rows;
  const next = random(42);
  return Array.from({ length: count }, () => all[Math.floor(next() * all.length)]);
}

// (a) ------------------------------------------------------------------------------------------

interface ImportRun {
  seconds: number;
  elements: number;
  places: number;
  peakRssBytes: number;
}

function importInChildProcess(databaseUrl: string): ImportRun {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/import.ts', '--json', VANCOUVER], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`import failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ImportRun;
}

function baselineRssBytes(): number {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '-e', 'console.log(process.resourceUsage().maxRSS * 1024)'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return Number(result.stdout.trim());
}

// (b) and (c) ----------------------------------------------------------------------------------

/** Copies the places of `source` (all four extracts) to offset positions until there are a million. */
export async function buildSynthetic(path: string): Promise<{ size: number; copies: number; seconds: number }> {
  const started = performance.now();
  const handle = createDb({ kind: 'sqlite', path }) as SqliteHandle;
  await migrate(handle);
  await importInputs(createPlaceStore(handle), ALL_EXTRACTS, { now: NOW });
  const base = handle.sqlite.prepare('select count(*) from places').pluck().get() as number;
  if (handle.sqlite.prepare('select max(id) from places').pluck().get() !== base)
    throw new Error('synthetic: expected ids 1..n after a fresh import');
  const copies = Math.ceil(SYNTHETIC_SIZE / base) - 1;
  const columns =
    'osm_type, categories, name, names, address, phone, website, opening_hours, wheelchair, country, timezone, source, fetched_at';
  const copy = handle.sqlite.prepare(
    `insert into places (id, osm_id, lat, lon, ${columns})
     select id + ? * ${base}, osm_id + ? * 100000000000, lat + ?, lon + ?, ${columns} from places where id <= ${base}`,
  );
  const copyTags = handle.sqlite.prepare(
    `insert into place_tags (id, tags) select id + ? * ${base}, tags from place_tags where id <= ${base}`,
  );
  // Building data, not serving it: durability can wait until the end.
  handle.sqlite.pragma('synchronous = OFF');
  handle.sqlite.transaction(() => {
    for (let k = 1; k <= copies; k++) {
      // a grid of half-degree steps: each extract spans less, so no copy overlaps another
      copy.run(k, k, 0.5 * Math.floor(k / 11) - 2.5, 0.5 * (k % 11));
      copyTags.run(k);
    }
  })();
  handle.sqlite.pragma('synchronous = FULL');
  handle.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const size = handle.sqlite.prepare('select count(*) from places').pluck().get() as number;
  await handle.close();
  return { size, copies: copies + 1, seconds: (performance.now() - started) / 1000 };
}

let work = '';

function procedureCaller(handle: DbHandle) {
  const config = loadConfig({
    DATABASE_URL: handle.dialect === 'sqlite' ? 'sqlite:unused' : handle.url,
    OVERPASS_URL: 'off',
    LOG_LEVEL: 'silent',
    UPLOAD_DIR: join(work, 'uploads'),
  });
  const services = createServices(config, handle, () => NOW);
  const ignore = () => {};
  const ctx: Context = {
    db: handle.db,
    config,
    services,
    now: () => NOW,
    log: { info: ignore, warn: ignore, error: ignore },
    ip: '127.0.0.1',
    lang: 'en',
    session: null,
    cookie: { current: undefined, set: ignore, clear: ignore },
  };
  return { caller: placesRouter.createCaller(ctx), services, ctx };
}

interface Latency {
  p50_ms: number;
  p99_ms: number;
  mean_results: number;
}

/**
 * In-process latency of one query at many points: `json` as GET /api/places runs it (the query
 * parsed by the procedure's schema, the answer made as JSON text from the cards), `procedure`
 * through tRPC's caller (objects). The first search, which reads the grid into memory as a
 * server does at start, is not counted.
 */
async function latency(
  handle: DbHandle,
  query: QueryName,
  points: { lat: number; lon: number }[],
  perRun: number,
  useIndex: boolean,
  as: 'json' | 'procedure' = 'procedure',
): Promise<Latency> {
  const { caller, services, ctx } = procedureCaller(handle);
  // the comparison without an index: the same service over the store with a table scan
  if (!useIndex && handle.dialect === 'sqlite')
    services.places = new PlacesService(scanningStore(services.places.index, handle.sqlite), null, () => NOW);
  const ask = (at: { lat: number; lon: number }) => {
    const input = { active_categories: [...QUERIES[query]], lat: at.lat, lon: at.lon, radius: 5000 };
    return as === 'procedure'
      ? caller.search(input)
      : searchPlaces(ctx, searchInput.parse(input)).then((answer) => answer.json());
  };
  // Counted outside the timing and without parsing the text: a parse's garbage is the client's,
  // and its collections would land in the server's timings. Every result opens with `{"name":`,
  // which a JSON string cannot hold (its quotes are escaped); the first answer checks that.
  const count = (answer: Awaited<ReturnType<typeof ask>>) =>
    typeof answer === 'string' ? occurrences(answer, '{"name":') : answer.results.length;
  const first = await ask(points[points.length - 1]);
  if (typeof first === 'string' && count(first) !== (JSON.parse(first) as { results: unknown[] }).results.length)
    throw new Error('the answer no longer opens each result with {"name":');
  const runs: { p50: number; p99: number; results: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const samples: number[] = [];
    let results = 0;
    for (let i = 0; i < perRun; i++) {
      const at = points[(run * perRun + i) % points.length];
      const started = performance.now();
      const answer = await ask(at);
      samples.push(performance.now() - started);
      results += count(answer);
    }
    samples.sort((a, b) => a - b);
    runs.push({ p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), results: results / perRun });
  }
  return {
    p50_ms: round(median(runs.map((r) => r.p50)), 3),
    p99_ms: round(median(runs.map((r) => r.p99)), 3),
    mean_results: round(median(runs.map((r) => r.results)), 1),
  };
}

function occurrences(text: string, part: string): number {
  let n = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) n++;
  return n;
}

/** Name searches (q, no categories: every one) within 5 km: served by the name index. */
export const NAME_QUERIES = ['starb', 'pharm', 'mcdon', 'tim hort', 'caf'];

export async function nameLatency(
  handle: DbHandle,
  points: { lat: number; lon: number }[],
  perRun = NAME_QUERIES_PER_RUN,
): Promise<Latency> {
  const { caller } = procedureCaller(handle);
  const runs: { p50: number; p99: number; results: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const samples: number[] = [];
    let results = 0;
    for (let i = 0; i < perRun; i++) {
      const at = points[(run * perRun + i) % points.length];
      const started = performance.now();
      const answer = await caller.search({
        active_categories: [],
        q: NAME_QUERIES[i % NAME_QUERIES.length],
        lat: at.lat,
        lon: at.lon,
        radius: 5000,
      });
      samples.push(performance.now() - started);
      results += answer.results.length;
    }
    samples.sort((a, b) => a - b);
    runs.push({ p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), results: results / perRun });
  }
  return {
    p50_ms: round(median(runs.map((r) => r.p50))),
    p99_ms: round(median(runs.map((r) => r.p99))),
    mean_results: round(median(runs.map((r) => r.results)), 1),
  };
}

/** What counting a search (SearchStats.record, in memory; flushed every 5 s) costs, per search. */
export async function statsCost(): Promise<{ record_us: number }> {
  const { SearchStats } = await import('../src/places/jobs/search-stats.js');
  const stats = new SearchStats(null as never); // never flushed here: only the in-memory part is timed
  const n = 200_000;
  const started = performance.now();
  for (let i = 0; i < n; i++)
    stats.record({
      nowMs: NOW,
      categories: ['pharmacy', 'hospital'],
      lat: 49 + (i % 100) / 1000,
      lon: -123,
      found: i % 5,
    });
  const record_us = round(((performance.now() - started) * 1000) / n, 3);
  const { timer } = stats as unknown as { timer: NodeJS.Timeout | null };
  if (timer) clearTimeout(timer);
  return { record_us };
}

interface Throughput {
  requests_per_s: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  non_2xx: number;
}

/** A server process as `npm start` runs it (the built bundle, built first), ready when /healthz answers. */
async function startServer(
  databaseUrl: string,
  concurrency: number,
): Promise<{ base: string; pid: number; startMs: number; stop(): Promise<void> }> {
  const port = await freePort();
  if (spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: 'inherit' }).status !== 0)
    throw new Error('npm run build:server failed');
  const spawned = performance.now();
  // started as `npm start` starts it: with the settings V8 and the C library read at start-up
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`]
    : [];
  const child: ChildProcess = spawn(
    process.execPath,
    [...LAUNCH_ARGS, ...profile, join(ROOT, 'dist', 'server', 'main.js')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...LAUNCH_ENV,
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        WEB_CONCURRENCY: String(concurrency),
        RATE_LIMIT: 'off',
        OVERPASS_URL: 'off',
        LOG_LEVEL: 'info',
        ADMIN_PASSWORD: 'bench-password-not-used-anywhere',
        UPLOAD_DIR: join(work, 'uploads'),
      },
      // Request logging stays on, as in production; nobody reads it.
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 600) throw new Error('server did not start in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    pid: child.pid!,
    startMs: Math.round(performance.now() - spawned),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function requestsPerSecond(base: string, paths: string[]): Promise<Throughput> {
  const runs = [];
  for (let run = 0; run < RUNS; run++) runs.push(await autocannon(base, paths));
  return throughputOf(runs);
}

function throughputOf(runs: LoadResult[]): Throughput {
  return {
    requests_per_s: Math.round(median(runs.map((r) => r.requests.average))),
    latency_p50_ms: median(runs.map((r) => r.latency.p50)),
    latency_p99_ms: median(runs.map((r) => r.latency.p99)),
    non_2xx: runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
  };
}

let helloWorld = 0;
let helloBase = '';

/**
 * The paths' throughput and its ratio to the hello-world, measured round by round: the
 * hello-world's run comes right before each of the paths' runs, and the ratio is the median of
 * the rounds' ratios. A shared machine's load changes within a bench run, and a yardstick taken
 * once at the start would tilt every later ratio.
 */
async function againstHelloWorld(
  base: string,
  paths: string[],
): Promise<Throughput & { ratio: number; hello_world_requests_per_s: number }> {
  const hellos: number[] = [];
  const runs: LoadResult[] = [];
  for (let run = 0; run < RUNS; run++) {
    hellos.push((await autocannon(helloBase, ['/'])).requests.average);
    runs.push(await autocannon(base, paths));
  }
  return {
    ...throughputOf(runs),
    ratio: round(median(runs.map((r, i) => r.requests.average / hellos[i]!)), 3),
    hello_world_requests_per_s: Math.round(median(hellos)),
  };
}

async function throughput(
  databaseUrl: string,
  points: { lat: number; lon: number }[],
  concurrency: number,
): Promise<Record<QueryName, Throughput & { ratio: number }>> {
  const server = await startServer(databaseUrl, concurrency);
  try {
    const figures = {} as Record<QueryName, Throughput & { ratio: number }>;
    for (const query of Object.keys(QUERIES) as QueryName[]) {
      const categories = QUERIES[query].map((c) => `active_categories=${c}`).join('&');
      const paths = points.map((p) => `/api/places?${categories}&lat=${p.lat}&lon=${p.lon}&radius=5000`);
      const check = await fetch(server.base + paths[0]);
      if (check.status !== 200) throw new Error(`GET /api/places answered ${check.status} ${await check.text()}`);
      figures[query] = await againstHelloWorld(server.base, paths);
    }
    return figures;
  } finally {
    await server.stop();
  }
}

async function searchFigures(label: string, databaseUrl: string, concurrencies: number[] = [1, 2]) {
  const handle = createDb(parseDatabaseUrl(databaseUrl)!, { poolSize: 4 });
  const size = await createPlaceStore(handle).count();
  // a point for each search of the in-process runs
  const points = await centres(handle, RUNS * QUERIES_PER_RUN);
  const inProcess = {} as Record<QueryName, { index: Latency; as_json: Latency; table_scan?: Latency }>;
  for (const query of Object.keys(QUERIES) as QueryName[]) {
    inProcess[query] = {
      index: await latency(handle, query, points, QUERIES_PER_RUN, true),
      as_json: await latency(handle, query, points, QUERIES_PER_RUN, true, 'json'),
    };
    if (handle.dialect === 'sqlite')
      inProcess[query].table_scan = await latency(handle, query, points, SCAN_QUERIES_PER_RUN, false);
  }
  const parts = handle.dialect === 'sqlite' ? await searchParts(handle as SqliteHandle, points) : undefined;
  if (parts) {
    console.log(
      `  ${label}, ${PARTS_QUERY} within 5 km, in-process, ` +
        `taken apart (p50): the grid's answer ${parts.grid_p50_ms} ms (${parts.mean_ids} ids); ` +
        `SQLite looking up those ids' card rows ${parts.card_rows_counted_p50_ms} ms counted inside SQLite, ` +
        `${parts.card_rows_p50_ms} ms returned as the search reads them; ` +
        `the whole search as GET /api/places answers ${inProcess[PARTS_QUERY].as_json.p50_ms} ms`,
    );
  }
  const byName = await nameLatency(handle, points);
  console.log(
    `  ${label}, search by name (q=${NAME_QUERIES.join('|')}, all categories) within 5 km: ` +
      `in-process p50 ${byName.p50_ms} ms, p99 ${byName.p99_ms} ms; ${byName.mean_results} results on average`,
  );
  await handle.close();
  const http: Record<string, Record<QueryName, Throughput & { ratio: number }>> = {};
  for (const n of concurrencies) http[`web_concurrency_${n}`] = await throughput(databaseUrl, points, n);
  for (const query of Object.keys(QUERIES) as QueryName[]) {
    const f = inProcess[query];
    const scan = f.table_scan
      ? ` (table scan: p50 ${f.table_scan.p50_ms} ms, ${round(f.table_scan.p50_ms / f.index.p50_ms, 0)}x slower)`
      : '';
    const overHttp = concurrencies
      .map((n) => {
        const h = http[`web_concurrency_${n}`][query];
        return `${n} process${n > 1 ? 'es' : ''}: ${h.requests_per_s} req/s = ${h.ratio} x hello-world (p99 ${h.latency_p99_ms} ms)`;
      })
      .join('; ');
    console.log(
      `  ${label}, ${query} within 5 km: in-process as GET /api/places answers (JSON text) ` +
        `p50 ${f.as_json.p50_ms} ms, p99 ${f.as_json.p99_ms} ms; ` +
        `through the tRPC procedure (objects) p50 ${f.index.p50_ms} ms, p99 ${f.index.p99_ms} ms${scan}; ` +
        `HTTP ${overHttp}; ${f.index.mean_results} results on average`,
    );
  }
  const pipeline = await pipelineFigures(label, databaseUrl, points);
  return { places: size, in_process: inProcess, search_parts: parts, by_name: byName, http, pipeline };
}

/** The query of the in-process floor (on the million): 100 results of two dense categories. */
const PARTS_QUERY: QueryName = '2 categories (restaurant, pharmacy)';

interface SearchParts {
  grid_p50_ms: number;
  card_rows_counted_p50_ms: number;
  card_rows_p50_ms: number;
  mean_ids: number;
}

/**
 * A search on SQLite taken apart, in-process, each part over the same points in a pass of its
 * own (so no part finds the pages another just read in SQLite's cache): the grid's answer (ids
 * and distances), then SQLite looking up the card rows of those ids, counted inside SQLite
 * (nothing returned to JavaScript) and returned as the search reads them. A whole search adds
 * the cards' objects, their statuses and the JSON text to these.
 */
async function searchParts(handle: SqliteHandle, points: { lat: number; lon: number }[]): Promise<SearchParts> {
  const reads = await createPlaceStore(handle).feed.reads();
  const mask = maskOf(QUERIES[PARTS_QUERY]);
  const counted = handle.sqlite
    .prepare('select count(*) from place_cards where id in (select value from json_each(?))')
    .pluck();
  const rows = handle.sqlite.prepare(CARD_ROWS_SQL).raw();
  const p50 = (samples: number[]) =>
    percentile(
      samples.sort((a, b) => a - b),
      0.5,
    );
  const runs: SearchParts[] = [];
  for (let run = 0; run < RUNS; run++) {
    const at = (i: number) => points[(run * QUERIES_PER_RUN + i) % points.length];
    const ids: number[][] = [];
    const grid: number[] = [];
    for (let i = 0; i < QUERIES_PER_RUN; i++) {
      const started = performance.now();
      ids.push(reads.grid.nearest(at(i).lat, at(i).lon, 5, mask, 100).ids);
      grid.push(performance.now() - started);
    }
    // the search passes its ids as a JSON array: that is timed too
    const timed = (read: (list: string) => unknown) =>
      ids.map((list) => {
        const started = performance.now();
        read(JSON.stringify(list));
        return performance.now() - started;
      });
    const countedMs = timed((list) => counted.get(list));
    const rowsMs = timed((list) => rows.all(list));
    runs.push({
      grid_p50_ms: p50(grid),
      card_rows_counted_p50_ms: p50(countedMs),
      card_rows_p50_ms: p50(rowsMs),
      mean_ids: ids.reduce((n, list) => n + list.length, 0) / ids.length,
    });
  }
  const figure = (key: keyof SearchParts, digits: number) => round(median(runs.map((r) => r[key])), digits);
  return {
    grid_p50_ms: figure('grid_p50_ms', 3),
    card_rows_counted_p50_ms: figure('card_rows_counted_p50_ms', 3),
    card_rows_p50_ms: figure('card_rows_p50_ms', 3),
    mean_ids: figure('mean_ids', 1),
  };
}

const HUNDRED_RESULTS = 'restaurant + pharmacy, default limit (100)';
const OVERLOAD_CONNECTIONS = 1000;
const OVERLOAD_SECONDS = 2 * HTTP_SECONDS;

/**
 * One server process: the request pipeline, the search at the limits the
 * API and the public page use, then overload (1,000 connections on the page's query): how much
 * was turned away, the p99 of the answered searches, memory, and /healthz right after.
 */
async function pipelineFigures(label: string, databaseUrl: string, points: { lat: number; lon: number }[]) {
  const server = await startServer(databaseUrl, 1);
  try {
    const search = (limit?: number) =>
      points.map(
        (p) =>
          `/api/places?active_categories=restaurant&active_categories=pharmacy&lat=${p.lat}&lon=${p.lon}&radius=5000${limit ? `&limit=${limit}` : ''}`,
      );
    const page = (limit: number) =>
      points.map((p) => placesUrl({ categories: ['restaurant', 'pharmacy'], position: p, lang: 'en', limit }));
    const publicPage = page(FIRST_LIMIT);
    // Far out in the South Pacific (around Point Nemo): no place within 5 km, so no search work.
    const emptyArea = points.map(
      (_, i) =>
        `/api/places?active_categories=restaurant&active_categories=pharmacy&lat=${-48 - (i % 40) / 20}&lon=${-125 + Math.floor(i / 40) / 20}&radius=5000`,
    );
    const empty = await (await fetch(server.base + emptyArea[emptyArea.length - 1])).json();
    if (empty.results?.length !== 0)
      throw new Error(`the empty area has places: ${JSON.stringify(empty).slice(0, 200)}`);
    // The floors, as ratios to the hello-world of the same run (null: measured, no floor).
    const measured: [what: string, paths: string[], target: number | null][] = [
      ['GET /healthz', ['/healthz'], 0.7],
      ['GET /api/settings', ['/api/settings'], 0.5],
      [HUNDRED_RESULTS, search(), 0.15],
      ['restaurant + pharmacy, limit=12', search(12), 0.3],
      [`the public page's query (restaurant + pharmacy, limit=${FIRST_LIMIT}, lang)`, publicPage, 0.05],
      [`the page's Load More past its first ${FIRST_LIMIT} (limit=${MORE_LIMIT}, lang)`, page(MORE_LIMIT), null],
      ['a search of an empty area (the route alone: no place to find)', emptyArea, null],
    ];
    // A server's first seconds are not its steady state (the JIT; on a million places, the
    // collector still freeing the index's build): a second of each list first, not counted.
    for (const [, list] of measured) await autocannon(server.base, list, { seconds: 1 });
    const figures: Record<
      string,
      Throughput & { ratio: number; target: number | null; met: boolean | null; bytes: number }
    > = {};
    for (const [what, list, target] of measured) {
      const bytes = (await (await fetch(server.base + list[0])).text()).length;
      const result = await againstHelloWorld(server.base, list);
      const ratio = result.ratio;
      const met = target === null ? null : ratio >= target;
      figures[what] = { ...result, target, met, bytes };
      const floor = target === null ? 'no floor' : `floor ${target}: ${met ? 'met' : 'NOT met'}`;
      console.log(
        `  ${label}, ${what}: ${result.requests_per_s} req/s = ${ratio} x hello-world (${floor}), ` +
          `p99 ${result.latency_p99_ms} ms, ${bytes.toLocaleString('en')} bytes`,
      );
    }
    const underLoad = memoryOf(server.pid);
    // What the 100-result answer's bytes cost alone: a bare Fastify sending as many, ready-made.
    const hundred = figures[HUNDRED_RESULTS];
    const bare = await startBareFastify(hundred.bytes);
    try {
      const ready = await againstHelloWorld(bare.base, ['/']);
      figures[
        `a bare Fastify sending a ready-made body of the same ${hundred.bytes.toLocaleString('en')} bytes (no search, no hooks)`
      ] = { ...ready, target: null, met: null, bytes: hundred.bytes };
      console.log(
        `  ${label}, a bare Fastify sending a ready-made ${hundred.bytes.toLocaleString('en')}-byte body ` +
          `(no search, no hooks): ${ready.requests_per_s} req/s = ${ready.ratio} x hello-world`,
      );
    } finally {
      bare.stop();
    }

    const overload = await autocannon(server.base, publicPage, {
      connections: OVERLOAD_CONNECTIONS,
      seconds: OVERLOAD_SECONDS,
    });
    const started = performance.now();
    const health = await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(10_000) }).then(
      (r) => r.status,
      () => 0,
    );
    const healthMs = Math.round(performance.now() - started);
    const after = memoryOf(server.pid);
    const answered = overload.statuses['200'] ?? 0;
    const shed = overload.statuses['503'] ?? 0;
    const overloadFigures = {
      connections: OVERLOAD_CONNECTIONS,
      seconds: OVERLOAD_SECONDS,
      answered_200: answered,
      turned_away_503: shed,
      other:
        Object.entries(overload.statuses)
          .filter(([status]) => status !== '200' && status !== '503')
          .reduce((sum, [, n]) => sum + n, 0) + overload.errors,
      answered_p99_ms: overload.ok_p99_ms,
      all_p99_ms: overload.latency.p99,
      healthz_after_ms: healthMs,
      healthz_after_status: health,
      peak_rss_mb: after?.peak_rss_mb ?? null,
    };
    console.log(
      `  ${label}, overload (${OVERLOAD_CONNECTIONS} connections, ${OVERLOAD_SECONDS} s, ` +
        `the public page's query): ${answered} answered, ${shed} turned away with 503, ` +
        `${overloadFigures.other} other; ` +
        `p99 of the answered ${overload.ok_p99_ms} ms (of all ${overload.latency.p99} ms); ` +
        `/healthz right after: ${health} in ${healthMs} ms; ` +
        `server memory: ${underLoad?.rss_mb} MiB after the 50-connection runs, peak ${after?.peak_rss_mb} MiB`,
    );
    return { ratios: figures, memory_after_50_connections_mb: underLoad, overload: overloadFigures };
  } finally {
    await server.stop();
  }
}

// Both engines, every process with its own copy ----------------------------------------------

/** The postmaster of the benchmark's own cluster: every PostgreSQL process is under it. */
function postmasterOf(cluster: Cluster | null): number | null {
  if (!cluster) return null;
  return Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

interface CpuPerRequest {
  /** µs of CPU per answered request: the server process(es) */
  app_us: number;
  /** µs of CPU per answered request: every PostgreSQL process (null: not measurable, or SQLite) */
  postgres_us: number | null;
  total_us: number;
  requests_per_s: number;
}

/** CPU per answered request over `paths` (medians of RUNS runs), the load generator left out. */
async function cpuPerRequest(
  base: string,
  appPid: number,
  postmaster: number | null,
  paths: string[],
): Promise<CpuPerRequest> {
  const runs: CpuPerRequest[] = [];
  for (let run = 0; run < RUNS; run++) {
    const [app0, pg0] = [treeCpuSeconds(appPid), postmaster === null ? 0 : treeCpuSeconds(postmaster)];
    const result = await autocannon(base, paths);
    const [app1, pg1] = [treeCpuSeconds(appPid), postmaster === null ? 0 : treeCpuSeconds(postmaster)];
    const answered = result.statuses['200'] ?? 0;
    if (answered === 0) throw new Error(`no answered request at ${base}${paths[0]}`);
    const app = ((app1 - app0) / answered) * 1e6;
    const database = postmaster === null ? null : ((pg1 - pg0) / answered) * 1e6;
    runs.push({
      app_us: app,
      postgres_us: database,
      total_us: app + (database ?? 0),
      requests_per_s: result.requests.average,
    });
  }
  const m = (key: keyof CpuPerRequest) => Math.round(median(runs.map((r) => r[key] ?? 0)));
  return {
    app_us: m('app_us'),
    postgres_us: postmaster === null ? null : m('postgres_us'),
    total_us: m('total_us'),
    requests_per_s: m('requests_per_s'),
  };
}

/** The routes compared across engines: the 100-result search, limit=12, the public page's query, and a search by name. */
function cpuRoutes(points: { lat: number; lon: number }[]): [string, string[]][] {
  const search = (limit?: number) =>
    points.map(
      (p) =>
        `/api/places?active_categories=restaurant&active_categories=pharmacy&lat=${p.lat}&lon=${p.lon}&radius=5000${limit ? `&limit=${limit}` : ''}`,
    );
  return [
    [HUNDRED_RESULTS, search()],
    ['restaurant + pharmacy, limit=12', search(12)],
    [
      `the public page's query (lang, limit=${FIRST_LIMIT})`,
      points.map((p) =>
        placesUrl({ categories: ['restaurant', 'pharmacy'], position: p, lang: 'en', limit: FIRST_LIMIT }),
      ),
    ],
    [
      'search by name (q), every category',
      points.map(
        (p, i) =>
          `/api/places?q=${encodeURIComponent(NAME_QUERIES[i % NAME_QUERIES.length])}&lat=${p.lat}&lon=${p.lon}&radius=5000`,
      ),
    ],
  ];
}

/**
 * Server CPU per answered request on each engine, side by side in one run (one server process
 * each, the same index and points), with the bare hello-world's beside them; and PostgreSQL's
 * searches a second with 1 and 2 processes.
 */
async function cpuFigures(
  engines: Record<string, string>,
  postmaster: number | null,
  points: { lat: number; lon: number }[],
  hello: { base: string; pid: number },
) {
  const helloCpu = await cpuPerRequest(hello.base, hello.pid, null, ['/']);
  console.log(
    `  CPU per answered request (medians of ${RUNS} x ${HTTP_SECONDS} s, ${CONNECTIONS} connections; ` +
      `the load generator left out): bare Fastify hello-world ${helloCpu.app_us} µs`,
  );
  const figures: Record<string, Record<string, CpuPerRequest>> = {};
  for (const [engine, url] of Object.entries(engines)) {
    const server = await startServer(url, 1);
    try {
      figures[engine] = {};
      for (const [, paths] of cpuRoutes(points)) await autocannon(server.base, paths, { seconds: 1 });
      for (const [what, paths] of cpuRoutes(points))
        figures[engine][what] = await cpuPerRequest(
          server.base,
          server.pid,
          engine === 'postgres' ? postmaster : null,
          paths,
        );
    } finally {
      await server.stop();
    }
  }
  for (const [what] of cpuRoutes(points)) {
    const line = Object.entries(figures)
      .map(
        ([engine, f]) =>
          `${engine} ${f[what].total_us} µs${f[what].postgres_us === null ? '' : ` (app ${f[what].app_us} + PostgreSQL ${f[what].postgres_us})`}`,
      )
      .join(', ');
    const ratio =
      figures.postgres && figures.sqlite
        ? `; PostgreSQL / SQLite = ${round(figures.postgres[what].total_us / figures.sqlite[what].total_us, 2)}x`
        : '';
    console.log(`  ${what}: ${line}${ratio}`);
  }
  return { hello_world: helloCpu, ...figures };
}

/** COPY text format: one field, escaped. */
const copyText = (value: unknown) =>
  value === null
    ? '\\N'
    : String(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');

/** The synthetic million's places, copied into a new PostgreSQL database (as a move would). */
async function syntheticOnPostgres(adminUrl: string, syntheticPath: string): Promise<{ url: string; seconds: number }> {
  const started = performance.now();
  const url = await createPostgresDatabase(adminUrl, 'bench_synthetic');
  const handle = createDb(parseDatabaseUrl(url)!);
  await checkDb(handle); // btree_gist, as a server's start adds it
  await migrate(handle);
  await handle.close();
  const columns = `osm_type, osm_id, lat, lon, categories, name, names, address, phone, website, opening_hours,
    wheelchair, country, timezone, source, fetched_at`;
  const source = createDb({ kind: 'sqlite', path: syntheticPath }) as SqliteHandle;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = source.sqlite.prepare(`select ${columns} from places order by id`).raw().iterate() as Iterable<
      unknown[]
    >;
    const lines = Readable.from(
      (function* () {
        let batch: string[] = [];
        for (const row of rows) {
          batch.push(row.map(copyText).join('\t'));
          if (batch.length === 5000) {
            yield `${batch.join('\n')}\n`;
            batch = [];
          }
        }
        if (batch.length) yield `${batch.join('\n')}\n`;
      })(),
    );
    await pipeline(lines, client.query(copyFrom(`copy places (${columns}) from stdin`)));
    await client.query('analyze places');
  } finally {
    await client.end();
    await source.close();
  }
  return { url, seconds: round((performance.now() - started) / 1000, 1) };
}

/**
 * The synthetic million on PostgreSQL: a node's start-up to serving and its memory, two nodes
 * (processes on one database), and how long a change committed by another writer takes to be
 * searched on both.
 */
async function millionOnPostgres(url: string, points: { lat: number; lon: number }[]) {
  const first = await startServer(url, 1);
  const second = await startServer(url, 1);
  try {
    const search = points.map(
      (p) =>
        `/api/places?active_categories=restaurant&active_categories=pharmacy&lat=${p.lat}&lon=${p.lon}&radius=5000`,
    );
    const started = memoryOf(first.pid);
    await autocannon(first.base, search);
    const served = memoryOf(first.pid);
    const seen: number[] = [];
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (let i = 0; i < RUNS; i++) {
        const at = { lat: -40 - i, lon: -100 - i };
        await client.query(
          `insert into places (osm_type, osm_id, lat, lon, categories, name, source, fetched_at)
           values ('node', $1, $2, $3, $4, 'bench', 'import', 0)`,
          [9e14 + i, at.lat, at.lon, maskOf(['restaurant'])],
        );
        const committed = performance.now();
        for (const server of [first, second]) {
          for (;;) {
            const answer = await (
              await fetch(
                `${server.base}/api/places?active_categories=restaurant&lat=${at.lat}&lon=${at.lon}&radius=1000`,
              )
            ).json();
            if (answer.results.length > 0) break;
            if (performance.now() - committed > 30_000) throw new Error('a change not seen in 30 s');
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        }
        seen.push(Math.round(performance.now() - committed));
      }
    } finally {
      await client.end();
    }
    const figures = {
      start_to_serving_ms: [first.startMs, second.startMs],
      rss_mb_after_start: started,
      rss_mb_after_searches: served,
      change_seen_by_both_ms: median(seen),
    };
    console.log(
      `  postgres, SYNTHETIC 1M index: ` +
        `start-up to serving ${first.startMs} ms and ${second.startMs} ms (two nodes, one after the other); ` +
        `memory of a node ${started?.rss_mb} MiB after start, ` +
        `${served?.rss_mb} MiB (peak ${served?.peak_rss_mb}) after ${HTTP_SECONDS} s of searches; ` +
        `a change committed by another writer searched on both nodes after ${figures.change_seen_by_both_ms} ms (median of ${RUNS})`,
    );
    return figures;
  } finally {
    await first.stop();
    await second.stop();
  }
}

function importFiguresOf(imports: ImportRun[]) {
  return {
    file: 'vancouver_canada-2015.osm.pbf',
    elements: imports[0].elements,
    places: imports[0].places,
    seconds: round(median(imports.map((r) => r.seconds))),
    elements_per_s: Math.round(median(imports.map((r) => r.elements / r.seconds))),
    peak_rss_mb: Math.round(median(imports.map((r) => r.peakRssBytes)) / 2 ** 20),
  };
}

/**
 * CPU per answered request on both engines (Vancouver) with the hello-world
 * beside; PostgreSQL's searches a second with 1 and 2 processes; the synthetic million on
 * PostgreSQL (start-up, memory, a change reaching two nodes).
 */
async function nodeCopySection(
  engines: Record<string, string>,
  postgres: { adminUrl: string; cluster: Cluster | null } | null,
  hello: { base: string; pid: number },
  synthetic: string,
) {
  console.log('every process searching its own copy of the places (PostgreSQL beside SQLite):');
  const pointsOf = async (url: string) => {
    const handle = createDb(parseDatabaseUrl(url)!);
    try {
      return await centres(handle, 1000);
    } finally {
      await handle.close();
    }
  };
  const points = await pointsOf(engines.sqlite);
  const cpu = await cpuFigures(engines, postmasterOf(postgres?.cluster ?? null), points, hello);
  if (!postgres || !engines.postgres) return { cpu_per_request: cpu };
  const processes: Record<string, Throughput & { ratio: number }> = {};
  for (const n of [1, 2]) {
    processes[`web_concurrency_${n}`] = (await throughput(engines.postgres, points, n))[
      '2 categories (restaurant, pharmacy)'
    ];
  }
  console.log(
    `  postgres, Vancouver, restaurant + pharmacy: ` +
      `${processes.web_concurrency_1.requests_per_s} req/s with 1 process, ` +
      `${processes.web_concurrency_2.requests_per_s} req/s with 2 ` +
      `(this machine: ${cpus().length} cores, shared with the load generator and PostgreSQL)`,
  );
  const copied = await syntheticOnPostgres(postgres.adminUrl, synthetic);
  console.log(`  SYNTHETIC 1M index copied into PostgreSQL in ${copied.seconds} s`);
  const million = await millionOnPostgres(copied.url, await pointsOf(`sqlite:${synthetic}`));
  return {
    cpu_per_request: cpu,
    postgres_processes: processes,
    synthetic_on_postgres: { copy_seconds: copied.seconds, ...million },
  };
}

export async function run() {
  work = mkdtempSync(join(tmpdir(), 'places-bench-'));
  const hello = await startBareFastify();
  const postgres = await postgresServer();
  const databases: string[] = [];
  try {
    helloBase = hello.base;
    helloWorld = (await requestsPerSecond(hello.base, ['/'])).requests_per_s;
    console.log(
      `bare Fastify hello-world: ${helloWorld.toLocaleString('en')} req/s ` +
        `(${CONNECTIONS} connections, median of ${RUNS} x ${HTTP_SECONDS} s): the yardstick; ` +
        'each ratio below is against a hello-world run right before each of its own runs',
    );
    const baseline = Math.round(baselineRssBytes() / 2 ** 20);

    // BENCH_PLACES=cpu: only the two engines' CPU per search, side by side (a few minutes)
    if (process.env.BENCH_PLACES === 'cpu') {
      const engines: Record<string, string> = { sqlite: `sqlite:${join(work, 'vancouver.db')}` };
      if (postgres)
        databases.push((engines.postgres = await createPostgresDatabase(postgres.adminUrl, 'bench_vancouver_0')));
      for (const url of Object.values(engines)) importInChildProcess(url);
      const handle = createDb(parseDatabaseUrl(engines.sqlite)!);
      const points = await centres(handle, 1000).finally(() => handle.close());
      return {
        hello_world_requests_per_s: helloWorld,
        cpu_per_request: await cpuFigures(engines, postmasterOf(postgres?.cluster ?? null), points, hello),
      };
    }

    // BENCH_PLACES=node-copies: these figures alone (the whole benchmark takes over an hour)
    if (process.env.BENCH_PLACES === 'node-copies') {
      const engines: Record<string, string> = { sqlite: `sqlite:${join(work, 'vancouver.db')}` };
      if (postgres)
        databases.push((engines.postgres = await createPostgresDatabase(postgres.adminUrl, 'bench_vancouver_0')));
      for (const url of Object.values(engines)) importInChildProcess(url);
      const built = await buildSynthetic(join(work, 'synthetic.db'));
      if (postgres) databases.push(`${postgres.adminUrl.replace(/\/[^/]*$/, '')}/bench_synthetic`);
      return {
        hello_world_requests_per_s: helloWorld,
        node_copies: await nodeCopySection(engines, postgres, hello, join(work, 'synthetic.db')),
        synthetic_size: built.size,
      };
    }

    // (a) the import, on each engine, each run into a fresh database
    const engines: Record<string, string[]> = {
      sqlite: [0, 1, 2].map((i) => `sqlite:${join(work, `vancouver-${i}.db`)}`),
    };
    if (postgres) {
      engines.postgres = [];
      for (let i = 0; i < RUNS; i++)
        engines.postgres.push(await createPostgresDatabase(postgres.adminUrl, `bench_vancouver_${i}`));
      databases.push(...engines.postgres);
    }
    const imports: Record<string, ReturnType<typeof importFiguresOf>> = {};
    for (const [engine, urls] of Object.entries(engines)) {
      imports[engine] = importFiguresOf(urls.map((url) => importInChildProcess(url)));
      const f = imports[engine];
      console.log(
        `import of ${f.file} into ${engine}: ${f.seconds} s, ` +
          `${f.elements_per_s.toLocaleString('en')} elements/s, peak memory ${f.peak_rss_mb} MB ` +
          `(a bare node+tsx process: ${baseline} MB); ` +
          `${f.places.toLocaleString('en')} places from ${f.elements.toLocaleString('en')} elements (median of ${RUNS})`,
      );
    }

    // (b) the same index and queries on each engine, 1 and 2 server processes
    console.log(
      `search (medians of ${RUNS} runs; in-process = the places.search procedure; ` +
        `HTTP = GET /api/places, ${CONNECTIONS} connections, ${HTTP_SECONDS} s, a server process per setting):`,
    );
    const vancouver: Record<string, Awaited<ReturnType<typeof searchFigures>>> = {};
    for (const [engine, urls] of Object.entries(engines))
      vancouver[engine] = await searchFigures(`${engine}, Vancouver index`, urls[0]);

    const counting = await statsCost();
    console.log(
      `  counting a search for the statistics: ${counting.record_us} µs in memory; one transaction of upserts every 5 s`,
    );

    // (c) the synthetic million, on SQLite
    const built = await buildSynthetic(join(work, 'synthetic.db'));
    console.log(
      `  SYNTHETIC index: ${built.size.toLocaleString('en')} places ` +
        `(the four extracts' places, ${built.copies} copies at offset positions), built in ${round(built.seconds, 1)} s`,
    );
    const synthetic = await searchFigures('sqlite, SYNTHETIC 1M index', `sqlite:${join(work, 'synthetic.db')}`, [1]);
    const nodeCopies = await nodeCopySection(
      { sqlite: engines.sqlite[0], ...(engines.postgres ? { postgres: engines.postgres[0] } : {}) },
      postgres,
      hello,
      join(work, 'synthetic.db'),
    );
    if (postgres) databases.push(`${postgres.adminUrl.replace(/\/[^/]*$/, '')}/bench_synthetic`);
    return {
      node_copies: nodeCopies,
      hello_world_requests_per_s: helloWorld,
      process_baseline_rss_mb: baseline,
      import: imports,
      vancouver_index: vancouver,
      search_statistics: counting,
      synthetic_index: { synthetic: true, ...built, ...synthetic },
    };
  } finally {
    hello.stop();
    if (postgres && !postgres.cluster) {
      const admin = new pg.Client({ connectionString: postgres.adminUrl });
      await admin.connect();
      for (const url of databases)
        await admin.query(`drop database if exists ${new URL(url).pathname.slice(1)} with (force)`);
      await admin.end();
    }
    postgres?.cluster?.remove();
    rmSync(work, { recursive: true, force: true });
  }
}
