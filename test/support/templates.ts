// Databases holding real extracts, imported once per run: the first test that asks for a set of
// extracts imports them into a template (an SQLite file in the run's folder, or a PostgreSQL
// database of the run's server); every test after it gets a copy of the file, or a database made
// with CREATE DATABASE ... TEMPLATE, in a fraction of the import's time. Tests about importing
// itself still import.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { createDb, migrate, type Dialect } from '../../db/index.js';
import { migrations } from '../../db/migrations/index.js';
import { postgresCopy, TEST_DIALECT, type TestDatabase } from './databases.js';
import { withDatabase } from './postgres-setup.js';

/** Extracts as one import run wrote them; `now` is the import's time (default: the run's clock). */
export interface Imported {
  extracts: string[];
  now?: number;
}

const LATEST_MIGRATION = Object.keys(migrations).sort().at(-1)!;
const BUILD_TIMEOUT_MS = 5 * 60_000;

function keyOf(imported: Imported): string {
  const key = JSON.stringify({ extracts: imported.extracts, now: imported.now ?? null, migration: LATEST_MIGRATION });
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** Migrates the database at `url` and imports the extracts into it. */
async function importInto(
  url: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string },
  imported: Imported,
): Promise<void> {
  // Loaded here: only tests that ask for extracts pay for the import code.
  const { importInputs } = await import('../../src/places/sources/import/index.js');
  const { createPlaceStore } = await import('../../src/places/store/index.js');
  const handle = createDb(url, { poolSize: 2 });
  try {
    await migrate(handle);
    await importInputs(createPlaceStore(handle), imported.extracts, { now: imported.now });
  } finally {
    await handle.close();
  }
}

/** The run's SQLite file of these extracts, imported by whichever worker asked first. */
async function sqliteTemplate(imported: Imported): Promise<string> {
  const dir = inject('sqliteTemplates');
  const key = keyOf(imported);
  const file = join(dir, `${key}.db`);
  const lock = join(dir, `${key}.lock`);
  const until = Date.now() + BUILD_TIMEOUT_MS;
  while (!existsSync(file)) {
    try {
      mkdirSync(lock);
    } catch {
      // another worker is importing them
      if (Date.now() > until)
        throw new Error(`no template of ${imported.extracts.join(', ')} after ${BUILD_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      if (existsSync(file)) break;
      const building = join(dir, `${key}.building.db`);
      rmSync(building, { force: true });
      await importInto({ kind: 'sqlite', path: building }, imported);
      renameSync(building, file);
    } finally {
      rmdirSync(lock);
    }
  }
  return file;
}

/** The run's PostgreSQL database of these extracts, imported under an advisory lock. */
async function postgresTemplate(imported: Imported): Promise<string> {
  const adminUrl = inject('pgAdminUrl');
  const key = keyOf(imported);
  const name = `${inject('pgPrefix')}_x${key}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // the session's lock: released if this worker dies while importing
    await admin.query('select pg_advisory_lock($1)', [parseInt(key.slice(0, 12), 16)]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building}`);
      await admin.query(`create database ${building} template ${inject('pgTemplate')}`);
      await importInto({ kind: 'postgres', url: withDatabase(adminUrl, building) }, imported);
      await admin.query(`alter database ${building} rename to ${name}`);
    }
  } finally {
    await admin.end();
  }
  return name;
}

/**
 * A new, migrated database of the pass's engine (or `dialect`) holding `imported`'s places;
 * `dir` holds the SQLite file (ignored on PostgreSQL).
 */
export async function importedDatabase(
  dir: string,
  imported: Imported,
  dialect: Dialect = TEST_DIALECT,
): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const path = join(dir, 'app.db');
    copyFileSync(await sqliteTemplate(imported), path);
    return { url: `sqlite:${path}`, dialect, drop: async () => {} };
  }
  return postgresCopy(await postgresTemplate(imported));
}
