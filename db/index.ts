// createDb(DATABASE_URL) -> Kysely, and migrate(): the only place that knows the SQL engine.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { DatabaseUrl } from '../src/config.js';
import { migrations as allMigrations, type Migration } from './migrations/index.js';
import type { Database } from './schema.js';

export type { Database } from './schema.js';
export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  /** The raw SQLite connection, for the few things Kysely does not model (R*Tree, backup). */
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

/** Opens an SQLite file with the pragmas we mean (better-sqlite3's defaults are not them). */
export function openSqlite(path: string): SQLite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a committed transaction survives a power loss, not only a process crash.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return sqlite;
}

export function createDb(url: DatabaseUrl): DbHandle {
  if (url.kind !== 'sqlite') {
    throw new Error('DATABASE_URL: PostgreSQL is not supported yet; use sqlite:<path>');
  }
  const sqlite = openSqlite(url.path);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, sqlite, close: () => db.destroy() };
}

/**
 * Applies pending migrations, each in its own transaction together with its record, so a crash
 * leaves either the whole migration or none of it (Kysely's SQLite dialect does not do this).
 * Returns the names applied.
 */
export async function migrate(db: Db, migrations: Record<string, Migration> = allMigrations): Promise<string[]> {
  await sql`create table if not exists schema_migrations (name text primary key, applied_at text not null)`.execute(db);
  const done = new Set(
    (await db.selectFrom('schema_migrations').select('name').execute()).map((r) => r.name),
  );
  const applied: string[] = [];
  for (const [name, migration] of Object.entries(migrations)) {
    if (done.has(name)) continue;
    await db.transaction().execute(async (trx) => {
      await migration.up(trx);
      await trx
        .insertInto('schema_migrations')
        .values({ name, applied_at: new Date().toISOString() })
        .execute();
    });
    applied.push(name);
  }
  return applied;
}
