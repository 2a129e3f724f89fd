// /healthz tells a load balancer whether the node can serve: on PostgreSQL it does not queue
// behind the searches waiting for the pool (that the load shedder never turns it away is in
// test/cluster/overload.test.ts).
import type { PoolClient } from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers.js';
import { onlyOn } from '../../support/databases.js';

let t: TestApp;
afterEach(() => t?.close());

describe('GET /healthz', () => {
  it('answers ok while the database answers', async () => {
    t = await buildTestApp();
    const response = await t.request({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
  });

  onlyOn('postgres', () => {
    it('answers ok at once while every connection of the pool is taken and requests wait for one', async () => {
      t = await buildTestApp();
      if (t.handle.dialect !== 'postgres') throw new Error('a PostgreSQL test');
      const pool = t.handle.pool;
      const taken: PoolClient[] = [];
      // Every connection held here: the place copy's own reads (a poll every 5 s) may hold one for
      // a moment, and the request below must not find it handed back.
      while (taken.length < pool.options.max!) taken.push(await pool.connect());
      try {
        let waitingDone = false;
        const waiting = t.request({ method: 'GET', url: '/api/plans' }).finally(() => (waitingDone = true));
        await expect.poll(() => pool.waitingCount).toBeGreaterThan(0);

        const started = performance.now();
        const health = await t.request({ method: 'GET', url: '/healthz' });
        // Behind the pool's queue the check would time out after a second and answer 503.
        expect(health.statusCode).toBe(200);
        expect(health.json()).toEqual({ ok: true });
        expect(performance.now() - started).toBeLessThan(900);
        expect(waitingDone).toBe(false);

        for (const client of taken.splice(0)) client.release();
        expect((await waiting).statusCode).toBe(200);
      } finally {
        for (const client of taken) client.release();
      }
    });
  });
});
