// Issue 28: on PostgreSQL every server process searches its own copy of the places, kept current
// from the change log (src/places/store/postgres/node-copy.ts). Two server processes (two nodes) on one
// database of a private cluster (it is restarted here): a change committed through one is
// searched on the other; transactions that commit out of the order of their log ids are both
// applied; a lost listening connection and a restarted database lose nothing; an import while
// both serve shows on both, all at once.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskOf } from '../../../src/places/model/categories.js';
import { ADMIN_PASSWORD, freePort, SHARED_DATA } from '../../helpers.js';
import { startCluster, type Cluster } from '../../../support/postgres-cluster.js';
import { ROOT, startServer, type ServerProcess } from '../../support/server-process.js';

const MONACO = join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf');
/** What is imported while both nodes serve (the extract: ~3 s here). */
const IMPORTED = { file: join(SHARED_DATA, 'vancouver_canada-2015.osm.pbf'), centre: { lat: 49.2827, lon: -123.1207 } };
const RESTAURANT = maskOf(['restaurant']);

/** Places a test writes itself: far from every extract, each test at its own spot. */
const spot = (n: number) => ({ lat: 10 + n, lon: 10 + n });

async function query(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** A restaurant as another writer would put it in (the import, a change file: any transaction). */
const insertPlace = (client: pg.Client, osmId: number, name: string, at: { lat: number; lon: number }) =>
  client.query(
    `insert into places (osm_type, osm_id, lat, lon, categories, name, source, fetched_at) values ('node', $1, $2, $3, $4, $5, 'import', 0)`,
    [osmId, at.lat, at.lon, RESTAURANT, name],
  );

interface Result {
  id: string;
  name: string;
  distance: number;
}

async function search(
  server: ServerProcess,
  at: { lat: number; lon: number },
  radiusM = 2000,
): Promise<{ status: number; results: Result[] }> {
  const response = await fetch(
    `${server.base}/api/places?active_categories=restaurant&active_categories=bank&lat=${at.lat}&lon=${at.lon}&radius=${radiusM}&limit=500`,
    {
      signal: AbortSignal.timeout(10_000),
    },
  );
  return {
    status: response.status,
    results: response.status === 200 ? ((await response.json()) as { results: Result[] }).results : [],
  };
}

const names = async (server: ServerProcess, at: { lat: number; lon: number }) =>
  (await search(server, at)).results.map((r) => r.name).sort();

/** Milliseconds until `check` holds (polled every 20 ms), or throws after `ms`. */
async function within(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function runImport(databaseUrl: string, files: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/import.ts', ...files], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('two nodes, each searching its own copy of the places', () => {
  let cluster: Cluster;
  let dir: string;
  let url: string;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'node-copies-'));
    cluster = startCluster(await freePort());
    await query(cluster.url, 'create database app');
    url = cluster.url.replace(/\/postgres$/, '/app');
    await query(url, 'create extension postgis; create extension btree_gist');
    // every statement of the nodes' sessions in the server's log: what a search asks
    await query(cluster.url, `alter database app set log_statement = 'all'`);
    const imported = await runImport(url, [MONACO]);
    expect(imported.code, imported.stderr).toBe(0);
    const env = { DATABASE_URL: url, LOG_LEVEL: 'warn', UPLOAD_DIR: join(dir, 'uploads'), DATABASE_POOL: '4' };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });

  afterAll(async () => {
    expect(await Promise.all([a?.stop(), b?.stop()])).toEqual([0, 0]);
    cluster?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('load the places at start and search them without asking the database', async () => {
    const monaco = { lat: 43.7384, lon: 7.4246 };
    const [onA, onB] = [await search(a, monaco), await search(b, monaco)];
    expect(onA.results.length).toBeGreaterThan(20);
    expect(onB).toEqual(onA);
    // the searches read nothing from PostgreSQL, neither places nor settings: the statements it
    // ran meanwhile (logged, beforeAll) name neither
    // (a process reads the settings' version once more when its listening session is up)
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (const node of [a, b]) await search(node, monaco);
    const log = join(cluster.dir, 'log');
    const before = readFileSync(log, 'utf8').length;
    for (let i = 0; i < 20; i++) expect((await search(i % 2 ? a : b, monaco)).results).toEqual(onA.results);
    // and so does a search by name
    const byName = await Promise.all(
      [a, b].map(async (node) =>
        (
          await fetch(
            `${node.base}/api/places?q=${encodeURIComponent(onA.results[0].name)}&lat=${monaco.lat}&lon=${monaco.lon}`,
          )
        ).json(),
      ),
    );
    expect(byName[0].results.map((r: Result) => r.id)).toContain(onA.results[0].id);
    expect(byName[1]).toEqual(byName[0]);
    await query(url, `select 'searches done'`);
    const statements = readFileSync(log, 'utf8')
      .slice(before)
      .split('\n')
      .filter((line) => /LOG: +(statement|execute [^:]*):/.test(line));
    expect(statements.some((line) => line.includes('searches done'))).toBe(true); // the log is read
    expect(statements.filter((line) => /\b(places|settings|data_versions)\b/.test(line))).toEqual([]);
  });

  it('a place saved through A is searched on B within a second', async () => {
    const login = await fetch(`${a.base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('sid='))!
      .split(';')[0];
    const at = spot(1);
    const saved = await fetch(`${a.base}/trpc/data.own.save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', cookie },
      body: JSON.stringify({ name: 'Saved on A', category: 'restaurant', lat: at.lat, lon: at.lon }),
    });
    expect(saved.status).toBe(200);
    // A, which wrote it, shows it at once; B within a second of the commit
    expect(await names(a, at)).toEqual(['Saved on A']);
    const ms = await within(1000, 'B sees the place saved on A', async () =>
      (await names(b, at)).includes('Saved on A'),
    );
    expect(ms).toBeLessThan(1000);
  });

  it('applies two transactions that commit in the opposite order of their log ids', async () => {
    const at = spot(2);
    const [first, second] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
    await Promise.all([first.connect(), second.connect()]);
    try {
      await first.query('begin');
      await insertPlace(first, 900_000_001, 'Logged first, committed last', at);
      await second.query('begin');
      await insertPlace(second, 900_000_002, 'Logged second, committed first', at);
      const ids = async (client: pg.Client) =>
        Number(
          (
            await client.query(
              `select max(c.id) as id from place_changes c join places p on p.id = c.place_id where p.osm_id between 900000001 and 900000002`,
            )
          ).rows[0].id,
        );
      const [firstId, secondId] = [await ids(first), await ids(second)];
      expect(firstId).toBeLessThan(secondId);
      await second.query('commit');
      // B is woken by the second commit and reads the log while the first is still open: a
      // cursor on the log's id alone would now be past the first's row for good.
      await within(
        10_000,
        'B read the log after the second commit',
        async () =>
          Number(
            (
              await query(
                url,
                `select count(*) as n from pg_stat_activity where application_name = 'nearby-place-finder' and state = 'idle in transaction'`,
              )
            ).rows[0].n,
          ) === 0,
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await first.query('commit');
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    const both = ['Logged first, committed last', 'Logged second, committed first'];
    for (const server of [a, b])
      await within(
        10_000,
        'both transactions applied',
        async () => JSON.stringify(await names(server, at)) === JSON.stringify(both),
      );
  });

  it('finds what changed while its listening connection was gone, and listens again', async () => {
    const killed = await query(
      url,
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'nearby-place-finder listen'`,
    );
    expect(killed.rowCount).toBe(2);
    const at = spot(3);
    await query(
      url,
      `insert into places (osm_type, osm_id, lat, lon, categories, name, source, fetched_at) values ('node', 900000003, $1, $2, $3, 'While not listening', 'import', 0)`,
      [at.lat, at.lon, RESTAURANT],
    );
    for (const server of [a, b])
      await within(10_000, 'the change made while not listening', async () =>
        (await names(server, at)).includes('While not listening'),
      );
    // listening again: the next change arrives by notification, well before the 5 s poll
    await within(
      10_000,
      'both listening again',
      async () =>
        Number(
          (
            await query(
              url,
              `select count(*) as n from pg_stat_activity where application_name = 'nearby-place-finder listen'`,
            )
          ).rows[0].n,
        ) === 2,
    );
    await query(
      url,
      `insert into places (osm_type, osm_id, lat, lon, categories, name, source, fetched_at) values ('node', 900000004, $1, $2, $3, 'Notified again', 'import', 0)`,
      [at.lat, at.lon, RESTAURANT],
    );
    for (const server of [a, b])
      await within(2500, 'the next change, by notification', async () =>
        (await names(server, at)).includes('Notified again'),
      );
  });

  it('finds what changed around a restart of the database', async () => {
    const at = spot(4);
    cluster.stop('fast');
    cluster.start();
    // written before the nodes are connected again (they try every second)
    await query(
      url,
      `insert into places (osm_type, osm_id, lat, lon, categories, name, source, fetched_at) values ('node', 900000005, $1, $2, $3, 'Right after the restart', 'import', 0)`,
      [at.lat, at.lon, RESTAURANT],
    );
    for (const server of [a, b])
      await within(15_000, 'the change made around the restart', async () =>
        (await names(server, at)).includes('Right after the restart'),
      );
    await query(url, `delete from places where osm_id = 900000005`);
    for (const server of [a, b]) await within(10_000, 'a removal', async () => (await names(server, at)).length === 0);
  });

  it('keep answering while an import runs, and both show all of it once it commits', { timeout: 120_000 }, async () => {
    const centre = IMPORTED.centre;
    expect((await search(a, centre)).results).toEqual([]);
    const importing = runImport(url, [IMPORTED.file]);
    let done = false;
    void importing.then(() => (done = true));
    const answers = new Set<string>();
    let searches = 0;
    while (!done) {
      for (const server of [a, b]) {
        const answer = await search(server, centre, 50_000);
        expect(answer.status).toBe(200);
        answers.add(JSON.stringify(answer.results.map((r) => r.id)));
        searches++;
      }
    }
    const imported = await importing;
    expect(imported.code, imported.stderr).toBe(0);
    expect(searches).toBeGreaterThan(3);
    let after: Result[] = [];
    await within(
      5000,
      'A shows the import',
      async () => (after = (await search(a, centre, 50_000)).results).length > 0,
    );
    await within(
      5000,
      'B shows the import',
      async () => JSON.stringify((await search(b, centre, 50_000)).results) === JSON.stringify(after),
    );
    // all or nothing: no answer showed a part of the import
    const whole = JSON.stringify(after.map((r) => r.id));
    expect([...answers].filter((ids) => ids !== '[]' && ids !== whole)).toEqual([]);
  });
});
