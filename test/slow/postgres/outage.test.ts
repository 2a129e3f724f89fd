// The database going away (issue 8, point 6): a real server process on a private PostgreSQL
// cluster that is killed (`pg_ctl stop -m immediate`) under a stream of writes, then started
// again. Meanwhile every request answers 503 quickly, /healthz says so, the process survives, it
// recovers by itself, and every write it acknowledged is in the database. Also: start-up against
// a server that is not there, or lacks PostGIS, stops with one clear line.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, freePort } from '../../helpers.js';
import { startCluster, type Cluster } from '../../../support/postgres-cluster.js';
import { SERVER_ARGS } from '../../support/server-process.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

let cluster: Cluster;
let dir: string;

async function query<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Starts the cluster again if a failed test left it stopped, so that the next tests can run. */
function ensureRunning(): void {
  try {
    cluster.start();
  } catch {
    // running already
  }
}

function databaseUrl(user: string, database: string): string {
  return `postgres://${user}@127.0.0.1:${cluster.port}/${database}`;
}

interface Server {
  child: ChildProcessWithoutNullStreams;
  base: string;
  output: () => string;
  exited: Promise<number | null>;
}

function spawnServer(env: Record<string, string>): Server {
  const child = spawn(process.execPath, SERVER_ARGS, {
    cwd: ROOT,
    env: {
      ...process.env,
      ADMIN_PASSWORD,
      OVERPASS_URL: 'off',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      UPLOAD_DIR: join(dir, 'uploads'),
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, base: `http://127.0.0.1:${env.PORT ?? 0}`, output: () => output, exited };
}

async function waitForHealthy(server: Server, ms: number): Promise<void> {
  const { base } = server;
  const until = Date.now() + ms;
  for (;;) {
    // Ours must be the one answering (not another test's server that took the port first).
    if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.output()}`);
    try {
      const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(3000) });
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${base} not healthy after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A request with its status, body, headers and how long it took (never more than 10 s). */
async function timed(url: string, init: RequestInit = {}) {
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    return { status: response.status, text, headers: response.headers, ms: performance.now() - started };
  } catch (error) {
    return {
      status: 0,
      text: `${String(error)} (${String((error as { cause?: unknown }).cause)})`,
      headers: new Headers(),
      ms: performance.now() - started,
    };
  }
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'outage-test-'));
  cluster = startCluster(await freePort());
  await query(cluster.url, 'create database app');
  await query(databaseUrl('postgres', 'app'), 'create extension postgis; create extension btree_gist');
  // The shared test clusters trade durability for speed (synchronous_commit=off on the command
  // line); a session setting on this database overrides that: a commit is acknowledged only
  // once its WAL is written, as on a real server.
  await query(cluster.url, 'alter database app set synchronous_commit = on');
});

afterAll(() => {
  cluster?.remove();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('PostgreSQL stopping under load', () => {
  it('answers 503 quickly meanwhile, recovers by itself, and keeps every acknowledged write', async () => {
    const port = await freePort();
    const server = spawnServer({ PORT: String(port), DATABASE_URL: databaseUrl('postgres', 'app') });
    const { base } = server;
    try {
      await waitForHealthy(server, 30_000);
      expect((await query(databaseUrl('postgres', 'app'), 'show synchronous_commit'))[0]).toEqual({
        synchronous_commit: 'on',
      });

      // Two writers: contact messages (each with its own subject) and visits, as fast as they go.
      const acknowledged: string[] = [];
      let visitsAcknowledged = 0;
      let visitsTried = 0;
      const statuses: number[] = [];
      let slowest = 0;
      let running = true;
      let n = 0;
      const writer = async () => {
        while (running) {
          const subject = `outage ${n++}`;
          const sent = await timed(
            `${base}/api/contact`,
            json({ name: 'Ana', email: 'ana@example.org', subject, body: 'hello' }),
          );
          statuses.push(sent.status);
          slowest = Math.max(slowest, sent.ms);
          if (sent.status === 200) acknowledged.push(subject);
          visitsTried++;
          const visit = await timed(`${base}/api/visit`, { method: 'POST' });
          statuses.push(visit.status);
          slowest = Math.max(slowest, visit.ms);
          if (visit.status === 200) visitsAcknowledged++;
          if (sent.status !== 200 || visit.status !== 200) await new Promise((r) => setTimeout(r, 20));
        }
      };
      const writers = [writer(), writer()];
      while (acknowledged.length < 40) await new Promise((r) => setTimeout(r, 20));
      const beforeStop = acknowledged.length;

      cluster.stop('immediate');
      const stoppedAt = Date.now();
      await new Promise((r) => setTimeout(r, 300));

      // During the outage: a public read, a write, an admin login, tRPC and the health check.
      const plans = await timed(`${base}/api/plans`);
      expect(plans.status, `${plans.text}; server said: ${server.output().slice(-2000)}`).toBe(503);
      expect(JSON.parse(plans.text)).toEqual({ error: 'Service temporarily unavailable' });
      expect(plans.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(plans.ms).toBeLessThan(2000);

      const contact = await timed(
        `${base}/api/contact`,
        json({ name: 'Bo', email: 'bo@example.org', subject: 'during', body: 'x' }),
      );
      expect(contact.status).toBe(503);
      expect(JSON.parse(contact.text)).toEqual({ error: 'Service temporarily unavailable' });

      const login = await timed(`${base}/api/admin/login`, json({ username: 'admin', password: ADMIN_PASSWORD }));
      expect(login.status).toBe(503);
      expect(JSON.parse(login.text)).toEqual({ error: 'Service temporarily unavailable' });
      // A request with a session cookie fails where the session is read (the context).
      const withCookie = await timed(`${base}/api/messages`, {
        headers: { cookie: 'sid=abcdefabcdefabcdefabcdefabcdefabcdefabcdefa' },
      });
      expect(withCookie.status).toBe(503);

      const trpc = await timed(`${base}/trpc/plans.list`);
      expect(trpc.status).toBe(503);
      expect(trpc.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(JSON.parse(trpc.text).error.message).toBe('Service temporarily unavailable');
      expect(trpc.text).not.toMatch(/ECONNREFUSED|stack|postgres/i);
      const trpcWithCookie = await timed(`${base}/trpc/messages.list`, {
        headers: { cookie: 'sid=abcdefabcdefabcdefabcdefabcdefabcdefabcdefa' },
      });
      expect(trpcWithCookie.status).toBe(503);
      expect(trpcWithCookie.headers.get('retry-after')).toMatch(/^\d+$/);

      const health = await timed(`${base}/healthz`);
      expect(health.status).toBe(503);
      expect(JSON.parse(health.text)).toEqual({ ok: false });
      expect(health.ms).toBeLessThan(1500);

      // Let the writers run into the outage for a while.
      while (Date.now() - stoppedAt < 2000) await new Promise((r) => setTimeout(r, 50));
      const duringOutage = acknowledged.length;
      cluster.start();

      // Back by itself: no restart of the app.
      await waitForHealthy(server, 30_000);
      while (acknowledged.length < duringOutage + 20) await new Promise((r) => setTimeout(r, 20));
      running = false;
      await Promise.all(writers);
      expect((await timed(`${base}/api/plans`)).status).toBe(200);

      // Only successes and 503s, each within the pool's connection timeout; no crash.
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
      expect(slowest).toBeLessThan(6000);
      expect(server.child.exitCode).toBeNull();
      expect(server.output()).not.toMatch(/Unhandled|uncaught/i);
      expect(beforeStop).toBeGreaterThanOrEqual(40);

      // Every acknowledged write is stored.
      const stored = new Set(
        (await query<{ subject: string }>(databaseUrl('postgres', 'app'), 'select subject from messages')).map(
          (r) => r.subject,
        ),
      );
      expect(acknowledged.filter((s) => !stored.has(s))).toEqual([]);
      const [{ total_visits }] = await query<{ total_visits: number }>(
        databaseUrl('postgres', 'app'),
        'select total_visits from visit_counters',
      );
      expect(total_visits).toBeGreaterThanOrEqual(visitsAcknowledged);
      expect(total_visits).toBeLessThanOrEqual(visitsTried);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      ensureRunning();
    }
  }, 120_000);

  it('answers 503 as well where the request limits, counted in the database, are checked first', async () => {
    const server = spawnServer({
      PORT: String(await freePort()),
      DATABASE_URL: databaseUrl('postgres', 'app'),
      RATE_LIMIT: 'on',
    });
    try {
      await waitForHealthy(server, 30_000);
      expect((await timed(`${server.base}/trpc/plans.list`)).status).toBe(200);
      cluster.stop('immediate');
      for (const url of [`${server.base}/api/plans`, `${server.base}/trpc/plans.list`]) {
        const answer = await timed(url);
        expect(answer.status, `${url}: ${answer.text}; server said: ${server.output().slice(-2000)}`).toBe(503);
        expect(answer.headers.get('retry-after'), url).toMatch(/^\d+$/);
        expect(answer.text, url).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
        expect(answer.ms, url).toBeLessThan(2000);
      }
      cluster.start();
      await waitForHealthy(server, 30_000);
      expect((await timed(`${server.base}/trpc/plans.list`)).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      ensureRunning();
    }
  }, 60_000);
});

describe('start-up without a usable PostgreSQL', () => {
  it('stops with one line when the server cannot be reached', async () => {
    const nobody = await freePort();
    const server = spawnServer({
      PORT: String(await freePort()),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${nobody}/app`,
    });
    const started = Date.now();
    const code = await server.exited;
    expect(code).not.toBe(0);
    expect(Date.now() - started).toBeLessThan(20_000);
    const lines = server.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`cannot reach PostgreSQL at 127\\.0\\.0\\.1:${nobody}/app`));
  }, 30_000);

  it('stops with one line saying how to add PostGIS when the database lacks it and the role cannot add it', async () => {
    // The usual production shape: the app's role owns its database but is no superuser.
    await query(cluster.url, 'create role site_owner login');
    await query(cluster.url, 'create database no_gis owner site_owner');
    const server = spawnServer({ PORT: String(await freePort()), DATABASE_URL: databaseUrl('site_owner', 'no_gis') });
    const code = await server.exited;
    expect(code).not.toBe(0);
    const lines = server.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /PostGIS is missing in 127\.0\.0\.1:\d+\/no_gis; as a superuser run: psql -d no_gis -c 'CREATE EXTENSION postgis'/,
    );
    // Nothing was created in it.
    const tables = await query(
      databaseUrl('postgres', 'no_gis'),
      "select tablename from pg_tables where schemaname = 'public'",
    );
    expect(tables).toEqual([]);
  }, 30_000);
});
