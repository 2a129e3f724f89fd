// The per-address request limits of @fastify/rate-limit, counted in the rate_limits table so
// that the limit holds for the site, not per process: 5 contact messages per address are 5
// whichever process or node takes them. One atomic upsert per counted request (counters.ts).
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database, Db, DbHandle } from '../../db/index.js';
import { countHits, peekCount, purgeCounts } from './counters.js';

/** How often rows of ended windows are deleted. */
const PURGE_EVERY_MS = 60_000;

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

export interface SharedRateLimits {
  /** A store class for one registration of @fastify/rate-limit; `scope` keeps its keys apart. */
  store(scope: string): FastifyRateLimitStoreCtor;
  /** The options a registration of @fastify/rate-limit takes to count here (`scope` as above). */
  options(scope: string): { store: FastifyRateLimitStoreCtor; skipOnError: boolean };
}

/**
 * Counters for every rate-limit registration of one app, closed with it. On SQLite they go
 * through a second connection to the same file whose commits do not wait for an fsync: a counted
 * request costs microseconds, and a counter lost to a power cut is harmless. It is NORMAL, not
 * OFF: NORMAL still syncs the database file before a checkpoint lets the WAL be reused, so the
 * durability of everything else committed through the WAL stays whole.
 */
export function sharedRateLimits(app: FastifyInstance, handle: DbHandle, now: () => number): SharedRateLimits {
  let counters: Db = handle.db;
  let own: Kysely<Database> | null = null;
  if (handle.dialect === 'sqlite' && handle.path !== ':memory:') {
    const connection = new SQLite(handle.path);
    connection.pragma('busy_timeout = 5000');
    connection.pragma('synchronous = NORMAL');
    own = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
    counters = own;
  }

  // Through the main connection: on SQLite its fully synced commit also checkpoints the WAL
  // that counted requests fill.
  const purge = setInterval(() => {
    purgeCounts(handle.db, now()).catch((error: unknown) => app.log.warn({ err: error }, 'rate limits: purging ended windows failed'));
  }, PURGE_EVERY_MS);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    await own?.destroy();
  });

  const answer = (promise: Promise<{ count: number; resetAt: number }>, callback: Callback) => {
    promise.then(
      ({ count, resetAt }) => callback(null, { current: count, ttl: Math.max(0, resetAt - now()) }),
      (error: unknown) => {
        app.log.warn({ err: error }, 'rate limits: cannot count this request; it goes on unlimited');
        callback(error instanceof Error ? error : new Error(String(error)));
      },
    );
  };

  return {
    options(scope) {
      // A request whose count cannot be stored (the database is away) is not refused for it: it
      // goes on to its handler, which answers what the database allows (503 while it is away),
      // with the error mapping of its own scope and never the driver's words.
      return { store: this.store(scope), skipOnError: true };
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
          answer(
            countHits(counters, [{ key: full, windowMs: timeWindow }], now()).then((counts) => counts.get(full)!),
            callback,
          );
        }

        /** `{ increment: false }` peeks: the count so far, nothing counted. */
        read(key: string, callback: Callback): void {
          answer(peekCount(counters, `${this.prefix}:${key}`, now()), callback);
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
