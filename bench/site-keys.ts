// What a site key costs a read: server CPU time per answered request (user + system of the server
// process, and of PostgreSQL's processes where it serves; the load generator left out) for an
// anonymous read from another site's page (CORS, the per-address limits) beside the same read with
// a site key (the key's origin check and its quota counted in memory), for GET /api/settings and a
// search of Monaco's places, limits on, on both engines; medians of BENCH_RUNS runs, beside a bare
// Fastify hello-world's CPU per request measured in the same run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  autocannon,
  createPostgresDatabase,
  median,
  postgresServer,
  round,
  startBareFastify,
  treeCpuSeconds,
  postmasterPid,
  startBuiltServer,
} from './support/load.js';

const ROOT = join(import.meta.dirname, '..');
const MONACO = join(ROOT, '..', 'shared', 'data', 'monaco-2021-04-21.osm.pbf');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const VISITORS = 5000;
const PASSWORD = 'bench-password-not-used-anywhere';
/** the other site's page the reads come from */
const PARTNER = 'https://partner.example';

let work = '';

/** A server with the request limits on, as a partner site meets it. */
const startServer = (databaseUrl: string) =>
  startBuiltServer({
    DATABASE_URL: databaseUrl,
    RATE_LIMIT: 'on',
    ADMIN_PASSWORD: PASSWORD,
    UPLOAD_DIR: join(work, 'uploads'),
  });

/** A key for PARTNER with a quota no run reaches. */
async function createKey(base: string): Promise<string> {
  const headers = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' };
  const login = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith('sid='))!
    .split(';')[0];
  const created = await fetch(`${base}/api/admin/keys`, {
    method: 'POST',
    headers: { ...headers, cookie },
    body: JSON.stringify({ name: 'bench', origins: [PARTNER], daily_limit: 100_000_000 }),
  });
  return ((await created.json()) as { key: string }).key;
}

const treeCpuMs = (root: number) => treeCpuSeconds(root) * 1000;

async function cpuPerAnswered(
  base: string,
  paths: string[],
  pids: number[],
  headers: Record<string, string>,
): Promise<{ us: number; requests_per_s: number }> {
  const before = pids.reduce((sum, pid) => sum + treeCpuMs(pid), 0);
  const result = await autocannon(base, paths, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    visitors: VISITORS,
    headers,
  });
  const spent = pids.reduce((sum, pid) => sum + treeCpuMs(pid), 0) - before;
  const answered = Object.entries(result.statuses).reduce(
    (sum, [status, n]) => sum + (Number(status) < 300 ? n : 0),
    0,
  );
  if (answered === 0) throw new Error(`no request answered: ${JSON.stringify(result.statuses)}`);
  return { us: Math.round((spent * 1000) / answered), requests_per_s: Math.round(result.requests.average) };
}

async function engineCost(
  engine: string,
  databaseUrl: string,
  postgresPid: number | null,
  hello: { base: string; pid: number },
) {
  const imported = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/import.ts', '--json', MONACO], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`);
  const server = await startServer(databaseUrl);
  const pids = postgresPid ? [server.pid, postgresPid] : [server.pid];
  const figures: Record<string, Record<string, unknown>> = {};
  try {
    const key = await createKey(server.base);
    const routes: Record<string, string[]> = {
      'GET /api/settings': ['/api/settings'],
      'search (pharmacy + restaurant, Monaco)': [
        '/api/places?active_categories=pharmacy&active_categories=restaurant&lat=43.7384&lon=7.4246&radius=2000',
      ],
    };
    const ways: Record<string, Record<string, string>> = {
      anonymous: { origin: PARTNER },
      'with a key (X-Api-Key)': { origin: PARTNER, 'x-api-key': key },
    };
    for (const [route, paths] of Object.entries(routes)) {
      for (const [way, headers] of Object.entries(ways)) {
        await autocannon(server.base, paths, { connections: CONNECTIONS, seconds: 1, visitors: VISITORS, headers }); // warm-up: the JIT
        const runs = [];
        const hellos = [];
        for (let run = 0; run < RUNS; run++) {
          hellos.push((await cpuPerAnswered(hello.base, ['/'], [hello.pid], {})).us);
          runs.push(await cpuPerAnswered(server.base, paths, pids, headers));
        }
        (figures[route] ??= {})[way] = {
          cpu_us: median(runs.map((r) => r.us)),
          requests_per_s: median(runs.map((r) => r.requests_per_s)),
          hello_world_cpu_us: median(hellos),
        };
      }
      const anonymous = figures[route].anonymous as { cpu_us: number; hello_world_cpu_us: number };
      const keyed = figures[route]['with a key (X-Api-Key)'] as { cpu_us: number; hello_world_cpu_us: number };
      figures[route].keyed_over_anonymous = round(keyed.cpu_us / anonymous.cpu_us, 3);
      console.log(
        `  ${engine}, ${route}: anonymous ${anonymous.cpu_us} µs, with a key ${keyed.cpu_us} µs of server CPU per answered request ` +
          `(keyed/anonymous ${figures[route].keyed_over_anonymous}); ` +
          `hello-world ${anonymous.hello_world_cpu_us} / ${keyed.hello_world_cpu_us} µs`,
      );
    }
  } finally {
    await server.stop();
  }
  return figures;
}

export async function run() {
  work = mkdtempSync(join(tmpdir(), 'site-keys-bench-'));
  if (spawnSync('npm', ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: 'inherit' }).status !== 0)
    throw new Error('npm run build:server failed');
  const hello = await startBareFastify();
  const postgres = await postgresServer();
  try {
    const engines: [string, string, number | null][] = [['sqlite', `sqlite:${join(work, 'monaco.db')}`, null]];
    if (postgres?.cluster) {
      const postmaster = postmasterPid(postgres.cluster);
      engines.push(['postgres', await createPostgresDatabase(postgres.adminUrl, 'bench_site_keys'), postmaster]);
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
      `server CPU per answered read from another site's page (µs; ${CONNECTIONS} connections, limits on, ` +
        `medians of ${RUNS} x ${SECONDS} s):`,
    );
    for (const [engine, url, postmaster] of engines) results[engine] = await engineCost(engine, url, postmaster, hello);
    return results;
  } finally {
    hello.stop();
    postgres?.cluster?.remove();
    rmSync(work, { recursive: true, force: true });
  }
}
