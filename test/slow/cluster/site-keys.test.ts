// Site keys across two server processes on one database, over real HTTP: a key's daily quota
// holds for the site as a whole within a couple of seconds (each process counts in memory and
// shares once a second), and a deleted key answers 401 on the other process within 2 s.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD } from '../../helpers.js';
import { freshDatabase, TEST_DIALECT, type TestDatabase } from '../../support/databases.js';
import { startServer, type ServerProcess } from '../../support/server-process.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('site keys on two server processes', () => {
  let dir: string;
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let cookie: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'site-keys-'));
    database = await freshDatabase(dir);
    const env = {
      DATABASE_URL: database.url,
      LOG_LEVEL: 'silent',
      DATABASE_POOL: '4',
      UPLOAD_DIR: join(dir, 'uploads'),
    };
    if (TEST_DIALECT === 'postgres') [a, b] = await Promise.all([startServer(env), startServer(env)]);
    else {
      a = await startServer(env);
      b = await startServer(env);
    }
    const login = await fetch(`${a.base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('sid='))!
      .split(';')[0];
  }, 60_000);

  afterAll(async () => {
    expect(await Promise.all([a?.stop(), b?.stop()])).toEqual([0, 0]);
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const admin = async (server: ServerProcess, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.base}${path}`, {
      method,
      headers: { cookie, 'sec-fetch-site': 'same-origin', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return response.json();
  };
  /** A keyed read from a server (no Origin). */
  const read = async (server: ServerProcess, key: string) =>
    (await fetch(`${server.base}/api/settings`, { headers: { 'x-api-key': key } })).status;

  it(
    'holds a key to its daily quota across both processes within a couple of seconds',
    { timeout: 60_000 },
    async () => {
      const { key, id } = await admin(a, 'POST', '/api/admin/keys', {
        name: 'Partner',
        origins: ['https://partner.example'],
        daily_limit: 40,
      });
      for (let i = 0; i < 30; i++) expect(await read(a, key)).toBe(200);
      // Shared once a second: B learns A's 30 without having served the key.
      await sleep(2_000);
      const onB: number[] = [];
      for (let i = 0; i < 12; i++) onB.push(await read(b, key));
      expect(onB).toEqual([...new Array(10).fill(200), 429, 429]);
      // ...and A learns B's 10 in turn.
      let refusedOnA = false;
      const start = Date.now();
      while (!refusedOnA && Date.now() - start < 5_000) {
        refusedOnA = (await read(a, key)) === 429;
        if (!refusedOnA) await sleep(100);
      }
      expect(refusedOnA).toBe(true);
      expect(Date.now() - start).toBeLessThan(2_500);
      // Both processes show the same use for today once shared, in the admin's list: the 40, plus
      // what A let through (one read per 100 ms) in the second before it heard of B's 10.
      await sleep(1_500);
      const used = async (server: ServerProcess) =>
        (await admin(server, 'GET', '/api/admin/keys')).find((k: { id: number }) => k.id === id).used_today;
      expect(await used(a)).toBe(await used(b));
      expect(await used(a)).toBeGreaterThanOrEqual(40);
      expect(await used(a)).toBeLessThanOrEqual(50);
    },
  );

  it('refuses a key deleted on one process on the other within 2 s', { timeout: 30_000 }, async () => {
    const { key, id } = await admin(a, 'POST', '/api/admin/keys', {
      name: 'Short-lived',
      origins: [],
      daily_limit: 1000,
    });
    // Known on B within moments of its creation on A (PostgreSQL: when B hears the notification).
    const created = Date.now();
    while ((await read(b, key)) !== 200 && Date.now() - created < 5_000) await sleep(20);
    expect(await read(b, key)).toBe(200);
    expect(Date.now() - created).toBeLessThan(2_000);
    expect(await admin(a, 'DELETE', `/api/admin/keys?id=${id}`)).toEqual({ success: true });
    const start = Date.now();
    let status = await read(b, key);
    while (status !== 401 && Date.now() - start < 5_000) {
      await sleep(50);
      status = await read(b, key);
    }
    expect(status).toBe(401);
    expect(Date.now() - start).toBeLessThan(2_000);
  });
});
