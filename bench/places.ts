// Place search benchmark (issue 3, point 7), all figures medians of several runs:
//  (a) import of the Vancouver extract: seconds, elements/s, peak memory (each run its own process);
//  (b) search on that index and on a SYNTHETIC one-million-place index (the real extracts' places
//      copied to offset positions): p50/p99 in-process through the places.search procedure, and
//      requests/s over HTTP (GET /api/places, autocannon, 50 connections, RATE_LIMIT=off),
//      for a 2-category and a 34-category query within 5 km;
//  (c) the same in-process queries on a plain table scan, to show what the R*Tree buys.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { createDb, migrate, type DbHandle } from '../db/index.js';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { CATEGORY_IDS } from '../src/places/category-ids.js';
import { importInputs } from '../src/places/import/index.js';
import { placesRouter } from '../src/procedures/places.js';
import { createServices } from '../src/services.js';
import type { Context } from '../src/trpc/context.js';

const ROOT = join(import.meta.dirname, '..');
const DATA = join(ROOT, '..', 'shared', 'data');
const VANCOUVER = join(DATA, 'vancouver_canada-2015.osm.pbf');
const ALL_EXTRACTS = ['vancouver_canada-2015.osm.pbf', 'monaco-2021-04-21.osm.pbf', 'andorra-2021-04-14.osm.pbf', 'dc-openstreetpois-2013.geojson'].map((f) => join(DATA, f));
const SYNTHETIC_SIZE = 1_000_000;
/** Wednesday 18 November 2026, 20:00 UTC: shops are open somewhere, closed elsewhere. */
const NOW = Date.parse('2026-11-18T20:00:00Z');

const RUNS = 3;
const QUERIES_PER_RUN = 300;
const SCAN_QUERIES_PER_RUN = 12;
const HTTP_SECONDS = 5;
const CONNECTIONS = 50;

// Two 2-category queries: a typical one, and a dense one that fills the 100 results in a city.
const QUERIES = {
  '2 categories (pharmacy, hospital)': ['pharmacy', 'hospital'],
  '2 categories (restaurant, pharmacy)': ['restaurant', 'pharmacy'],
  '34 categories': [...CATEGORY_IDS],
} as const;
type QueryName = keyof typeof QUERIES;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A small seeded PRNG: the same query centres on every run of the benchmark. */
function random(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 2 ** 32;
    return seed / 2 ** 32;
  };
}

function centres(handle: DbHandle, count: number): { lat: number; lon: number }[] {
  const max = handle.sqlite.prepare('select max(id) from places').pluck().get() as number;
  const byId = handle.sqlite.prepare('select lat, lon from places where id >= ? order by id limit 1');
  const next = random(42);
  return Array.from({ length: count }, () => byId.get(1 + Math.floor(next() * max)) as { lat: number; lon: number });
}

// (a) ------------------------------------------------------------------------------------------

interface ImportRun {
  seconds: number;
  elements: number;
  places: number;
  peakRssBytes: number;
}

function importInChildProcess(databasePath: string): ImportRun {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/import.ts', '--json', VANCOUVER], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: `sqlite:${databasePath}` },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`import failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as ImportRun;
}

function baselineRssBytes(): number {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '-e', 'console.log(process.resourceUsage().maxRSS * 1024)'], { cwd: ROOT, encoding: 'utf8' });
  return Number(result.stdout.trim());
}

// (b) and (c) ----------------------------------------------------------------------------------

/** Copies the places of `source` (all four extracts) to offset positions until there are a million. */
export async function buildSynthetic(path: string): Promise<{ size: number; copies: number; seconds: number }> {
  const started = performance.now();
  const handle = createDb({ kind: 'sqlite', path });
  await migrate(handle.db);
  await importInputs(handle.sqlite, ALL_EXTRACTS, { now: NOW });
  const base = handle.sqlite.prepare('select count(*) from places').pluck().get() as number;
  if (handle.sqlite.prepare('select max(id) from places').pluck().get() !== base) throw new Error('synthetic: expected ids 1..n after a fresh import');
  const copies = Math.ceil(SYNTHETIC_SIZE / base) - 1;
  const columns = 'osm_type, categories, name, names, address, phone, website, opening_hours, wheelchair, country, timezone, source, fetched_at';
  const copy = handle.sqlite.prepare(
    `insert into places (id, osm_id, lat, lon, ${columns})
     select id + ? * ${base}, osm_id + ? * 100000000000, lat + ?, lon + ?, ${columns} from places where id <= ${base}`,
  );
  const copyTags = handle.sqlite.prepare(`insert into place_tags (id, tags) select id + ? * ${base}, tags from place_tags where id <= ${base}`);
  // Building data, not serving it: durability can wait until the end.
  handle.sqlite.pragma('synchronous = OFF');
  handle.sqlite.transaction(() => {
    for (let k = 1; k <= copies; k++) {
      // a grid of half-degree steps: each extract spans less, so no copy overlaps another
      copy.run(k, k, 0.5 * Math.floor(k / 11) - 2.5, 0.5 * (k % 11));
      copyTags.run(k);
    }
    handle.sqlite.prepare(`insert into places_rtree select id, lat, lat, lon, lon, categories from places where id > ${base}`).run();
    CATEGORY_IDS.forEach((category, i) => {
      handle.sqlite.prepare(`insert into places_rtree_${category} select id, lat, lat, lon, lon from places where id > ${base} and (categories & ?) != 0`).run(2 ** i);
    });
  })();
  handle.sqlite.pragma('synchronous = FULL');
  handle.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const size = handle.sqlite.prepare('select count(*) from places').pluck().get() as number;
  await handle.close();
  return { size, copies: copies + 1, seconds: (performance.now() - started) / 1000 };
}

let work = '';

function procedureCaller(handle: DbHandle) {
  const config = loadConfig({ DATABASE_URL: 'sqlite:unused', OVERPASS_URL: 'off', LOG_LEVEL: 'silent', UPLOAD_DIR: join(work, 'uploads') });
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
  return { caller: placesRouter.createCaller(ctx), services };
}

interface Latency {
  p50_ms: number;
  p99_ms: number;
  mean_results: number;
}

async function latency(handle: DbHandle, query: QueryName, points: { lat: number; lon: number }[], perRun: number, useIndex: boolean): Promise<Latency> {
  const { caller, services } = procedureCaller(handle);
  services.places.store.useIndex = useIndex;
  const runs: { p50: number; p99: number; results: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const samples: number[] = [];
    let results = 0;
    for (let i = 0; i < perRun; i++) {
      const at = points[(run * perRun + i) % points.length];
      const started = performance.now();
      const answer = await caller.search({ active_categories: [...QUERIES[query]], lat: at.lat, lon: at.lon, radius: 5000 });
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

interface Throughput {
  requests_per_s: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  non_2xx: number;
}

/** autocannon in its own process, so it does not take the server's event loop. */
function autocannon(url: string, paths: string[]): Promise<{ requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number }> {
  const script = `
    const autocannon = require('autocannon');
    let input = '';
    process.stdin.on('data', (chunk) => (input += chunk));
    process.stdin.on('end', () => {
      const paths = JSON.parse(input);
      let i = 0;
      autocannon({
        url: process.env.BENCH_URL,
        connections: ${CONNECTIONS},
        duration: ${HTTP_SECONDS},
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
      }, (error, result) => {
        if (error) { console.error(error); process.exit(1); }
        process.stdout.write(JSON.stringify(result));
      });
    });`;
  return new Promise((resolve, reject) => {
    // the paths go through stdin: as an environment variable they are too long for exec
    const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, env: { ...process.env, BENCH_URL: url } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon failed: ${err}`))));
    child.stdin.end(JSON.stringify(paths));
  });
}

async function throughput(databasePath: string, points: { lat: number; lon: number }[]): Promise<Record<QueryName, Throughput>> {
  const config = loadConfig({
    DATABASE_URL: `sqlite:${databasePath}`,
    RATE_LIMIT: 'off',
    OVERPASS_URL: 'off',
    LOG_LEVEL: 'info',
    ADMIN_PASSWORD: 'bench-password-not-used-anywhere',
    UPLOAD_DIR: join(work, 'uploads'),
  });
  const handle = createDb(config.database);
  // Request logging stays on, as in production, written nowhere.
  const devNull = new Writable({ write: (_chunk, _encoding, done) => done() });
  const app = await createApp({ config, handle, now: () => NOW, logger: { stream: devNull }, announce: () => {} });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const figures = {} as Record<QueryName, Throughput>;
    for (const query of Object.keys(QUERIES) as QueryName[]) {
      const categories = QUERIES[query].map((c) => `active_categories=${c}`).join('&');
      const paths = points.map((p) => `/api/places?${categories}&lat=${p.lat}&lon=${p.lon}&radius=5000`);
      const check = await fetch(base + paths[0]);
      if (check.status !== 200) {
        throw new Error(`GET /api/places answered ${check.status} ${await check.text()}: is the route wired to places.search?`);
      }
      const runs = [];
      for (let run = 0; run < RUNS; run++) runs.push(await autocannon(base, paths));
      figures[query] = {
        requests_per_s: Math.round(median(runs.map((r) => r.requests.average))),
        latency_p50_ms: median(runs.map((r) => r.latency.p50)),
        latency_p99_ms: median(runs.map((r) => r.latency.p99)),
        non_2xx: runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
      };
    }
    return figures;
  } finally {
    await app.close();
  }
}

async function searchFigures(label: string, databasePath: string) {
  const handle = createDb({ kind: 'sqlite', path: databasePath });
  const size = handle.sqlite.prepare('select count(*) from places').pluck().get() as number;
  const points = centres(handle, 2000);
  const inProcess = {} as Record<QueryName, { index: Latency; table_scan: Latency }>;
  for (const query of Object.keys(QUERIES) as QueryName[]) {
    inProcess[query] = {
      index: await latency(handle, query, points, QUERIES_PER_RUN, true),
      table_scan: await latency(handle, query, points, SCAN_QUERIES_PER_RUN, false),
    };
  }
  await handle.close();
  const http = await throughput(databasePath, points);
  for (const query of Object.keys(QUERIES) as QueryName[]) {
    const f = inProcess[query];
    console.log(
      `  ${label}, ${query} within 5 km: in-process p50 ${f.index.p50_ms} ms, p99 ${f.index.p99_ms} ms ` +
        `(table scan: p50 ${f.table_scan.p50_ms} ms, p99 ${f.table_scan.p99_ms} ms, ${round(f.table_scan.p50_ms / f.index.p50_ms, 0)}x slower); ` +
        `HTTP ${http[query].requests_per_s} req/s (p50 ${http[query].latency_p50_ms} ms, p99 ${http[query].latency_p99_ms} ms); ` +
        `${f.index.mean_results} results on average`,
    );
  }
  return { places: size, in_process: inProcess, http };
}

export async function run() {
  work = mkdtempSync(join(tmpdir(), 'places-bench-'));
  try {
    // (a)
    const imports: ImportRun[] = [];
    for (let i = 0; i < RUNS; i++) imports.push(importInChildProcess(join(work, `vancouver-${i}.db`)));
    const importFigures = {
      file: 'vancouver_canada-2015.osm.pbf',
      elements: imports[0].elements,
      places: imports[0].places,
      seconds: round(median(imports.map((r) => r.seconds))),
      elements_per_s: Math.round(median(imports.map((r) => r.elements / r.seconds))),
      peak_rss_mb: Math.round(median(imports.map((r) => r.peakRssBytes)) / 2 ** 20),
      process_baseline_rss_mb: Math.round(baselineRssBytes() / 2 ** 20),
    };
    console.log(
      `import of ${importFigures.file}: ${importFigures.seconds} s, ${importFigures.elements_per_s.toLocaleString('en')} elements/s, ` +
        `peak memory ${importFigures.peak_rss_mb} MB (a bare node+tsx process: ${importFigures.process_baseline_rss_mb} MB); ` +
        `${importFigures.places.toLocaleString('en')} places from ${importFigures.elements.toLocaleString('en')} elements (median of ${RUNS})`,
    );

    // (b), (c)
    console.log(`search (medians of ${RUNS} runs; in-process = the places.search procedure; HTTP = GET /api/places, ${CONNECTIONS} connections, ${HTTP_SECONDS} s):`);
    const vancouver = await searchFigures(`Vancouver index (${importFigures.places.toLocaleString('en')} places)`, join(work, 'vancouver-0.db'));
    const built = await buildSynthetic(join(work, 'synthetic.db'));
    console.log(`  SYNTHETIC index: ${built.size.toLocaleString('en')} places (the four extracts' places, ${built.copies} copies at offset positions), built in ${round(built.seconds, 1)} s`);
    const synthetic = await searchFigures('SYNTHETIC 1M index', join(work, 'synthetic.db'));
    const targets: Record<string, boolean> = { 'Vancouver import < 10 s': importFigures.seconds < 10 };
    for (const query of Object.keys(QUERIES).filter((q) => q.startsWith('2 categories')) as QueryName[]) {
      targets[`1M ${query}: p50 < 5 ms in-process`] = synthetic.in_process[query].index.p50_ms < 5;
      targets[`1M ${query}: >= 2,000 req/s over HTTP`] = synthetic.http[query].requests_per_s >= 2000;
    }
    console.log('  targets:');
    for (const [target, met] of Object.entries(targets)) console.log(`    ${met ? 'met    ' : 'NOT met'}  ${target}`);
    return { import: importFigures, vancouver_index: vancouver, synthetic_index: { synthetic: true, ...built, ...synthetic }, targets };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
