// The shared-state building blocks with two "nodes" (two database handles, each with its own
// connections) on one database: counters that never hand out the same count twice, and leases
// that one holder at a time has. The two-process tests over HTTP are in two-nodes.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, migrate, type DbHandle } from '../../../db/index.js';
import { parseDatabaseUrl } from '../../../src/config.js';
import {
  ADD_COUNT_SQLITE,
  addCounts,
  addCountsPostgres,
  countHits,
  peekCount,
  purgeCounts,
} from '../../../src/shared/counters.js';
import { LeaseTimeout, releaseLease, tryAcquireLease, withLease } from '../../../src/shared/leases.js';
import { bumpVersion, readVersioned } from '../../../src/shared/settings-cache.js';
import { freshDatabase, onlyOn, type TestDatabase } from '../../support/databases.js';

let dir: string;
let database: TestDatabase;
let a: DbHandle;
let b: DbHandle;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shared-state-'));
  database = await freshDatabase(dir);
  a = createDb(parseDatabaseUrl(database.url)!, { poolSize: 10 });
  await migrate(a);
  b = createDb(parseDatabaseUrl(database.url)!, { poolSize: 10 });
});

afterEach(async () => {
  await a.close();
  await b.close();
  await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('counters', () => {
  it('give 100 hits at once from two nodes the counts 1 to 100, each once', async () => {
    const now = Date.now();
    const counts = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        countHits((i % 2 ? a : b).db, [{ key: 'k', windowMs: 60_000 }], now).then((m) => m.get('k')!.count),
      ),
    );
    expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it('add batches from two nodes without losing a hit, and start a newer window afresh', async () => {
    const resetAt = Date.now() + 60_000;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        addCounts((i % 2 ? a : b).db, [
          { key: 'k', count: 3, resetAt },
          { key: `only-${i % 2}`, count: 1, resetAt },
        ]),
      ),
    );
    const totals = await addCounts(a.db, [{ key: 'k', count: 1, resetAt }]);
    expect(totals.get('k')).toBe(121);
    expect((await addCounts(b.db, [{ key: 'k', count: 2, resetAt: resetAt + 60_000 }])).get('k')).toBe(2);
    expect((await peekCount(a.db, 'only-1', resetAt - 1)).count).toBe(20);
  });

  onlyOn('sqlite', () => {
    it('add alike through the plain SQLite statement the rate limits share with', async () => {
      if (a.dialect !== 'sqlite') throw new Error('unreachable');
      const raw = a.sqlite.prepare(ADD_COUNT_SQLITE);
      const resetAt = Date.now() + 60_000;
      expect(raw.get('k', 3, resetAt)).toEqual({ count: 3 });
      expect((await addCounts(b.db, [{ key: 'k', count: 2, resetAt }])).get('k')).toBe(5);
      expect(raw.get('k', 1, resetAt)).toEqual({ count: 6 });
      expect(raw.get('k', 4, resetAt + 60_000)).toEqual({ count: 4 });
    });
  });

  onlyOn('postgres', () => {
    it('add alike through the unnest statement the rate limits share with on PostgreSQL', async () => {
      const resetAt = Date.now() + 60_000;
      expect(
        await addCountsPostgres(a.db, [
          { key: 'k', count: 3, resetAt },
          { key: 'j', count: 1, resetAt },
        ]),
      ).toEqual(
        new Map([
          ['j', 1],
          ['k', 3],
        ]),
      );
      expect((await addCounts(b.db, [{ key: 'k', count: 2, resetAt }])).get('k')).toBe(5);
      expect((await addCountsPostgres(a.db, [{ key: 'k', count: 1, resetAt }])).get('k')).toBe(6);
      expect((await addCountsPostgres(a.db, [{ key: 'k', count: 4, resetAt: resetAt + 60_000 }])).get('k')).toBe(4);
    });
  });

  it('start again at 1 once the window has ended, and ended windows are purged', async () => {
    const t0 = Date.now();
    await countHits(a.db, [{ key: 'k', windowMs: 1000 }], t0);
    const second = await countHits(b.db, [{ key: 'k', windowMs: 1000 }], t0 + 500);
    expect(second.get('k')).toEqual({ count: 2, resetAt: t0 + 1000 });
    const fresh = await countHits(a.db, [{ key: 'k', windowMs: 1000 }], t0 + 1000);
    expect(fresh.get('k')).toEqual({ count: 1, resetAt: t0 + 2000 });
    expect(await purgeCounts(b.db, t0 + 2000)).toBe(1);
    expect(await a.db.selectFrom('rate_limits').selectAll().execute()).toEqual([]);
  });
});

describe('leases', () => {
  it('let one holder at a time run, across nodes', async () => {
    let running = 0;
    let most = 0;
    const ran: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        withLease(
          (i % 2 ? a : b).db,
          'job',
          async () => {
            most = Math.max(most, ++running);
            await sleep(30);
            running--;
            ran.push(i);
          },
          { pollMs: 10 },
        ),
      ),
    );
    expect(most).toBe(1);
    expect(ran.sort()).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('are taken over when the holder died, and time out while it lives', async () => {
    // A holder that never lets go (a crashed node) holds it for its time to live only.
    const acquired = Date.now();
    expect(await tryAcquireLease(a.db, 'job', 'crashed', 400)).toBe(true);
    expect(await tryAcquireLease(b.db, 'job', 'other', 400)).toBe(false);
    await expect(withLease(b.db, 'job', async () => 'never', { waitMs: 100, pollMs: 20 })).rejects.toBeInstanceOf(
      LeaseTimeout,
    );
    expect(await withLease(b.db, 'job', async () => 'ran', { pollMs: 20 })).toBe('ran');
    // not before the time to live ran out (measured from the taking, not from a busy machine's later step)
    expect(Date.now() - acquired).toBeGreaterThanOrEqual(400);
    // Released after the task: free at once for the next.
    expect(await tryAcquireLease(a.db, 'job', 'next', 60_000)).toBe(true);
    await releaseLease(a.db, 'job', 'next');
    expect(await tryAcquireLease(b.db, 'job', 'after', 60_000)).toBe(true);
  });

  it('are renewed while a long task runs', async () => {
    const task = withLease(a.db, 'job', () => sleep(700), { ttlMs: 300, pollMs: 20 });
    await sleep(450);
    // Past the first time to live, the holder has renewed it: nobody else gets it.
    expect(await tryAcquireLease(b.db, 'job', 'other', 300)).toBe(false);
    await task;
    expect(await tryAcquireLease(b.db, 'job', 'other', 300)).toBe(true);
  });
});

describe('versioned cache', () => {
  it('serves the cached value until another node bumps the version', async () => {
    let loads = 0;
    const load = async () => ++loads;
    expect(await readVersioned(a.db, 'settings', load)).toBe(1);
    expect(await readVersioned(a.db, 'settings', load)).toBe(1);
    await b.db.transaction().execute((trx) => bumpVersion(trx, 'settings'));
    expect(await readVersioned(a.db, 'settings', load)).toBe(2);
    expect(loads).toBe(2);
  });

  onlyOn('postgres', () => {
    // Changes made with plain SQL, as another process's would be: this process's own bump
    // counter does not see them.
    it(
      'on PostgreSQL, reads the version row again only when notified, and misses no change while not listening',
      { timeout: 20_000 },
      async () => {
        const sqlOn = new pg.Client({ connectionString: database.url });
        await sqlOn.connect();
        try {
          await sqlOn.query(`insert into data_versions (name, version) values ('test', 1)`);
          let loads = 0;
          const load = async () => ++loads;
          const read = () => readVersioned(a.db, 'test', load);
          const until = async (what: string, done: () => Promise<boolean>, withinMs: number) => {
            const started = performance.now();
            while (!(await done())) {
              expect(performance.now() - started, what).toBeLessThan(withinMs);
              await sleep(5);
            }
          };
          const listening = async () =>
            (
              await sqlOn.query(
                `select 1 from pg_stat_activity where application_name = 'nearby-place-finder listen' and query = 'listen "data_versions"'`,
              )
            ).rowCount === 1;
          expect(await read()).toBe(1);
          await until('listening', listening, 5000);
          await sleep(50); // the LISTEN's answer reaches the process
          expect(await read()).toBe(1);

          // A change that sends no notification is not seen: the row is not read at each request.
          await sqlOn.query('alter table data_versions disable trigger data_versions_changed');
          await sqlOn.query(`update data_versions set version = version + 1 where name = 'test'`);
          for (let i = 0; i < 5; i++) expect(await read()).toBe(1);
          // One that notifies is seen within a second.
          await sqlOn.query('alter table data_versions enable trigger data_versions_changed');
          await sqlOn.query(`update data_versions set version = version + 1 where name = 'test'`);
          await until('a notified change seen', async () => (await read()) === 2, 1000);

          // The listening session killed: a change made meanwhile, notified to nobody, is seen
          // (while not listening the row is read at each request; listening again reads it once).
          await sqlOn.query(
            `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'nearby-place-finder listen'`,
          );
          await sqlOn.query('alter table data_versions disable trigger data_versions_changed');
          await sqlOn.query(`update data_versions set version = version + 1 where name = 'test'`);
          await until('a change made while not listening seen', async () => (await read()) === 3, 3000);
          await sqlOn.query('alter table data_versions enable trigger data_versions_changed');
          await until('listening again', listening, 5000);
          await sleep(50);
          expect(await read()).toBe(3);
          expect(loads).toBe(3);
        } finally {
          await sqlOn.end();
        }
      },
    );
  });
});
