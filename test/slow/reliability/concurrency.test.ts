// Sessions and throttles under concurrency (issue 12, point 6), against a real server process on
// the test's database: parallel wrong logins on one account trip the throttle at the same count
// as sequential ones, and requests racing a session's expiry never get through after it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../../db/index.js';
import { ABSOLUTE_MS } from '../../../src/auth/sessions.js';
import { ADMIN_PASSWORD } from '../../helpers.js';
import { freshDatabase, type TestDatabase } from '../../support/databases.js';
import { sendAllAnswered, startServer, type ServerProcess } from '../../support/server-process.js';
import { batterySize, recordFigure } from './figures.js';

const LOGINS = batterySize(50, 200);
const RACERS = batterySize(100, 400);
const ROUNDS = batterySize(2, 10);

let dir: string;
let database: TestDatabase;
let handle: DbHandle;
let server: ServerProcess;

/** One request over real HTTP from a loopback address of its own (the throttles count per address too). */
function call(
  method: string,
  path: string,
  options: { body?: unknown; cookie?: string; from: string },
): Promise<{ status: number; cookie: string | null }> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method,
        localAddress: options.from,
        agent: false,
        headers: {
          'sec-fetch-site': 'same-origin',
          ...(body === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          ...(options.cookie ? { cookie: options.cookie } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode!, cookie: res.headers['set-cookie']?.[0]?.split(';')[0] ?? null }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'concurrency-'));
  database = await freshDatabase(dir);
  server = await startServer({ DATABASE_URL: database.url });
  handle = createDb(
    database.url.startsWith('sqlite:')
      ? { kind: 'sqlite', path: database.url.slice(7) }
      : { kind: 'postgres', url: database.url },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await handle?.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('concurrency', () => {
  it(`${LOGINS} parallel wrong logins on one account are throttled at the same count as sequential ones`, async () => {
    const attempt = (username: string, from: string) =>
      call('POST', '/api/admin/login', { body: { username, password: 'not the password' }, from }).then(
        (r) => r.status,
      );
    const sequential: number[] = [];
    for (let i = 0; i < LOGINS; i++) sequential.push(await attempt('sequential-account', '127.0.8.1'));
    // Past what the server takes on at once (64 in flight), the rest are turned away uncounted.
    const parallel = await sendAllAnswered(LOGINS, () => attempt('parallel-account', '127.0.8.2'));
    const through = (statuses: number[]) => statuses.filter((s) => s === 401).length;
    expect(sequential.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(parallel.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    recordFigure({
      battery: 'concurrency',
      size: `${LOGINS} parallel wrong logins`,
      figure: 'attempts let through beyond the sequential count',
      value: through(parallel) - through(sequential),
      limit: 0,
    });
    expect(through(parallel)).toBe(through(sequential));
    expect(through(sequential)).toBeLessThan(LOGINS);
  }, 120_000);

  it(`${RACERS} parallel requests racing a session's expiry never get through after it`, async () => {
    let lateAnswers = 0;
    let before = 0;
    let after = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const login = await call('POST', '/api/admin/login', {
        body: { username: 'admin', password: ADMIN_PASSWORD },
        from: `127.0.9.${round + 1}`,
      });
      expect(login.status).toBe(200);
      const cookie = login.cookie!;
      // The session reaches its absolute lifetime in 250 ms, in the middle of the requests.
      const expiresAt = Date.now() + 250;
      await handle.db
        .updateTable('sessions')
        .set({ created_at: expiresAt - ABSOLUTE_MS })
        .execute();
      const started: Promise<{ sentAt: number; status: number }>[] = [];
      for (let i = 0; i < RACERS; i++) {
        const sentAt = Date.now();
        started.push(
          call('GET', '/api/messages', { cookie, from: `127.0.10.${round + 1}` }).then((r) => ({
            sentAt,
            status: r.status,
          })),
        );
        await new Promise((r) => setTimeout(r, 500 / RACERS));
      }
      const answers = await Promise.all(started);
      expect(answers.filter((a) => a.status !== 200 && a.status !== 401)).toEqual([]);
      // A request sent after the expiry that was let through would be a hole.
      lateAnswers += answers.filter((a) => a.status === 200 && a.sentAt > expiresAt).length;
      before += answers.filter((a) => a.status === 200).length;
      after += answers.filter((a) => a.status === 401).length;
      const stale = await call('GET', '/api/messages', { cookie, from: `127.0.10.${round + 1}` });
      expect(stale.status).toBe(401);
    }
    recordFigure({
      battery: 'concurrency',
      size: `${ROUNDS} x ${RACERS} requests across a session's expiry`,
      figure: 'requests let through after the expiry',
      value: lateAnswers,
      limit: 0,
    });
    expect(lateAnswers).toBe(0);
    // The race was real: some got in before the expiry and some were refused after it.
    expect(before).toBeGreaterThan(0);
    expect(after).toBeGreaterThan(0);
  }, 120_000);
});
