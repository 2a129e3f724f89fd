// The load-test pieces the benchmark modules share: the built server started as `npm start` runs
// it, autocannon in its own process, the CPU and memory of a process tree from /proc, a bare
// Fastify to measure against, a PostgreSQL server and database, and the small statistics of the
// figures.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { LAUNCH_ARGS, LAUNCH_ENV } from '../../src/launch.js';
import { freePort } from '../../support/ports.js';
import { findPostgresBin, startCluster, type Cluster } from '../../support/postgres-cluster.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** A server process of the build (dist/server), as `npm start` runs it. */
export interface BuiltServer {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts the built server with `env` over quiet defaults (no live fallback, the access log on as
 * in production and unread) and resolves once /healthz answers.
 */
export async function startBuiltServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<BuiltServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [...LAUNCH_ARGS, ...nodeArgs, join(ROOT, 'dist', 'server', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, ...LAUNCH_ENV, PORT: String(port), OVERPASS_URL: 'off', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (
    let i = 0;
    !(await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  ) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (i > 600) throw new Error('server did not start in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) =>
        child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')),
      ),
  };
}

/** Seconds of load a measure takes, unless it says otherwise (BENCH_SECONDS shortens a trial run). */
export const HTTP_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** The connections a measure opens, unless it says otherwise. */
export const CONNECTIONS = 50;

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export interface LoadResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  /** client errors, timeouts among them */
  errors: number;
  /** requests with no answer within the timeout */
  timeouts: number;
  /** answers by status */
  statuses: Record<string, number>;
  /** p99 latency of the 2xx answers alone, ms */
  ok_p99_ms: number;
}

/**
 * autocannon in its own process, so it does not take the server's event loop. Each request takes
 * the next of `paths`; with `visitors`, it also comes from the next of that many addresses through
 * X-Forwarded-For (a proxy on the same machine, trusted by default), 10.x.y.z; `headers` go with
 * every request (Accept-Encoding, as a browser's).
 */
export function autocannon(
  url: string,
  paths: string[],
  options: {
    connections?: number;
    seconds?: number;
    visitors?: number;
    timeoutS?: number;
    headers?: Record<string, string>;
  } = {},
): Promise<LoadResult> {
  const script = `
    const autocannon = require('autocannon');
    let input = '';
    process.stdin.on('data', (chunk) => (input += chunk));
    process.stdin.on('end', () => {
      const paths = JSON.parse(input);
      const visitors = ${options.visitors ?? 0};
      const extra = ${JSON.stringify(options.headers ?? {})};
      const address = (n) => '10.' + ((n >> 16) & 255) + '.' + ((n >> 8) & 255) + '.' + (n & 255);
      let i = 0;
      const ok = [];
      const statuses = {};
      const instance = autocannon({
        url: process.env.BENCH_URL,
        connections: ${options.connections ?? CONNECTIONS},
        duration: ${options.seconds ?? HTTP_SECONDS},
        timeout: ${options.timeoutS ?? 30},
        requests: [{ method: 'GET', setupRequest: (req) => {
          const n = i++;
          const headers = { ...req.headers, ...extra };
          const from = visitors ? { ...headers, 'x-forwarded-for': address(n % visitors) } : headers;
          return { ...req, path: paths[n % paths.length], headers: from };
        } }],
      }, (error, result) => {
        if (error) { console.error(error); process.exit(1); }
        ok.sort((a, b) => a - b);
        result.statuses = statuses;
        result.ok_p99_ms = ok.length ? ok[Math.min(ok.length - 1, Math.floor(ok.length * 0.99))] : null;
        process.stdout.write(JSON.stringify(result));
      });
      instance.on('response', (_client, status, _bytes, ms) => {
        statuses[status] = (statuses[status] || 0) + 1;
        if (status < 300) ok.push(ms);
      });
    });`;
  return new Promise((resolve, reject) => {
    // the paths go through stdin: as an environment variable they are too long for exec
    const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, env: { ...process.env, BENCH_URL: url } });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon failed: ${err}`)),
    );
    child.stdin.end(JSON.stringify(paths));
  });
}

/** A process's resident memory now and at its peak, MiB (Linux: /proc). */
export function memoryOf(pid: number): { rss_mb: number; peak_rss_mb: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss_mb: Math.round(kb('VmRSS') / 1024), peak_rss_mb: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}

/**
 * A bare Fastify 5 in its own process. Without `bytes`, the hello-world: the yardstick every ratio
 * is against. With `bytes`, it answers a ready-made JSON body of that size: what sending a search's
 * answer costs with no search and no hooks at all.
 */
export async function startBareFastify(bytes?: number): Promise<{ base: string; pid: number; stop(): void }> {
  const port = await freePort();
  const route =
    bytes === undefined
      ? `app.get('/', async () => ({ hello: 'world' }));`
      : // `{"filler":"..."}`: 13 bytes around the filler
        `const body = Buffer.from(JSON.stringify({ filler: 'x'.repeat(${Math.max(0, bytes - 13)}) })); app.get('/', async (req, reply) => reply.type('application/json').send(body));`;
  const script = `const app = require('fastify')(); ${route} app.listen({ port: ${port}, host: '127.0.0.1' });`;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  for (
    let i = 0;
    !(await fetch(base).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  ) {
    if (i > 100) throw new Error('the bare Fastify did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { base, pid: child.pid!, stop: () => void child.kill('SIGTERM') };
}

/** Clock ticks a second, for /proc's CPU times. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/**
 * CPU seconds (user + system) of a process and every process under it, with what their exited
 * children took (Linux: /proc/<pid>/stat): a PostgreSQL backend that ends hands its time to its parent.
 */
export function treeCpuSeconds(root: number): number {
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // the fields after the command's closing parenthesis: state, ppid, ... utime (14), stime, cutime, cstime
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(name);
      const ppid = Number(f[1]);
      ticks.set(pid, Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]));
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  for (const stack = [root]; stack.length;) {
    const pid = stack.pop()!;
    total += ticks.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total / CLOCK_TICKS;
}

/** A PostgreSQL server for the benchmark, or null (said plainly) when there is none. */
export async function postgresServer(): Promise<{ adminUrl: string; cluster: Cluster | null } | null> {
  if (process.env.BENCH_DATABASE_URL) return { adminUrl: process.env.BENCH_DATABASE_URL, cluster: null };
  if (!findPostgresBin()) {
    console.log('  PostgreSQL figures skipped: set BENCH_DATABASE_URL or install postgresql and postgis');
    return null;
  }
  const cluster = startCluster(await freePort(), { durable: true });
  return { adminUrl: cluster.url, cluster };
}

/** The PostgreSQL server's main process: its tree holds every connection's CPU. */
export function postmasterPid(cluster: Cluster): number {
  return Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

export async function createPostgresDatabase(adminUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // What an operator does once as superuser (README): the app's own start-up adds the rest.
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  await db.query('create extension if not exists postgis');
  await db.end();
  return url.toString();
}
