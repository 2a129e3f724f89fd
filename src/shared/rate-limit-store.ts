// The per-address request limits of @fastify/rate-limit, counted in the rate_limits table so
// that the limit holds for the site, not per process: 5 contact messages per address are 5
// whichever process or node takes them. One atomic upsert per counted request (counters.ts).
import SQLite from '../../db/sqlite-driver.js';
import type { FastifyInstance } from 'fastify';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor, RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Db, DbHandle } from '../../db/index.js';
import { COUNT_ONE_SQLITE, countHits, peekCount, purgeCounts, type Count } from './counters.js';

/** What a refused request is told (the REST error handler says the same). */
const TOO_MANY = 'Too many requests, please try again later';

/** How often rows of ended windows are deleted. */
const PURGE_EVERY_MS = 60_000;

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

export interface SharedRateLimits {
  /** A store class for one registration of @fastify/rate-limit; `scope` keeps its keys apart. */
  store(scope: string): FastifyRateLimitStoreCtor;
  /** The options a registration of @fastify/rate-limit takes to count here (`scope` as above). */
  options(scope: string): Pick<RateLimitPluginOptions, 'store' | 'skipOnError' | 'errorResponseBuilder'>;
}

interface Counter {
  hit(key: string, windowMs: number, now: number): Count;
  peek(key: string, now: number): Count;
  close(): void;
}

/**
 * On SQLite the counts go through a second connection to the same file, with prepared
 * statements, whose commits do not wait for an fsync: a counted request costs some 30 µs instead
 * of 400, and a count lost to a power cut is harmless. NORMAL, not OFF: NORMAL still syncs the
 * database file before a checkpoint lets the WAL be reused, so everything else committed through
 * the WAL stays as durable as the main connection (synchronous=FULL) made it.
 */
function sqliteCounter(path: string): Counter {
  const connection = new SQLite(path);
  connection.pragma('busy_timeout = 5000');
  connection.pragma('synchronous = NORMAL');
  const hit = connection.prepare<[string, number, number, number], { count: number; reset_at: number }>(COUNT_ONE_SQLITE);
  const peek = connection.prepare<[string, number], { count: number; reset_at: number }>('select count, reset_at from rate_limits where key = ? and reset_at > ?');
  return {
    hit(key, windowMs, now) {
      const row = hit.get(key, now + windowMs, now, now)!;
      return { count: row.count, resetAt: row.reset_at };
    },
    peek(key, now) {
      const row = peek.get(key, now);
      return row ? { count: row.count, resetAt: row.reset_at } : { count: 0, resetAt: now };
    },
    close: () => connection.close(),
  };
}

/** Counters for every rate-limit registration of one app, closed with it. */
export function sharedRateLimits(app: FastifyInstance, handle: DbHandle, now: () => number): SharedRateLimits {
  // Opened at the first count: with RATE_LIMIT=off nothing is counted and nothing is opened.
  let sqlite: Counter | null = null;
  const fast = () => (handle.dialect === 'sqlite' && handle.path !== ':memory:' ? (sqlite ??= sqliteCounter(handle.path)) : null);
  const db: Db = handle.db;

  const purge = setInterval(() => {
    purgeCounts(db, now()).catch((error: unknown) => app.log.warn({ err: error }, 'rate limits: purging ended windows failed'));
  }, PURGE_EVERY_MS);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    sqlite?.close();
  });

  const answer = async (count: () => Promise<Count> | Count, callback: Callback) => {
    try {
      const { count: current, resetAt } = await count();
      callback(null, { current, ttl: Math.max(0, resetAt - now()) });
    } catch (error) {
      app.log.warn({ err: error }, 'rate limits: cannot count this request; it goes on unlimited');
      callback(error instanceof Error ? error : new Error(String(error)));
    }
  };

  return {
    options(scope) {
      // A request whose count cannot be stored (the database is away) is not refused for it: it
      // goes on to its handler, which answers what the database allows (503 while it is away),
      // with the error mapping of its own scope and never the driver's words.
      return {
        store: this.store(scope),
        skipOnError: true,
        // The contract's body, {"error": ...}, in every scope (tRPC's has no error handler of
        // ours): Fastify sends a thrown object as it is, and takes the status from statusCode,
        // kept out of the body by making it non-enumerable.
        errorResponseBuilder: (_req, context) => Object.defineProperty({ error: TOO_MANY }, 'statusCode', { value: context.statusCode }),
      };
    },
    store(scope) {
      class DatabaseRateLimitStore implements FastifyRateLimitStore {
        private readonly prefix: string;

        // @fastify/rate-limit constructs the root store with its options; children get a prefix.
        constructor(_options?: FastifyRateLimitOptions, prefix = `rl:${scope}`) {
          this.prefix = prefix;
        }

        incr(key: string, callback: Callback, timeWindow: number): void {
          const full = `${this.prefix}:${key}`;
          void answer(() => {
            const at = now();
            return fast()?.hit(full, timeWindow, at) ?? countHits(db, [{ key: full, windowMs: timeWindow }], at).then((counts) => counts.get(full)!);
          }, callback);
        }

        /** `{ increment: false }` peeks: the count so far, nothing counted. */
        read(key: string, callback: Callback): void {
          const full = `${this.prefix}:${key}`;
          void answer(() => fast()?.peek(full, now()) ?? peekCount(db, full, now()), callback);
        }

        /**
         * Each route with its own limit counts apart, as the plugin's own store does. The plugin
         * passes its merged options, the route under `routeInfo` (its typings say otherwise).
         */
        child(options: object): FastifyRateLimitStore {
          const route = (options as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? {};
          const method = [route.method ?? ''].flat().join(',');
          return new DatabaseRateLimitStore(undefined, `${this.prefix}:${method} ${route.url ?? ''}`);
        }
      }
      return DatabaseRateLimitStore;
    },
  };
}
