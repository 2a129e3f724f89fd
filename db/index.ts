// createDb(DATABASE_URL) -> Kysely on SQLite or PostgreSQL, checkDb() and migrate(): the only
// place that knows which SQL engine is underneath. Everything above speaks Kysely, and the few
// spots where the SQL must differ ask `handle.dialect`.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from './sqlite-driver.js';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { DatabaseUrl } from '../src/config.js';
import { migrations as allMigrations, type Migration } from './migrations/index.js';
import type { Database } from './schema.js';

export type { Database } from './schema.js';
export type Db = Kysely<Database>;
export type { Dialect } from './migrations/index.js';

interface HandleBase {
  db: Db;
  close(): Promise<void>;
}

export interface SqliteHandle extends HandleBase {
  dialect: 'sqlite';
  /** The raw SQLite connection, for the few things Kysely does not model (R*Tree, backup). */
  sqlite: SQLite.Database;
  path: string;
}

export interface PostgresHandle extends HandleBase {
  dialect: 'postgres';
  /** The pool Kysely draws from; COPY and LISTEN take their own clients from it or beside it. */
  pool: pg.Pool;
  url: string;
  /**
   * `select 1` on a connection of its own, for /healthz: under load the pool's queue can hold a
   * second of searches, and a health check waiting behind them would call a busy node dead.
   */
  ping(): Promise<void>;
  /**
   * LISTENs on `channel` on the handle's listening session (one for every channel; not the
   * pool's: a pooled client goes back to the pool) and calls `wake` at each notification and
   * once the LISTEN holds after each connection, `lost` when the connection is lost. What is sent
   * while it is disconnected is lost, so the caller catches up at each wake; a lost connection
   * (a restart, pg_terminate_backend) is made again after a second, until the handle closes.
   */
  listen(channel: string, wake: () => void, lost?: () => void): void;
  /** Runs `task` when the handle closes, before the pool ends. */
  onClose(task: () => Promise<void> | void): void;
  /**
   * The one `new Kind(handle)` of this handle, made at the first call: what every user of the
   * handle in this process shares for its life (the copy of the places that its stores read).
   */
  shared<T>(Kind: new (handle: PostgresHandle) => T): T;
}

export type DbHandle = SqliteHandle | PostgresHandle;

/** PostgreSQL 15 is the oldest server the migrations and the places index are written for. */
export const MIN_POSTGRES_VERSION = 150000;

/** pg, loaded only for a PostgreSQL DATABASE_URL (~2.5 MB of heap an SQLite site would carry for nothing). */
let pgModule: typeof pg | undefined;
function loadPg(): typeof pg {
  if (!pgModule) {
    pgModule = createRequire(import.meta.url)('pg') as typeof pg;
    // int8 (bigint) and count(*) arrive as strings by default; every bigint we store is an epoch
    // millisecond time, an id or a 34-bit category mask, all far inside 2^53.
    pgModule.types.setTypeParser(pgModule.types.builtins.INT8, (value) => Number.parseInt(value, 10));
  }
  return pgModule;
}

/** Opens an SQLite file with the pragmas we mean (better-sqlite3's defaults are not them). */
export function openSqlite(path: string): SQLite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  // First: another process may be switching the same new file to WAL right now.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('journal_mode = WAL');
  // FULL: a committed transaction survives a power loss, not only a process crash.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // better-sqlite3 builds SQLite with a 16 MB page cache per connection, which the searches of a
  // large index fill; 2 MB keeps the hot pages, the OS's file cache has the rest (docs/performance.md, memory).
  sqlite.pragma('cache_size = -2000');
  return sqlite;
}

/**
 * Kysely's SQLite driver prepares every query anew; the same few queries run on every request
 * (session, settings version, counters), so their prepared statements are kept, keyed by SQL
 * text. SQLite re-prepares a kept statement by itself after a schema change.
 */
function withStatementCache(sqlite: SQLite.Database, size = 500) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      // On SQLITE_FULL (and some I/O errors) SQLite has already rolled the transaction back: a
      // second rollback would fail and hide the real error from the caller.
      if (text === 'rollback' && !sqlite.inTransaction)
        return { reader: false, run: () => ({ changes: 0, lastInsertRowid: 0 }) } as unknown as SQLite.Statement;
      let statement = statements.get(text);
      if (!statement) {
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
        statements.set(text, (statement = sqlite.prepare(text)));
      }
      return statement;
    },
  };
}

export interface DbOptions {
  /** PostgreSQL connections in this process's pool (DATABASE_POOL) */
  poolSize?: number;
}

export function createDb(url: DatabaseUrl, options: DbOptions = {}): DbHandle {
  if (url.kind === 'postgres') {
    const newPool = (config: pg.PoolConfig) => {
      const pool = new (loadPg().Pool)({
        connectionString: url.url,
        // A server that went away must not hang a request: fail fast, the caller answers 503.
        connectionTimeoutMillis: 5000,
        application_name: 'nearby-place-finder',
        ...config,
      });
      // A client whose server went away emits 'error'; without a listener that kills the process.
      // The pool listens on idle clients only: one checked out between two queries (a transaction
      // doing its own work) has none, so each client gets its own. Its next query fails (the
      // caller answers 503) and the pool drops it when it comes back.
      pool.on('error', () => {});
      pool.on('connect', (client) => client.on('error', () => {}));
      return pool;
    };
    const pool = newPool({ max: options.poolSize ?? 10, query_timeout: 30_000, idleTimeoutMillis: 30_000 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    // Made at the first check and kept (a load balancer asks every few seconds).
    let pingPool: pg.Pool | undefined;
    const ping = async () => {
      pingPool ??= newPool({ max: 1, query_timeout: 5000, idleTimeoutMillis: 0 });
      await pingPool.query('select 1');
    };
    const closing: (() => Promise<void> | void)[] = [];
    let closed = false;
    // One listening session for every channel of the handle, made at the first listen().
    type Listener = { wake: () => void; lost?: () => void };
    const listeners = new Map<string, Listener[]>();
    type Session = { client: pg.Client; queue: Promise<unknown>; drop: () => void };
    let session: Session | null = null;
    /** `step` after what is queued on the session (its connection, earlier LISTENs), then `woken` */
    const after = (on: Session, step: () => Promise<unknown> | void, woken: Listener[]) => {
      on.queue = on.queue.then(step).then(() => {
        if (session === on) for (const { wake } of woken) wake();
      });
      on.queue.catch(on.drop);
    };
    const connect = () => {
      if (closed) return;
      const client = new (loadPg().Client)({
        connectionString: url.url,
        connectionTimeoutMillis: 5000,
        keepAlive: true,
        application_name: 'nearby-place-finder listen',
      });
      let gone = false;
      const on: Session = {
        client,
        queue: client.connect(),
        drop: () => {
          if (gone) return;
          gone = true;
          if (session === on) session = null;
          client.end().catch(() => {});
          for (const list of listeners.values()) for (const { lost } of list) lost?.();
          if (!closed) setTimeout(connect, 1000).unref();
        },
      };
      session = on;
      client.on('error', on.drop);
      client.on('end', on.drop);
      client.on('notification', ({ channel }) => listeners.get(channel)?.forEach(({ wake }) => wake()));
      on.queue.catch(on.drop);
      for (const [channel, list] of listeners) after(on, () => client.query(`listen "${channel}"`), list);
    };
    let started = false;
    const listen = (channel: string, wake: () => void, lost?: () => void) => {
      const listener = { wake, lost };
      const known = listeners.has(channel);
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      if (!started) {
        started = true;
        return connect();
      }
      // Between two sessions nothing to do: the next one listens to every channel.
      const on = session;
      if (on) after(on, known ? () => {} : () => on.client.query(`listen "${channel}"`), [listener]);
    };
    closing.push(() => session?.client.end().catch(() => {}));
    const close = async () => {
      closed = true;
      for (const task of closing) await task();
      await db.destroy();
      await pingPool?.end();
    };
    const shared = new Map<unknown, unknown>();
    const handle: PostgresHandle = {
      dialect: 'postgres',
      db,
      pool,
      url: url.url,
      ping,
      listen,
      onClose: (task) => void closing.push(task),
      shared<T>(Kind: new (handle: PostgresHandle) => T): T {
        if (!shared.has(Kind)) shared.set(Kind, new Kind(handle));
        return shared.get(Kind) as T;
      },
      close,
    };
    postgresHandles.set(db, handle);
    return handle;
  }
  const sqlite = openSqlite(url.path);
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  sqliteConnections.set(db, statements);
  return { dialect: 'sqlite', db, sqlite, path: url.path, close: () => db.destroy() };
}

const sqliteConnections = new WeakMap<Db, { prepare(text: string): SQLite.Statement }>();
const postgresHandles = new WeakMap<Db, PostgresHandle>();

/** The PostgreSQL handle of a Kysely instance (not a transaction's): its listening session. */
export function postgresOf(db: Db): PostgresHandle | undefined {
  return postgresHandles.get(db);
}

/**
 * The SQLite connection under a Kysely instance (not a transaction's), for the few reads made on
 * every request, which are cheaper as one prepared statement than through the query builder. Its
 * statements come from the same cache as Kysely's, kept by SQL text.
 */
export function sqliteOf(db: Db): { prepare(text: string): SQLite.Statement } | undefined {
  return sqliteConnections.get(db);
}

/** Why the database cannot be used, in one line for an operator. */
export class DatabaseSetupError extends Error {}

/** Where a PostgreSQL URL points, without its password, for messages. */
export function describePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'the server in DATABASE_URL';
  }
}

/** The start-up's one line for a server older than the site needs (`server_version_num`). */
export function checkPostgresVersion(version: number, where: string): void {
  if (!(version >= MIN_POSTGRES_VERSION)) {
    throw new DatabaseSetupError(
      `DATABASE_URL: PostgreSQL at ${where} is version ${Math.floor(version / 10000)}; 15 or newer is needed`,
    );
  }
}

/**
 * Checks, before anything else runs, that the database can carry the site: on PostgreSQL that
 * the server answers, is 15 or newer, and has PostGIS (which only a superuser can add).
 * btree_gist is a trusted extension: the database owner may create it, so we do.
 */
export async function checkDb(handle: DbHandle): Promise<void> {
  if (handle.dialect === 'sqlite') return;
  const where = describePostgresUrl(handle.url);
  let version: number;
  try {
    const row = await sql<{ v: number }>`select current_setting('server_version_num')::int as v`.execute(handle.db);
    version = row.rows[0].v;
  } catch (error) {
    const e = error as { code?: string; message?: string };
    throw new DatabaseSetupError(
      `DATABASE_URL: cannot reach PostgreSQL at ${where} (${e.code ?? e.message ?? 'no answer'})`,
    );
  }
  checkPostgresVersion(version, where);
  const installed = await sql<{
    extname: string;
  }>`select extname from pg_extension where extname in ('postgis', 'btree_gist')`.execute(handle.db);
  const names = new Set(installed.rows.map((r) => r.extname));
  if (!names.has('postgis')) {
    try {
      await sql`create extension if not exists postgis`.execute(handle.db);
    } catch {
      const database = (() => {
        try {
          return new URL(handle.url).pathname.slice(1);
        } catch {
          return '';
        }
      })();
      throw new DatabaseSetupError(
        `DATABASE_URL: PostGIS is missing in ${where}; ` +
          `as a superuser run: psql -d ${database || '<db>'} -c 'CREATE EXTENSION postgis' ` +
          `(Debian: apt-get install postgresql-15-postgis-3)`,
      );
    }
  }
  if (!names.has('btree_gist')) {
    try {
      await sql`create extension if not exists btree_gist`.execute(handle.db);
    } catch {
      throw new DatabaseSetupError(
        `DATABASE_URL: the btree_gist extension is missing in ${where}; run CREATE EXTENSION btree_gist as the database owner`,
      );
    }
  }
}

/** A key for PostgreSQL advisory locks: migrations from several nodes at once run one at a time. */
const MIGRATION_LOCK = 7_262_011;

/**
 * Applies pending migrations, each in its own transaction together with its record, so a crash
 * leaves either the whole migration or none of it (Kysely's SQLite dialect does not do this).
 * On PostgreSQL an advisory lock makes nodes starting together take turns. Returns the names
 * applied.
 */
export async function migrate(
  handle: DbHandle,
  migrations: Record<string, Migration> = allMigrations,
): Promise<string[]> {
  const { db, dialect } = handle;
  const applied: string[] = [];
  const record = (conn: Db, name: string) =>
    conn.insertInto('schema_migrations').values({ name, applied_at: new Date().toISOString() }).execute();
  const pending = async (conn: Db) => {
    const done = new Set((await conn.selectFrom('schema_migrations').select('name').execute()).map((r) => r.name));
    return Object.entries(migrations).filter(([name]) => !done.has(name));
  };
  const run = async (conn: Db) => {
    await sql`create table if not exists schema_migrations (name text primary key, applied_at text not null)`.execute(
      conn,
    );
    for (const [name, migration] of await pending(conn)) {
      await conn.transaction().execute(async (trx) => {
        await migration.up(trx, dialect);
        await record(trx, name);
      });
      applied.push(name);
    }
  };
  if (dialect === 'sqlite') {
    // Processes starting together on one new file take turns: each migration runs under the
    // write lock (BEGIN IMMEDIATE), checking again inside it whether another process did it.
    await db.connection().execute(async (conn) => {
      await sql`create table if not exists schema_migrations (name text primary key, applied_at text not null)`.execute(
        conn,
      );
      for (const [name, migration] of Object.entries(migrations)) {
        await sql`begin immediate`.execute(conn);
        try {
          if ((await pending(conn)).some(([n]) => n === name)) {
            await migration.up(conn, dialect);
            await record(conn, name);
            applied.push(name);
          }
          await sql`commit`.execute(conn);
        } catch (error) {
          await sql`rollback`.execute(conn);
          throw error;
        }
      }
    });
    return applied;
  }
  // One connection holds the lock for the whole run (a session lock: it outlives each transaction).
  await db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
    try {
      await run(conn);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
    }
  });
  return applied;
}

/** Whether an error is the database refusing a duplicate key (both engines). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Whether an error means the database could not be reached or went away mid-query (as opposed
 * to a bad query): such a request answers 503 and the pool reconnects by itself.
 */
/** A write refused for want of disk space: the database's disk, or the uploads folder's. */
export function isOutOfSpace(error: unknown): boolean {
  for (
    let e = error as { code?: string; cause?: unknown } | null | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (['ENOSPC', 'EDQUOT', 'SQLITE_FULL'].includes(e.code ?? '')) return true;
  }
  return false;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: string; message?: string; cause?: unknown } | null | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    const code = e.code ?? '';
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'SQLITE_FULL'].includes(code))
      return true;
    // better-sqlite3 gives extended codes: SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_WRITE...
    if (/^SQLITE_(BUSY|IOERR|LOCKED)/.test(code)) return true;
    // 57P01-03: admin shutdown, crash shutdown, cannot connect now; 08xxx: connection exceptions; 53300 too many connections
    if (/^(57P0[123]|08\d{3}|53300)$/.test(code)) return true;
    const message = e.message ?? '';
    if (
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout|connection is closed/i.test(
        message,
      )
    )
      return true;
  }
  return false;
}
