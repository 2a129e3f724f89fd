// JoinedRead (src/shared/joined-read.ts): callers arriving together share one read, and no caller
// takes the answer of a read that started before it asked.
import { describe, expect, it } from 'vitest';
import { JoinedRead } from '../../../src/shared/joined-read.js';

/** A read whose every run is held until release(); each answers the value the data had when it started. */
function heldReads() {
  let data = 0;
  const runs: { startedWith: number; release: () => void; fail: (e: Error) => void }[] = [];
  const reader = new JoinedRead(
    () =>
      new Promise<number>((resolve, reject) => {
        const startedWith = data;
        runs.push({ startedWith, release: () => resolve(startedWith), fail: reject });
      }),
  );
  return { reader, runs, change: () => ++data, current: () => data };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('JoinedRead', () => {
  it('starts a read for a caller when none runs, and one more for all who come during it', async () => {
    const { reader, runs } = heldReads();
    const first = reader.get();
    expect(runs).toHaveLength(1);
    // Arriving while the first runs: they wait for a second read, started once the first is over.
    const second = [reader.get(), reader.get(), reader.get()];
    expect(runs).toHaveLength(1);
    runs[0].release();
    await settle();
    expect(runs).toHaveLength(2);
    runs[1].release();
    expect(await Promise.all([first, ...second])).toEqual([0, 0, 0, 0]);
    expect(runs).toHaveLength(2);
    // Nothing runs now: the next caller starts a read of its own at once.
    const third = reader.get();
    expect(runs).toHaveLength(3);
    runs[2].release();
    expect(await third).toBe(0);
  });

  it('never answers a caller with a read that started before it asked', async () => {
    const { reader, runs, change, current } = heldReads();
    const before = reader.get();
    // A change commits while the first read runs; a caller asking after it must see it.
    const version = change();
    const after = reader.get();
    runs[0].release();
    expect(await before).toBe(0);
    await settle();
    runs[1].release();
    expect(await after).toBe(version);
    // Many rounds, with changes and callers interleaved at random: every answer is at least as
    // new as the data when its caller asked.
    let seed = 7;
    const random = () => (seed = (seed * 1664525 + 1013904223) % 2 ** 32) / 2 ** 32;
    const answers: Promise<void>[] = [];
    for (let round = 0; round < 200; round++) {
      if (random() < 0.3) change();
      const asked = current();
      answers.push(reader.get().then((value) => expect(value).toBeGreaterThanOrEqual(asked)));
      if (random() < 0.5) {
        for (const run of runs.splice(0)) run.release();
        await settle();
      }
    }
    while (runs.length) {
      for (const run of runs.splice(0)) run.release();
      await settle();
    }
    await Promise.all(answers);
  });

  it('hands a failed read to its caller only: those who came during it get the next read', async () => {
    const { reader, runs } = heldReads();
    const failing = reader.get();
    const waiting = [reader.get(), reader.get()];
    runs[0].fail(new Error('connection lost'));
    await expect(failing).rejects.toThrow('connection lost');
    await settle();
    expect(runs).toHaveLength(2);
    runs[1].fail(new Error('connection lost again'));
    // the callers who shared the second read get its failure, and the next caller reads afresh
    for (const call of waiting) await expect(call).rejects.toThrow('connection lost again');
    const afresh = reader.get();
    expect(runs).toHaveLength(3);
    runs[2].release();
    expect(await afresh).toBe(0);
  });
});
