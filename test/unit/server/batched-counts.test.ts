// The in-memory side of the batched rate limits (src/shared/rate-limit-store.ts): what a count is
// between two sharings, and that nothing is lost while the database is away.
import { describe, expect, it } from 'vitest';
import { BatchedCounts } from '../../../src/shared/rate-limit-store.js';

const MINUTE = 60_000;
const t0 = Date.parse('2026-11-25T12:00:10Z');

describe('BatchedCounts', () => {
  it('counts what the site had at the last sharing plus this process’s hits since', async () => {
    const counts = new BatchedCounts();
    for (let i = 0; i < 3; i++) counts.hit('k', MINUTE, t0);
    // The database already had 10 from other processes: it returns 13 for our 3.
    await counts.share(async (batch) => {
      expect(batch).toEqual([{ key: 'k', count: 3, resetAt: Date.parse('2026-11-25T12:01:00Z') }]);
      return new Map([['k', 13]]);
    }, t0);
    expect(counts.hit('k', MINUTE, t0 + 1).count).toBe(14);
    expect(counts.peek('k', MINUTE, t0 + 2).count).toBe(14);
  });

  it('keeps hits taken while sharing for the next time, and gives them back when sharing fails', async () => {
    const counts = new BatchedCounts();
    counts.hit('k', MINUTE, t0);
    await counts.share(async () => {
      counts.hit('k', MINUTE, t0); // arrives while the batch is on its way
      return new Map([['k', 1]]);
    }, t0);
    expect(counts.peek('k', MINUTE, t0).count).toBe(2);
    await expect(counts.share(async () => Promise.reject(new Error('database away')), t0)).rejects.toThrow(
      'database away',
    );
    let sent = 0;
    await counts.share(async (batch) => {
      sent = batch[0].count;
      return new Map([['k', 2]]);
    }, t0);
    expect(sent).toBe(1);
    expect(counts.peek('k', MINUTE, t0).count).toBe(2);
  });

  it('starts afresh in the next window and forgets ended ones', async () => {
    const counts = new BatchedCounts();
    counts.hit('k', MINUTE, t0);
    expect(counts.hit('k', MINUTE, t0 + MINUTE).count).toBe(1);
    const batches: unknown[] = [];
    await counts.share(async (batch) => (batches.push(batch), new Map()), t0 + 3 * MINUTE);
    expect(batches).toEqual([]);
    expect(counts.peek('k', MINUTE, t0 + 3 * MINUTE).count).toBe(0);
  });
});
