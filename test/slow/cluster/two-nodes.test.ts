// Several processes, one site (issue 8, point 4), over real HTTP: two server processes
// (as `npm start` runs them) on one database behave as one site; and one port served
// by WEB_CONCURRENCY=2 workers. Each request comes from a loopback address of its own choosing
// (127.x.y.z), so that the per-address limits of one test do not reach into the next.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from '../../helpers.js';
import { startFakeOverpass, type FakeOverpass } from '../../support/fake-overpass.js';
import { freshDatabase, TEST_DIALECT, type TestDatabase } from '../../support/databases.js';
import { SHARE_EVERY_MS } from '../../../src/shared/rate-limit-store.js';
import { clearOfWindowEdge, countRateLimitWrites, refusedWithin } from '../../support/rate-limits.js';
import { sendAllAnswered, startServer, type ServerProcess } from '../../support/server-process.js';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** One request on a connection of its own, from the loopback address `from`. */
function call(
  server: ServerProcess,
  method: string,
  path: string,
  options: { json?: unknown; cookie?: string; from: string },
): Promise<Reply> {
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method,
        localAddress: options.from,
        agent: false,
        timeout: 20_000,
        headers: {
          // what a browser on the site's own pages sends
          'sec-fetch-site': 'same-origin',
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          ...(options.cookie ? { cookie: options.cookie } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          const json = /json/.test(res.headers['content-type'] ?? '');
          resolve({ status: res.statusCode!, headers: res.headers, body: json && text ? JSON.parse(text) : text });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 20 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function login(
  server: ServerProcess,
  from: string,
  username = 'admin',
  password = ADMIN_PASSWORD,
): Promise<string> {
  const reply = await call(server, 'POST', '/api/admin/login', { json: { username, password }, from });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  const sid = [reply.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('sid='));
  return sid!.split(';')[0];
}

/** Runs `tasks` with at most `width` at a time. */
async function inParallel<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

const contact = { name: 'Ada', email: 'ada@example.org', subject: 'Hello', body: 'A message from a test.' };

describe('two server processes on one database', () => {
  let dir: string;
  let database: TestDatabase;
  let overpass: FakeOverpass;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'two-nodes-'));
    database = await freshDatabase(dir);
    overpass = await startFakeOverpass();
    const env = {
      DATABASE_URL: database.url,
      RATE_LIMIT: 'on',
      OVERPASS_URL: overpass.url,
      LOG_LEVEL: 'silent',
      UPLOAD_DIR: join(dir, 'uploads'),
      DATABASE_POOL: '4',
    };
    if (TEST_DIALECT === 'postgres') {
      // Nodes starting at the same moment: migrations take turns, one creates the first admin.
      [a, b] = await Promise.all([startServer(env), startServer(env)]);
    } else {
      // The first start creates the SQLite file and migrates it; the second finds it ready.
      a = await startServer(env);
      b = await startServer(env);
    }
  });

  afterAll(async () => {
    expect(await Promise.all([a?.stop(), b?.stop()])).toEqual([0, 0]);
    await overpass?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('share sessions: logged in on A, acting on B; logged out on A, refused on B', { timeout: 30_000 }, async () => {
    const from = '127.0.1.1';
    const cookie = await login(a, from);
    const created = await call(b, 'POST', '/api/admin/credentials', {
      json: { username: 'editor', password: 'another long passphrase' },
      cookie,
      from,
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ success: true });
    const users = await call(a, 'GET', '/api/admin/credentials', { cookie, from });
    expect(users.body.map((u: { username: string }) => u.username)).toEqual(['admin', 'editor']);

    expect((await call(a, 'POST', '/api/admin/logout', { cookie, from })).status).toBe(200);
    const refused = await call(b, 'GET', '/api/admin/credentials', { cookie, from });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'Please login to access admin panel' });
  });

  it('count the contact limit (5 per 10 minutes per address) over both', { timeout: 30_000 }, async () => {
    const from = '127.0.2.1';
    for (let i = 0; i < 5; i++) {
      const reply = await call(i % 2 ? b : a, 'POST', '/api/contact', { json: contact, from });
      expect(reply.status).toBe(200);
    }
    for (const server of [a, b]) {
      const limited = await call(server, 'POST', '/api/contact', { json: contact, from });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(500);
      expect(limited.body).toEqual({ error: 'Too many requests, please try again later' });
    }
    // Another address has its own five.
    expect((await call(b, 'POST', '/api/contact', { json: contact, from: '127.0.2.2' })).status).toBe(200);
  });

  it(
    'count the tRPC limit (300 a minute per address) over both: 300 answered, then refused on both within 2 s',
    { timeout: 60_000 },
    async () => {
      const from = '127.0.2.3';
      await clearOfWindowEdge();
      const replies = await inParallel(
        Array.from({ length: 300 }, (_, i) => () => call(i % 2 ? a : b, 'GET', '/trpc/plans.list', { from })),
        10,
      );
      expect(replies.filter((r) => r.status === 200)).toHaveLength(300);
      for (const server of [a, b]) {
        const { reply, afterMs } = await refusedWithin(2000, () => call(server, 'GET', '/trpc/plans.list', { from }));
        expect(reply.status, `refused after ${afterMs} ms`).toBe(429);
        expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
        expect(reply.body).toEqual({ error: 'Too many requests, please try again later' });
      }
    },
  );

  it('refuse on B within 2 s a visitor over the REST limit on A', { timeout: 60_000 }, async () => {
    const from = '127.0.2.4';
    await clearOfWindowEdge();
    const onA = await inParallel(
      Array.from({ length: 310 }, () => () => call(a, 'GET', '/api/settings', { from })),
      10,
    );
    expect(onA.filter((r) => r.status === 200)).toHaveLength(300);
    expect(onA.filter((r) => r.status === 429)).toHaveLength(10);
    const { reply, afterMs } = await refusedWithin(2000, () => call(b, 'GET', '/api/settings', { from }));
    expect(reply.status, `B still answering ${afterMs} ms after A's refusals`).toBe(429);
    expect(reply.body).toEqual({ error: 'Too many requests, please try again later' });
    // Another visitor is not held back by it.
    expect((await call(b, 'GET', '/api/settings', { from: '127.0.2.5' })).status).toBe(200);
  });

  it(
    'write nothing to the database per request: 1,000 requests over both nodes, a few batched writes',
    { timeout: 90_000 },
    async () => {
      const writes = await countRateLimitWrites(database.url);
      try {
        await clearOfWindowEdge();
        const started = Date.now();
        // Four visitors, 250 requests each (under their 300), alternating between the nodes.
        const replies = await inParallel(
          Array.from(
            { length: 1000 },
            (_, i) => () => call(i % 2 ? a : b, 'GET', '/api/settings', { from: `127.0.9.${1 + (i % 4)}` }),
          ),
          20,
        );
        expect(replies.filter((r) => r.status === 200)).toHaveLength(1000);
        await new Promise((resolve) => setTimeout(resolve, 2 * SHARE_EVERY_MS));
        const seconds = Math.ceil((Date.now() - started) / 1000);
        const written = await writes.read();
        // Each node shares each visitor's count at most once a second.
        expect(written, `${written} rows written in ${seconds} s`).toBeGreaterThanOrEqual(4);
        expect(written, `${written} rows written in ${seconds} s`).toBeLessThanOrEqual(4 * 2 * (seconds + 1));
        expect(written).toBeLessThan(100);
      } finally {
        await writes.close();
      }
    },
  );

  it('count 200 visits split over both, sent in parallel, as 200', { timeout: 60_000 }, async () => {
    const from = '127.0.3.9';
    const cookie = await login(b, from);
    const before = (await call(a, 'GET', '/api/visits', { cookie, from })).body;
    const dayBefore = (await call(a, 'GET', '/api/visits/daily?days=1', { cookie, from })).body[0].count;
    // Four addresses, 50 visits each: under the limit of 60 a minute, which counts over both.
    const replies = await inParallel(
      Array.from(
        { length: 200 },
        (_, i) => () => call(i % 2 ? a : b, 'POST', '/api/visit', { from: `127.0.3.${1 + (i % 4)}` }),
      ),
      20,
    );
    expect(replies.map((r) => r.status)).toEqual(new Array(200).fill(200));
    const after = (await call(b, 'GET', '/api/visits', { cookie, from })).body;
    expect(after.total_visits - before.total_visits).toBe(200);
    expect(after.current_visits - before.current_visits).toBe(200);
    const dayAfter = (await call(a, 'GET', '/api/visits/daily?days=1', { cookie, from })).body[0].count;
    expect(dayAfter - dayBefore).toBe(200);
  });

  // On SQLite a node sees another's commit at its next request (PRAGMA data_version); on
  // PostgreSQL when the notification of migration 0009 arrives, milliseconds after the commit.
  const NOTIFIED_WITHIN_MS = 1000;

  it(
    'show a setting saved on A on B: on SQLite at the next request, on PostgreSQL once notified',
    { timeout: 30_000 },
    async () => {
      const from = '127.0.4.1';
      const cookie = await login(a, from);
      // B has read (and cached) the settings before the change.
      expect((await call(b, 'GET', '/api/settings', { from })).body.site_title).toBe('Find Services Near You');
      expect((await call(b, 'GET', '/trpc/settings.get', { from })).status).toBe(200);
      for (const title of ['Saved on A', 'Saved on A again']) {
        expect((await call(a, 'POST', '/api/settings', { json: { site_title: title }, cookie, from })).status).toBe(
          200,
        );
        const saved = performance.now();
        if (TEST_DIALECT === 'sqlite') {
          expect((await call(b, 'GET', '/api/settings', { from })).body.site_title).toBe(title);
          continue;
        }
        while ((await call(b, 'GET', '/api/settings', { from })).body.site_title !== title) {
          expect(performance.now() - saved, `"${title}" not shown on B`).toBeLessThan(NOTIFIED_WITHIN_MS);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    },
  );

  it(
    'never show an older setting once a newer one was shown, while B answers a stream of requests',
    { timeout: 30_000 },
    async () => {
      // On SQLite no request sent after a save may show a title older than that save's; on
      // PostgreSQL none sent after B first showed a title, and each shows within a second.
      const cookie = await login(a, '127.0.4.2');
      const titles = ['Streamed 1', 'Streamed 2', 'Streamed 3'];
      const savedAt: number[] = [];
      const shownAt: number[] = [];
      let streaming = true;
      const checked = titles.map(() => 0);
      const stale: string[] = [];
      // the newest title a request sent now must show at least
      const atLeast = () => (TEST_DIALECT === 'sqlite' ? savedAt.length : shownAt.length) - 1;
      const streams = Array.from({ length: 16 }, async (_, i) => {
        while (streaming) {
          const least = atLeast();
          const title = (await call(b, 'GET', '/api/settings', { from: `127.0.6.${i + 1}` })).body.site_title;
          const shown = titles.indexOf(title);
          if (shown >= 0 && shownAt[shown] === undefined) shownAt[shown] = performance.now();
          if (least < 0) continue;
          checked[least]++;
          if (shown < least)
            stale.push(
              `sent after "${titles[least]}" was ${TEST_DIALECT === 'sqlite' ? 'saved' : 'shown'}, answered "${title}"`,
            );
        }
      });
      // Each title stays the newest until B has answered more than 10 requests sent after it:
      // counted, not timed, since a busy machine answers fewer in a given time.
      const answeredAfter = async (i: number) => {
        while (checked[i] <= 10 && performance.now() - savedAt[i] < 10_000)
          await new Promise((resolve) => setTimeout(resolve, 20));
      };
      try {
        await new Promise((resolve) => setTimeout(resolve, 150));
        for (const [i, title] of titles.entries()) {
          expect(
            (await call(a, 'POST', '/api/settings', { json: { site_title: title }, cookie, from: '127.0.4.2' })).status,
          ).toBe(200);
          savedAt[i] = performance.now();
          await answeredAfter(i);
        }
      } finally {
        streaming = false;
        await Promise.all(streams);
      }
      expect(stale).toEqual([]);
      for (const count of checked) expect(count).toBeGreaterThan(10);
      for (const [i, title] of titles.entries())
        expect(shownAt[i] - savedAt[i], `"${title}" shown on B after its save`).toBeLessThan(NOTIFIED_WITHIN_MS);
    },
  );

  it(
    'throttle logins together: 5 failures on A throttle the account on B, 10 from an address on both',
    { timeout: 30_000 },
    async () => {
      // Five wrong passwords for "editor" on A, each from another address (the account counts).
      for (let i = 1; i <= 5; i++) {
        const reply = await call(a, 'POST', '/api/admin/login', {
          json: { username: 'editor', password: `wrong guess ${i}` },
          from: `127.0.5.${i}`,
        });
        expect(reply.status).toBe(401);
      }
      // The sixth, on A, and then the right password on B: both refused for now.
      for (const [server, password] of [
        [a, 'wrong guess 6'],
        [b, 'another long passphrase'],
      ] as const) {
        const blocked = await call(server, 'POST', '/api/admin/login', {
          json: { username: 'editor', password },
          from: '127.0.5.9',
        });
        expect(blocked.status).toBe(429);
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(200);
        expect(blocked.body.error).toMatch(/^Too many login attempts\. Try again in \d+ seconds\.$/);
      }
      // Ten failures from one address, for ten names, over both: the eleventh is refused.
      for (let i = 0; i < 10; i++) {
        const reply = await call(i % 2 ? a : b, 'POST', '/api/admin/login', {
          json: { username: `guess${i}`, password: 'whatever it is' },
          from: '127.0.5.20',
        });
        expect(reply.status).toBe(401);
      }
      const blocked = await call(a, 'POST', '/api/admin/login', {
        json: { username: 'admin', password: ADMIN_PASSWORD },
        from: '127.0.5.20',
      });
      expect(blocked.status).toBe(429);
    },
  );

  it(
    'let through exactly as many of 50 parallel wrong logins as of 50 sequential ones',
    { timeout: 60_000 },
    async () => {
      const attempt = (server: ServerProcess, username: string, from: string) =>
        call(server, 'POST', '/api/admin/login', { json: { username, password: 'not the password' }, from }).then(
          (r) => r.status,
        );
      const sequential: number[] = [];
      for (let i = 0; i < 50; i++) sequential.push(await attempt(i % 2 ? a : b, 'racer-one', '127.0.6.1'));
      // A server whose loop stalls under the crowd turns logins away uncounted (a busy CI machine).
      const parallel = await sendAllAnswered(50, (i) => attempt(i % 2 ? a : b, 'racer-two', '127.0.6.2'));
      const tally = (statuses: number[]) =>
        statuses.reduce<Record<number, number>>((counts, s) => ({ ...counts, [s]: (counts[s] ?? 0) + 1 }), {});
      const output = () => `server A:\n${a.output().slice(-2000)}\nserver B:\n${b.output().slice(-2000)}`;
      expect(tally(sequential), output()).toEqual({ 401: 5, 429: 45 });
      expect(tally(parallel), output()).toEqual(tally(sequential));
    },
  );

  it('ask Overpass one request at a time for the whole site, and an area once', { timeout: 60_000 }, async () => {
    const from = '127.0.7.1';
    overpass.delayMs = 300;
    const search = (server: ServerProcess, lat: number, lon: number) =>
      call(server, 'GET', `/api/places?active_categories=pharmacy&lat=${lat}&lon=${lon}&radius=1500`, { from });
    // The same area on both at once: one fetch; the other finds it in the shared day cache.
    const [onA, onB] = await Promise.all([search(a, 38.9, -77.03), search(b, 38.9, -77.03)]);
    expect([onA.status, onB.status]).toEqual([200, 200]);
    expect(onA.body.results.length).toBeGreaterThan(0);
    expect(onB.body.results.map((r: { id: string }) => r.id)).toEqual(
      onA.body.results.map((r: { id: string }) => r.id),
    );
    expect(overpass.requests).toHaveLength(1);
    // Four other areas at once (each 7 km or more from the others), two on each: four fetches,
    // never two at the same time.
    const areas = [
      [38.85, -76.95],
      [38.96, -77.08],
      [38.95, -76.97],
      [38.83, -77.05],
    ] as const;
    const replies = await Promise.all(areas.map(([lat, lon], i) => search(i % 2 ? a : b, lat, lon)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(overpass.requests).toHaveLength(5);
    expect(overpass.maxConcurrent).toBe(1);
  });
});

describe('WEB_CONCURRENCY=2', () => {
  let dir: string;
  let database: TestDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'workers-'));
    database = await freshDatabase(dir);
  });

  afterAll(async () => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'serves one port from two workers, restarts a crashed one, and stops all cleanly on SIGTERM',
    { timeout: 180_000 },
    async () => {
      // argon2 at its production cost, so that a login is still running when SIGTERM comes
      const env = {
        DATABASE_URL: database.url,
        WEB_CONCURRENCY: '2',
        LOG_LEVEL: 'debug',
        UPLOAD_DIR: join(dir, 'uploads'),
        DATABASE_POOL: '2',
        TEST_CHEAP_PASSWORD_HASH: undefined,
      };
      server = await startServer(env, { timeoutMs: 90_000 });
      const s = server;
      // The primary's log says which pid is which worker; every line carries its writer's pid.
      const lines = () =>
        s
          .output()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map(
            (line) =>
              JSON.parse(line) as {
                pid: number;
                msg: string;
                workerPid?: number;
                worker?: number;
                req?: { url: string };
              },
          );
      const listening = () => lines().filter((l) => /^worker \d listening/.test(l.msg));
      // Generous: two workers compiling through tsx on a machine shared with other tests take a while.
      const until = async (what: string, ok: () => boolean, ms = 40_000) => {
        const end = Date.now() + ms;
        while (!ok()) {
          if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms:\n${s.output()}`);
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      await until('both workers listening', () => listening().length === 2);
      const workerPids = listening().map((l) => l.workerPid!);
      expect(new Set(workerPids).size).toBe(2);
      expect(workerPids).not.toContain(s.child.pid);

      // Which process answered each /healthz, from its own request log line.
      const answeredBy = () =>
        new Set(
          lines()
            .filter((l) => l.msg === 'incoming request' && l.req?.url === '/healthz')
            .map((l) => l.pid),
        );
      for (let i = 0; i < 10; i++)
        expect((await call(s, 'GET', '/healthz', { from: '127.0.8.1' })).body).toEqual({ ok: true });
      await until('both workers answered', () => workerPids.every((pid) => answeredBy().has(pid)));
      expect(answeredBy().has(s.child.pid!)).toBe(false);

      // A worker that dies is replaced; the other goes on answering meanwhile.
      const victim = listening()[0];
      process.kill(victim.workerPid!, 'SIGKILL');
      await until('the crashed worker replaced', () => listening().length === 3);
      expect(lines().map((l) => l.msg)).toContain(
        `worker ${victim.worker} (pid ${victim.workerPid}) exited; restarting in 1 s`,
      );
      expect(listening()[2].worker).toBe(victim.worker);
      const replacement = listening()[2].workerPid!;
      expect(workerPids).not.toContain(replacement);
      const login = await call(s, 'POST', '/api/admin/login', {
        json: { username: 'admin', password: ADMIN_PASSWORD },
        from: '127.0.8.2',
      });
      expect(login.status).toBe(200);

      // SIGTERM to the primary while a login (tens of ms of argon2) is in flight: it is answered,
      // every worker exits, then the primary, with 0.
      const requestsSoFar = lines().filter((l) => l.msg === 'incoming request').length;
      const inFlight = call(s, 'POST', '/api/admin/login', {
        json: { username: 'admin', password: ADMIN_PASSWORD },
        from: '127.0.8.3',
      });
      await until(
        'the login arrived',
        () => lines().filter((l) => l.msg === 'incoming request').length > requestsSoFar,
      );
      s.child.kill('SIGTERM');
      expect((await inFlight).status).toBe(200);
      expect(await s.exited).toBe(0);
      for (const pid of [...workerPids, replacement]) expect(() => process.kill(pid, 0)).toThrow();
    },
  );
});
