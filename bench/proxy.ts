// What the per-address limits cost, and a thousand visitors at once.
//  (a) Server CPU time per answered request (user + system of the server process, and of
//      PostgreSQL's processes where it serves; the load generator left out), with RATE_LIMIT off
//      and on, for GET /api/settings and the 100-result search, on both engines: Vancouver's
//      places, 50 connections, 5,000 visitors through X-Forwarded-For (a proxy on the same
//      machine: trusted by default), a different point per search; medians of BENCH_RUNS runs,
//      beside a bare Fastify hello-world's CPU per request measured in the same run.
//  (b) 1,000 connections for 20 s on the public page's query at spread points, limits on: straight
//      at one server in the default configuration, and through Debian's nginx (deploy/nginx.conf)
//      in front of two server processes. Answered, shed (503), waits past 10 s, the answered
//      p99, memory per process.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIRST_LIMIT } from '../web/lib/placeSearch.js';
import { placesUrl } from '../web/lib/rest.js';
import { NGINX, startNginx } from '../support/nginx.js';
import {
  autocannon,
  createPostgresDatabase,
  median,
  memoryOf,
  postgresServer,
  round,
  startBareFastify,
  treeCpuSeconds,
  postmasterPid,
  startBuiltServer,
  type BuiltServer,
} from './support/load.js';

const ROOT = join(import.meta.dirname, '..');
const VANCOUVER = join(ROOT, '..', 'shared', 'data', 'vancouver_canada-2015.osm.pbf');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const VISITORS = 5000;
const CROWD = 1000;
const CROWD_SECONDS = 20;
/** what the crowd's clients wait before they count a request as lost */
const CROWD_TIMEOUT_S = 10;

let work = '';

/** Spread points over Vancouver's extract, the same every run. */
function points(count: number): { lat: number; lon: number }[] {
  let seed = 27;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => ({
    lat: round(49.2 + next() * 0.1, 5),
    lon: round(-123.22 + next() * 0.2, 5),
  }));
}

/** CPU ms of a process tree (a server's primary and workers, PostgreSQL's postmaster and backends). */
const treeCpuMs = (root: number) => treeCpuSeconds(root) * 1000;

const startServer = (databaseUrl: string, env: Record<string, string>) =>
  startBuiltServer({
    DATABASE_URL: databaseUrl,
    ADMIN_PASSWORD: 'bench-password-not-used-anywhere',
    UPLOAD_DIR: join(work, 'uploads'),
    ...env,
  });

/** µs of CPU per answered request (2xx) over one load run, and the run's throughput. */
async function cpuPerAnswered(
  base: string,
  paths: string[],
  pids: number[],
): Promise<{ us: number; requests_per_s: number }> {
  const before = pids.reduce((sum, pid) => sum + treeCpuMs(pid), 0);
  const result = await autocannon(base, paths, { connections: CONNECTIONS, seconds: SECONDS, visitors: VISITORS });
  const spent = pids.reduce((sum, pid) => sum + treeCpuMs(pid), 0) - before;
  const answered = Object.entries(result.statuses).reduce(
    (sum, [status, n]) => sum + (Number(status) < 300 ? n : 0),
    0,
  );
  if (answered === 0) throw new Error(`no request answered: ${JSON.stringify(result.statuses)}`);
  return { us: Math.round((spent * 1000) / answered), requests_per_s: Math.round(result.requests.average) };
}

function importInto(databaseUrl: string): void {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/import.ts', '--json', VANCOUVER], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`import failed: ${result.stderr}`);
}

const SEARCH = (p: { lat: number; lon: number }) =>
  `/api/places?active_categories=restaurant&active_categories=pharmacy&lat=${p.lat}&lon=${p.lon}&radius=5000`;

/** (a) for one engine: each route's CPU per answered request with the limits off and on. */
async function limitsCost(
  engine: string,
  databaseUrl: string,
  postgresPid: number | null,
  hello: { base: string; pid: number },
) {
  const spread = points(2000);
  const routes: Record<string, string[]> = {
    'GET /api/settings': ['/api/settings'],
    '100-result search (restaurant + pharmacy)': spread.map(SEARCH),
  };
  const figures: Record<
    string,
    Record<string, { cpu_us: number; requests_per_s: number; hello_world_cpu_us: number }>
  > = {};
  for (const limits of ['off', 'on']) {
    const server = await startServer(databaseUrl, { RATE_LIMIT: limits });
    const pids = postgresPid ? [server.pid, postgresPid] : [server.pid];
    try {
      for (const [route, paths] of Object.entries(routes)) {
        await autocannon(server.base, paths, { connections: CONNECTIONS, seconds: 1, visitors: VISITORS }); // warm-up: the JIT
        const runs = [];
        const hellos = [];
        for (let run = 0; run < RUNS; run++) {
          hellos.push((await cpuPerAnswered(hello.base, ['/'], [hello.pid])).us);
          runs.push(await cpuPerAnswered(server.base, paths, pids));
        }
        (figures[route] ??= {})[`limits ${limits}`] = {
          cpu_us: median(runs.map((r) => r.us)),
          requests_per_s: median(runs.map((r) => r.requests_per_s)),
          hello_world_cpu_us: median(hellos),
        };
      }
    } finally {
      await server.stop();
    }
  }
  for (const [route, byLimits] of Object.entries(figures)) {
    const off = byLimits['limits off'];
    const on = byLimits['limits on'];
    const ratio = round(on.cpu_us / off.cpu_us, 3);
    (byLimits as Record<string, unknown>).on_over_off = ratio;
    console.log(
      `  ${engine}, ${route}: limits off ${off.cpu_us} µs, ` +
        `on ${on.cpu_us} µs of server CPU per answered request (on/off ${ratio}; target within 1.15); ` +
        `${off.requests_per_s} / ${on.requests_per_s} req/s; hello-world ${off.hello_world_cpu_us} / ${on.hello_world_cpu_us} µs`,
    );
  }
  return figures;
}

/** (b) for one engine: the crowd straight at one server, and through nginx in front of two. */
async function crowd(engine: string, databaseUrl: string) {
  const page = points(5000).map((position) =>
    placesUrl({ categories: ['restaurant', 'pharmacy'], position, lang: 'en', limit: FIRST_LIMIT }),
  );
  const figures: Record<string, unknown> = {};
  const setups: [string, number][] = [
    ['straight at one server (the default configuration)', 1],
    ['through nginx in front of two server processes', 2],
  ];
  for (const [setup, processes] of setups) {
    if (processes > 1 && !existsSync(NGINX)) {
      console.log(`  ${engine}, ${setup}: skipped, nginx is not installed (apt-get install nginx-light)`);
      continue;
    }
    const servers: BuiltServer[] = [];
    let nginx: Awaited<ReturnType<typeof startNginx>> | null = null;
    try {
      for (let i = 0; i < processes; i++) servers.push(await startServer(databaseUrl, { RATE_LIMIT: 'on' }));
      nginx =
        processes > 1
          ? await startNginx(
              join(work, `nginx-${engine}`),
              servers.map((s) => Number(new URL(s.base).port)),
            )
          : null;
      const base = nginx ? `https://127.0.0.1:${nginx.port}` : servers[0].base;
      // 1,000 visitors, each its own address: nginx appends what it saw (loopback, trusted by
      // default) to the X-Forwarded-For the load generator writes, as a second proxy would.
      const result = await autocannon(base, page, {
        connections: CROWD,
        seconds: CROWD_SECONDS,
        visitors: CROWD,
        timeoutS: CROWD_TIMEOUT_S,
      });
      const answered = result.statuses['200'] ?? 0;
      const shed = result.statuses['503'] ?? 0;
      const other = Object.entries(result.statuses)
        .filter(([s]) => s !== '200' && s !== '503')
        .reduce((sum, [, n]) => sum + n, 0);
      const row = {
        answered_200: answered,
        shed_503: shed,
        other_statuses: other,
        waited_past_10_s: result.timeouts,
        other_errors: result.errors - result.timeouts,
        answered_p99_ms: result.ok_p99_ms,
        peak_rss_mib_per_process: servers.map((s) => memoryOf(s.pid)?.peak_rss_mb ?? null),
      };
      figures[setup] = row;
      console.log(
        `  ${engine}, ${CROWD} connections for ${CROWD_SECONDS} s ${setup}: ${answered} answered, ${shed} shed with 503, ${other} other, ` +
          `${row.waited_past_10_s} waited past ${CROWD_TIMEOUT_S} s, ${row.other_errors} other errors; ` +
          `answered p99 ${row.answered_p99_ms} ms; peak memory ${row.peak_rss_mib_per_process.join(' + ')} MiB`,
      );
    } finally {
      await nginx?.stop();
      for (const server of servers) await server.stop();
    }
  }
  return figures;
}

export async function run() {
  work = mkdtempSync(join(tmpdir(), 'proxy-bench-'));
  if (spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: 'inherit' }).status !== 0)
    throw new Error('npm run build:server failed');
  const hello = await startBareFastify();
  const postgres = await postgresServer();
  try {
    const engines: [string, string, number | null][] = [['sqlite', `sqlite:${join(work, 'vancouver.db')}`, null]];
    if (postgres?.cluster) {
      const postmaster = postmasterPid(postgres.cluster);
      engines.push(['postgres', await createPostgresDatabase(postgres.adminUrl, 'bench_proxy'), postmaster]);
    } else if (postgres)
      console.log(
        '  PostgreSQL: BENCH_DATABASE_URL names a server of its own; its CPU cannot be read here, so only SQLite is measured',
      );
    const results: Record<string, unknown> = {
      visitors: VISITORS,
      connections: CONNECTIONS,
      seconds: SECONDS,
      runs: RUNS,
    };
    console.log(
      `server CPU per answered request (µs; ${CONNECTIONS} connections, ${VISITORS.toLocaleString('en')} ` +
        `visitors through X-Forwarded-For, medians of ${RUNS} x ${SECONDS} s):`,
    );
    for (const [engine, url, postmaster] of engines) {
      importInto(url);
      results[engine] = { limits: await limitsCost(engine, url, postmaster, hello), crowd: await crowd(engine, url) };
    }
    return results;
  } finally {
    await hello.stop();
    postgres?.cluster?.remove();
    rmSync(work, { recursive: true, force: true });
  }
}
