// Import benchmark: a synthetic country (bench/support/synthetic-country.ts: copies of the
// Vancouver extract, ordered, ids spread as in today's data) imported by `npm run import` on
// SQLite and on PostgreSQL, beside Debian's osmium doing `tags-filter` (the category keys) then
// `export` (GeoJSON sequence, with geometry) on the same file in the same run. Wall, CPU and peak
// memory of each, whole processes (PostgreSQL's own CPU for its import), and the time per million
// elements at each size. Then the ceiling case: every way a place, so that place ways use tens
// of millions of distinct nodes. The generated files are cached in BENCH_CACHE_DIR (default a
// folder in the temp dir), never in the repository.
//   BENCH_IMPORT_COPIES    sizes, as copies of the extract (default "16,150": ~5M and ~48M nodes)
//   BENCH_IMPORT_CEILING   copies for the ceiling case (default 70: 20M+ distinct nodes; 0: none)
//   BENCH_IMPORT_ENGINES   default "sqlite,postgres"
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { CATEGORIES } from '../src/places/model/categories.js';
import { osmiumAvailable, syntheticCountry } from './support/synthetic-country.js';
import { createPostgresDatabase, postgresServer, postmasterPid, round, treeCpuSeconds } from './support/load.js';

const ROOT = join(import.meta.dirname, '..');
const list = (value: string | undefined, fallback: string) =>
  (value ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export interface Measured {
  wall_s: number;
  cpu_s: number;
  peak_rss_mb: number;
}

/** Runs a command under GNU time: its wall, CPU (user + system) and peak memory. */
export function measure(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Measured & { stdout: string } {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', command, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const lines = result.stderr.trim().split('\n');
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${lines.slice(-40).join('\n')}`);
  const [wall, user, system, rssKb] = lines.at(-1)!.split(' ').map(Number);
  return {
    wall_s: round(wall, 1),
    cpu_s: round(user + system, 1),
    peak_rss_mb: Math.round(rssKb / 1024),
    stdout: result.stdout,
  };
}

/**
 * osmium tags-filter expressions for what the categories keep: a key's values where every filter
 * on it names values (highway=bus_stop, not every road), the bare key otherwise.
 */
export function osmiumExpressions(): string[] {
  const byKey = new Map<string, Set<string> | null>();
  for (const category of CATEGORIES) {
    for (const filter of category.filters) {
      const values = byKey.has(filter.key) ? byKey.get(filter.key)! : new Set<string>();
      if (!filter.values || values === null) byKey.set(filter.key, null);
      else byKey.set(filter.key, new Set([...values, ...filter.values]));
    }
  }
  return [...byKey].map(([key, values]) => (values ? `nwr/${key}=${[...values].join(',')}` : `nwr/${key}`));
}

/** osmium keeping what the categories keep, then building the geometries: the standard tools' pace. */
export function osmiumPipeline(file: string, dir: string): Measured & { features: number } {
  const filtered = join(dir, 'filtered.osm.pbf');
  const exported = join(dir, 'export.geojsonseq');
  const filter = measure('osmium', ['tags-filter', file, ...osmiumExpressions(), '-o', filtered, '--overwrite']);
  const exporting = measure('osmium', ['export', filtered, '-f', 'geojsonseq', '-o', exported, '--overwrite']);
  const features = Number(spawnSync('wc', ['-l', exported], { encoding: 'utf8' }).stdout.trim().split(' ')[0]);
  rmSync(filtered, { force: true });
  rmSync(exported, { force: true });
  return {
    wall_s: round(filter.wall_s + exporting.wall_s, 1),
    cpu_s: round(filter.cpu_s + exporting.cpu_s, 1),
    peak_rss_mb: Math.max(filter.peak_rss_mb, exporting.peak_rss_mb),
    features,
  };
}

export interface ImportFigures extends Measured {
  elements: number;
  places: number;
  /** distinct nodes the kept ways and relations needed */
  needed_nodes: number;
  /** seconds per million elements read: wall, and CPU (PostgreSQL's included) */
  s_per_million: number;
  cpu_s_per_million: number;
  /** PostgreSQL's own CPU during the import */
  postgres_cpu_s?: number;
}

/** `npm run import -- --json <file>` into a fresh database, as its own process. */
export async function importRun(
  file: string,
  databaseUrl: string,
  postmaster: number | null = null,
): Promise<ImportFigures> {
  const before = postmaster ? treeCpuSeconds(postmaster) : 0;
  const run = measure(process.execPath, ['--expose-gc', '--import', 'tsx', 'scripts/import.ts', '--json', file], {
    DATABASE_URL: databaseUrl,
  });
  const postgres = postmaster ? round(treeCpuSeconds(postmaster) - before, 1) : 0;
  const summary = JSON.parse(run.stdout) as { elements: number; places: number; neededNodes: number };
  return {
    wall_s: run.wall_s,
    cpu_s: run.cpu_s,
    peak_rss_mb: run.peak_rss_mb,
    elements: summary.elements,
    places: summary.places,
    needed_nodes: summary.neededNodes,
    s_per_million: round(run.wall_s / (summary.elements / 1e6), 2),
    cpu_s_per_million: round((run.cpu_s + postgres) / (summary.elements / 1e6), 2),
    ...(postmaster ? { postgres_cpu_s: postgres } : {}),
  };
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
}

export async function run() {
  if (!osmiumAvailable())
    throw new Error("the import benchmark needs Debian's osmium-tool (sudo apt-get install -y osmium-tool)");
  const sizes = list(process.env.BENCH_IMPORT_COPIES, '16,150').map(Number);
  const ceiling = Number(process.env.BENCH_IMPORT_CEILING ?? 70);
  const engines = list(process.env.BENCH_IMPORT_ENGINES, 'sqlite,postgres');
  const source = process.env.BENCH_IMPORT_SOURCE || undefined;
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-'));
  const server = engines.includes('postgres') ? await postgresServer() : null;
  const results: Record<string, unknown> = {};
  try {
    const importOn = async (engine: string, file: string): Promise<ImportFigures> => {
      if (engine === 'sqlite') {
        const path = join(dir, 'import.db');
        try {
          return await importRun(file, `sqlite:${path}`);
        } finally {
          for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
        }
      }
      const url = await createPostgresDatabase(server!.adminUrl, 'bench_import');
      try {
        return await importRun(file, url, server!.cluster ? postmasterPid(server!.cluster) : null);
      } finally {
        await dropDatabase(server!.adminUrl, 'bench_import');
      }
    };

    for (const copies of sizes) {
      const country = await syntheticCountry({ copies, source });
      const figures: Record<string, unknown> = { file_mb: Math.round(country.bytes / 2 ** 20) };
      const osmium = osmiumPipeline(country.path, dir);
      figures.osmium_tags_filter_export = osmium;
      console.log(
        `  ${copies} copies (${figures.file_mb} MB): osmium tags-filter + export ${osmium.wall_s} s wall, ${osmium.cpu_s} s CPU, ${osmium.peak_rss_mb} MB peak, ${osmium.features.toLocaleString('en')} features`,
      );
      for (const engine of engines) {
        if (engine === 'postgres' && !server) continue;
        const result = await importOn(engine, country.path);
        figures[engine] = { ...result, wall_vs_osmium: round(result.wall_s / osmium.wall_s, 2) };
        console.log(
          `  ${copies} copies, import on ${engine}: ${result.wall_s} s wall (${round(result.wall_s / osmium.wall_s, 2)}x osmium), ${result.cpu_s} s CPU` +
            `${result.postgres_cpu_s !== undefined ? ` + ${result.postgres_cpu_s} s in PostgreSQL` : ''}, ${result.peak_rss_mb} MB peak, ` +
            `${result.elements.toLocaleString('en')} elements, ${result.places.toLocaleString('en')} places, ${result.s_per_million} s per million elements`,
        );
      }
      results[`copies_${copies}`] = figures;
    }
    const [small, large] = [sizes[0], sizes.at(-1)!];
    if (sizes.length > 1) {
      for (const engine of engines) {
        const a = (results[`copies_${small}`] as Record<string, ImportFigures>)[engine];
        const b = (results[`copies_${large}`] as Record<string, ImportFigures>)[engine];
        if (a && b) {
          const wall = round(b.s_per_million / a.s_per_million, 2);
          const cpu = round(b.cpu_s_per_million / a.cpu_s_per_million, 2);
          results[`${engine}_per_million_${large}_vs_${small}`] = { wall, cpu };
          console.log(
            `  ${engine}: time per million elements at ${large} copies / at ${small} copies: wall ${wall}x, CPU ${cpu}x`,
          );
        }
      }
    }
    if (ceiling > 0) {
      const country = await syntheticCountry({ copies: ceiling, placeWays: true, source });
      const result = await importOn('sqlite', country.path);
      results.ceiling_sqlite = { copies: ceiling, file_mb: Math.round(country.bytes / 2 ** 20), ...result };
      console.log(
        `  ceiling case (${ceiling} copies, every way a place): ${result.needed_nodes.toLocaleString('en')} distinct nodes in place ways and relations, ` +
          `${result.places.toLocaleString('en')} places; ${result.wall_s} s wall, ${result.cpu_s} s CPU, ${result.peak_rss_mb} MB peak`,
      );
    }
  } finally {
    server?.cluster?.remove();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
