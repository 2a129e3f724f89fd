// The per-address request limits of @fastify/rate-limit, for the whole site rather than per
// process, in two kinds:
// - batched (the general limits: 300 a minute on /api and /trpc, 60 visits a minute): counted in
//   this process's memory and shared with every other process and node through the rate_limits
//   table once a second, so a request costs no database write and a visitor over the limit on one
//   node is refused on all within about a second (the price: up to a second's overshoot);
// - exact (low volume, where the count itself matters: 5 contact messages per 10 minutes,
//   uploads): one atomic upsert per request (counters.ts), exact across nodes.
// Discourse's CachedCounting and rate-limiter-flexible's periodic sync work the same way.
import SQLite from '../../db/sqlite-driver.js';
import type { FastifyInstance } from 'fastify';
import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
  RateLimitPluginOptions,
} from '@fastify/rate-limit';
import type { Db, DbHandle } from '../../db/index.js';
import {
  ADD_COUNT_SQLITE,
  addCounts,
  addCountsPostgres,
  countHits,
  peekCount,
  purgeCounts,
  sortedByKey,
  type AddedCount,
  type Count,
} from './counters.js';

/** What a refused request is told (the REST error handler says the same). */
const TOO_MANY = 'Too many requests, please try again later';

/** How often each process adds its batched counts to the shared ones and reads theirs back. */
export const SHARE_EVERY_MS = 1_000;

/** How often rows of ended windows are deleted. */
const PURGE_EVERY_MS = 60_000;

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** A route's rateLimit config may carry `exact: true` to be counted in the database per request. */
export interface RouteRateLimit {
  max: number;
  timeWindow: number;
  exact?: boolean;
}

export interface SharedRateLimits {
  /** The options a registration of @fastify/rate-limit takes to count here (`scope` keeps keys apart). */
  options(
    scope: string,
  ): Pick<
    RateLimitPluginOptions,
    'store' | 'skipOnError' | 'errorResponseBuilder' | 'addHeaders' | 'addHeadersOnExceeding'
  >;
}

interface Entry {
  /** end of the window (epoch ms): windows are aligned to the clock, so every process agrees */
  resetAt: number;
  /** the site's count as the database last said, this process's shared hits included */
  shared: number;
  /** this process's hits not yet shared */
  pending: number;
}

/** Counts for the shared ones: key, hits, end of window. */
type Batch = AddedCount[];

/**
 * Counts in memory, in windows aligned to the clock (a window of a minute ends on the minute in
 * every process), so that the shared row of a key is one window in every process and batches
 * add up. A count is what the site had at the last sharing plus this process's hits since: it
 * never counts a hit twice, and falls short by at most what the others took since.
 */
export class BatchedCounts {
  private readonly entries = new Map<string, Entry>();

  hit(key: string, windowMs: number, now: number): Count {
    const entry = this.current(key, windowMs, now);
    entry.pending += 1;
    return { count: entry.shared + entry.pending, resetAt: entry.resetAt };
  }

  peek(key: string, windowMs: number, now: number): Count {
    const entry = this.entries.get(key);
    const resetAt = windowEnd(windowMs, now);
    return entry && entry.resetAt === resetAt
      ? { count: entry.shared + entry.pending, resetAt }
      : { count: 0, resetAt };
  }

  /**
   * Hands the pending hits to `write` (which adds them to the shared counts and returns the new
   * totals) and keeps the totals. Hits taken while `write` runs stay pending for the next time;
   * when `write` fails, the hits go back to pending, so nothing is lost while the database is away.
   */
  async share(write: (batch: Batch) => Promise<Map<string, number>>, now: number): Promise<void> {
    const batch: Batch = [];
    for (const [key, entry] of this.entries) {
      if (entry.resetAt <= now) this.entries.delete(key);
      else if (entry.pending > 0) {
        batch.push({ key, count: entry.pending, resetAt: entry.resetAt });
        entry.pending = 0;
      }
    }
    if (batch.length === 0) return;
    let totals: Map<string, number>;
    try {
      totals = await write(batch);
    } catch (error) {
      for (const sent of batch) {
        const entry = this.entries.get(sent.key);
        if (entry?.resetAt === sent.resetAt) entry.pending += sent.count;
      }
      throw error;
    }
    for (const sent of batch) {
      const entry = this.entries.get(sent.key);
      const total = totals.get(sent.key);
      if (entry?.resetAt === sent.resetAt && total !== undefined) entry.shared = total;
    }
  }

  private current(key: string, windowMs: number, now: number): Entry {
    const resetAt = windowEnd(windowMs, now);
    let entry = this.entries.get(key);
    if (!entry || entry.resetAt !== resetAt) {
      entry = { resetAt, shared: 0, pending: 0 };
      this.entries.set(key, entry);
    }
    return entry;
  }
}

const windowEnd = (windowMs: number, now: number) => (Math.floor(now / windowMs) + 1) * windowMs;

/**
 * On SQLite the batches go through a connection of their own to the same file, with a prepared
 * statement, whose commits do not wait for an fsync: through the main connection (Kysely, and
 * synchronous=FULL) a batch of 5,000 keys took 22-47 ms of CPU and held the event loop 70-170 ms,
 * every second. NORMAL, not OFF: NORMAL still syncs the database file before a checkpoint lets the
 * WAL be reused, so everything else committed through the WAL stays as durable as the main
 * connection made it; a count lost to a power cut is harmless.
 */
function sqliteBatches(path: string): { add(batch: Batch): Map<string, number>; close(): void } {
  const connection = new SQLite(path);
  connection.pragma('busy_timeout = 5000');
  connection.pragma('synchronous = NORMAL');
  const add = connection.prepare<[string, number, number], { count: number }>(ADD_COUNT_SQLITE);
  const addAll = connection.transaction(
    (batch: Batch) =>
      new Map(sortedByKey(batch).map((item) => [item.key, add.get(item.key, item.count, item.resetAt)!.count])),
  );
  return { add: (batch) => addAll(batch), close: () => connection.close() };
}

/** Counters for every rate-limit registration of one app, stopped with it. */
export function sharedRateLimits(app: FastifyInstance, handle: DbHandle, now: () => number): SharedRateLimits {
  const db: Db = handle.db;
  const batched = new BatchedCounts();
  let away = false;
  // Opened at the first sharing: with RATE_LIMIT=off nothing is counted and nothing is opened.
  let sqlite: ReturnType<typeof sqliteBatches> | null = null;
  const write = async (batch: Batch) => {
    if (handle.dialect === 'postgres') return addCountsPostgres(db, batch);
    // An in-memory database has no second connection to the same data.
    return handle.path === ':memory:' ? addCounts(db, batch) : (sqlite ??= sqliteBatches(handle.path)).add(batch);
  };

  const share = async () => {
    try {
      await batched.share(write, now());
      if (away) app.log.info('rate limits: sharing counts again');
      away = false;
    } catch (error) {
      // Requests go on, counted here, until the database is back; said once, not every second.
      if (!away)
        app.log.warn(
          { err: error },
          'rate limits: cannot share counts; counting in this process until the database is back',
        );
      away = true;
    }
  };
  let sharing: Promise<void> | null = null;
  const shareOnce = () => (sharing ??= share().finally(() => (sharing = null)));
  const shareTimer = setInterval(() => void shareOnce(), SHARE_EVERY_MS);
  shareTimer.unref();
  const purge = setInterval(() => {
    purgeCounts(db, now()).catch((error: unknown) =>
      app.log.warn({ err: error }, 'rate limits: purging ended windows failed'),
    );
  }, PURGE_EVERY_MS);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(shareTimer);
    clearInterval(purge);
    await shareOnce();
    sqlite?.close();
  });

  /** What the plugin is told of a count. */
  const result = ({ count, resetAt }: Count) => ({ current: count, ttl: Math.max(0, resetAt - now()) });
  const answer = async (count: () => Promise<Count>, callback: Callback) => {
    try {
      callback(null, result(await count()));
    } catch (error) {
      app.log.warn({ err: error }, 'rate limits: cannot count this request; it goes on unlimited');
      callback(error instanceof Error ? error : new Error(String(error)));
    }
  };

  /** The limits counted in memory and shared in batches. */
  class BatchedStore implements FastifyRateLimitStore {
    // @fastify/rate-limit constructs the root store with its options; children get a prefix.
    constructor(
      private readonly windowMs: number,
      private readonly prefix: string,
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      callback(null, result(batched.hit(`${this.prefix}:${key}`, timeWindow, now())));
    }

    /** `{ increment: false }` peeks: the count so far, nothing counted. */
    read(key: string, callback: Callback): void {
      callback(null, result(batched.peek(`${this.prefix}:${key}`, this.windowMs, now())));
    }

    child(options: object): FastifyRateLimitStore {
      return childStore(this.prefix, options);
    }
  }

  /** The limits counted in the database at every request. */
  class ExactStore implements FastifyRateLimitStore {
    constructor(private readonly prefix: string) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      const full = `${this.prefix}:${key}`;
      void answer(
        () => countHits(db, [{ key: full, windowMs: timeWindow }], now()).then((counts) => counts.get(full)!),
        callback,
      );
    }

    read(key: string, callback: Callback): void {
      void answer(() => peekCount(db, `${this.prefix}:${key}`, now()), callback);
    }

    child(options: object): FastifyRateLimitStore {
      return childStore(this.prefix, options);
    }
  }

  /**
   * Each route with its own limit counts apart, as the plugin's own store does. The plugin passes
   * its merged options (the route's `config.rateLimit` among them), the route under `routeInfo`.
   */
  const childStore = (prefix: string, options: object): FastifyRateLimitStore => {
    const merged = options as Partial<RouteRateLimit> & { routeInfo?: { method?: string | string[]; url?: string } };
    const route = merged.routeInfo ?? {};
    const routePrefix = `${prefix}:${[route.method ?? ''].flat().join(',')} ${route.url ?? ''}`;
    return merged.exact ? new ExactStore(routePrefix) : new BatchedStore(merged.timeWindow ?? 60_000, routePrefix);
  };

  return {
    options(scope) {
      // The root store: a registration's global limit (tRPC's) is batched.
      const Root = class extends BatchedStore {
        constructor(options?: FastifyRateLimitOptions) {
          const { timeWindow } = (options ?? {}) as { timeWindow?: unknown };
          super(typeof timeWindow === 'number' ? timeWindow : 60_000, `rl:${scope}`);
        }
      };
      return {
        store: Root as FastifyRateLimitStoreCtor,
        // A request whose exact count cannot be stored (the database is away) is not refused for
        // it: it goes on to its handler, which answers what the database allows (503 while it is
        // away), with the error mapping of its own scope and never the driver's words.
        skipOnError: true,
        // Only what the contract promises: Retry-After on a refusal. The x-ratelimit-* headers on
        // every answer cost each request more than counting it does.
        addHeadersOnExceeding: {
          'x-ratelimit-limit': false,
          'x-ratelimit-remaining': false,
          'x-ratelimit-reset': false,
        },
        addHeaders: {
          'x-ratelimit-limit': false,
          'x-ratelimit-remaining': false,
          'x-ratelimit-reset': false,
          'retry-after': true,
        },
        // The contract's body, {"error": ...}, in every scope (tRPC's has no error handler of
        // ours): Fastify sends a thrown object as it is, and takes the status from statusCode,
        // kept out of the body by making it non-enumerable.
        errorResponseBuilder: (_req, context) =>
          Object.defineProperty({ error: TOO_MANY }, 'statusCode', { value: context.statusCode }),
      };
    },
  };
}
