// The replication feed client on its own: the state files, the layout, and politeness (one
// request at a time, the User-Agent, waiting on 429/5xx, giving up clearly), against a feed
// served on loopback.
import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FeedBehind, FeedError, ReplicationFeed } from '../../../src/places/sources/replication/feed.js';
import { parseState, sequencePath } from '../../../src/places/sources/replication/state.js';
import { startFeed, type FakeFeed } from '../../support/fake-feed.js';

const UA = 'nearby-place-finder/0.1 (+https://places.example)';
const OSC = '<?xml version="1.0"?><osmChange version="0.6"><delete><node id="1" version="2"/></delete></osmChange>';
const day = (n: number) => new Date(Date.UTC(2021, 3, 21 + n, 20, 21, 46)).toISOString().replace('.000Z', 'Z');

let dir: string;
let feed: FakeFeed;
let waits: number[];
const client = (options: Partial<ConstructorParameters<typeof ReplicationFeed>[1]> = {}) =>
  new ReplicationFeed(feed.url, { userAgent: UA, sleep: async (ms) => void waits.push(ms), ...options });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'feed-'));
  feed = await startFeed(dir);
  waits = [];
});
afterEach(async () => {
  await feed.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('state files and layout', () => {
  it('reads a state file as publishers write it (escaped colons, comments, other keys)', () => {
    expect(
      parseState(
        '#Sat Apr 21 20:21:46 UTC 2021\ntxnMaxQueried=1\nsequenceNumber=2947\ntimestamp=2021-04-21T20\\:21\\:46Z\n',
      ),
    ).toEqual({
      sequence: 2947,
      timestamp: '2021-04-21T20:21:46Z',
    });
    expect(() => parseState('timestamp=2021-04-21T20\\:21\\:46Z')).toThrow(/sequenceNumber/);
    expect(() => parseState('sequenceNumber=12\ntimestamp=yesterday')).toThrow(/timestamp/);
  });

  it('puts sequence N at AAA/BBB/CCC', () => {
    expect(sequencePath(2947)).toBe('000/002/947');
    expect(sequencePath(1_234_567)).toBe('001/234/567');
    expect(() => sequencePath(-1)).toThrow(RangeError);
  });

  it('refuses anything but an http(s) feed', () => {
    expect(() => new ReplicationFeed('file:///etc/', { userAgent: UA })).toThrow(FeedError);
    expect(() => new ReplicationFeed('not a url', { userAgent: UA })).toThrow(FeedError);
  });
});

describe('reading the feed', () => {
  it('reads the newest state, a change file unzipped and a sequence state, naming the site', async () => {
    feed.write(2948, OSC, day(1));
    feed.announce(2948, day(1));
    const reader = client();
    expect(await reader.newest()).toEqual({ sequence: 2948, timestamp: day(1) });
    expect((await reader.changes(2948)).toString()).toBe(OSC);
    expect(await reader.stateOf(2948)).toEqual({ sequence: 2948, timestamp: day(1) });
    expect(feed.requests.map((r) => r.path)).toEqual(['state.txt', '000/002/948.osc.gz', '000/002/948.state.txt']);
    expect(new Set(feed.requests.map((r) => r.userAgent))).toEqual(new Set([UA]));
  });

  it('asks one thing at a time, however many are wanted at once', async () => {
    for (let s = 2948; s < 2956; s++) feed.write(s, OSC, day(s - 2947));
    feed.delayMs = 30;
    const reader = client();
    await Promise.all(Array.from({ length: 8 }, (_, i) => reader.changes(2948 + i)));
    expect(feed.requests).toHaveLength(8);
    expect(feed.maxConcurrent).toBe(1);
  });

  it('waits what a 429 asks, backs off on 503, then reads', async () => {
    feed.write(2948, OSC, day(1));
    feed.script.push(
      { path: '948.osc.gz', reply: { status: 429, retryAfter: '7' } },
      { path: '948.osc.gz', reply: { status: 503 } },
    );
    const body = await client({ baseBackoffMs: 1000 }).changes(2948);
    expect(body.toString()).toBe(OSC);
    expect(feed.requests.map((r) => r.status)).toEqual([429, 503, 200]);
    expect(waits).toEqual([7000, 2000]);
  });

  it('gives up after its retries with a clear error', async () => {
    feed.write(2948, OSC, day(1));
    for (let i = 0; i < 5; i++) feed.script.push({ path: '948.osc.gz', reply: { status: 503 } });
    await expect(client({ maxRetries: 2 }).changes(2948)).rejects.toThrow(/answered 503 after 3 tries/);
    expect(feed.requests).toHaveLength(3);
  });

  it('does not wait hours when a server asks for that', async () => {
    feed.script.push({ path: 'state.txt', reply: { status: 429, retryAfter: '86400' } });
    await expect(client().newest()).rejects.toThrow(/asks to wait 86400 s/);
    expect(waits).toEqual([]);
  });

  it('a sequence the feed no longer keeps means re-import, not retry', async () => {
    feed.announce(2950, day(3));
    const error = await client()
      .changes(2948)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FeedBehind);
    expect((error as Error).message).toMatch(/no longer has sequence 2948.*re-import/);
    expect(feed.requests).toHaveLength(1);
  });

  it('a download cut short, or a file that is not gzip, is an error and never half a file', async () => {
    feed.write(2948, OSC.repeat(50), day(1));
    feed.script.push(
      { path: '948.osc.gz', reply: { truncate: true } },
      { path: '948.osc.gz', reply: { truncate: true } },
    );
    await expect(client({ maxRetries: 1 }).changes(2948)).rejects.toThrow(FeedError);
    const reader = client({ maxBytes: 64 });
    await expect(reader.changes(2948)).rejects.toThrow(/larger than 64 bytes/);
  });
});

describe('finding the start from the data timestamp', () => {
  beforeEach(() => {
    for (let s = 2940; s <= 2960; s++) feed.write(s, OSC, day(s - 2947));
    feed.announce(2960, day(13));
  });

  it('finds the newest sequence not after the data', async () => {
    expect(await client().sequenceAt(day(0))).toBe(2947);
    // A binary search: a dozen state files of 2,960, not one per sequence.
    expect(feed.requests.length).toBeLessThanOrEqual(14);
    expect(await client().sequenceAt('2021-04-24T00:00:00Z')).toBe(2949);
    expect(await client().sequenceAt(day(20))).toBe(2960);
  });

  it('says re-import when the data is older than what the feed keeps', async () => {
    for (let s = 2940; s < 2945; s++) unlinkSync(join(dir, `${sequencePath(s)}.state.txt`));
    await expect(client().sequenceAt(day(-5))).rejects.toBeInstanceOf(FeedBehind);
    expect(await client().sequenceAt(day(-2))).toBe(2945);
  });
});
