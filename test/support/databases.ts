// The database a test runs on: a fresh SQLite file, or (in the PostgreSQL pass, TEST_DB=postgres)
// a fresh clone of the migrated template database. Tests that must hold on both engines use
// this and nothing else to get a database.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Dialect } from '../../db/index.js';
import { withDatabase } from './postgres-setup.js';

export const TEST_DIALECT: Dialect = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** a DATABASE_URL value */
  url: string;
  dialect: Dialect;
  drop(): Promise<void>;
}

/** A new, migrated database; `dir` holds the SQLite file (ignored on PostgreSQL). */
export async function freshDatabase(dir: string, dialect: Dialect = TEST_DIALECT): Promise<TestDatabase> {
  if (dialect === 'sqlite') return { url: `sqlite:${join(dir, 'app.db')}`, dialect, drop: async () => {} };
  // Copying the template (17 MB) takes PostgreSQL a quarter of a second to a second on a busy
  // machine: the next test's copy is made while this test runs. The one left over at the end is
  // dropped with the rest of the run's databases.
  const next = spare ?? postgresCopy(inject('pgTemplate'));
  spare = postgresCopy(inject('pgTemplate'));
  spare.catch(() => {}); // a failure is the next test's to see
  return next;
}
let spare: Promise<TestDatabase> | undefined;

/** A new database of the run's PostgreSQL server, copied from `template`. */
export async function postgresCopy(template: string): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `${inject('pgPrefix')}_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name} template ${template}`);
  return {
    url: withDatabase(adminUrl, name),
    dialect: 'postgres',
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

/** A database with nothing in it (no tables), for tests of migrations and of moving a site. */
export async function emptyPostgresDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `${inject('pgPrefix')}_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `create database ${name}`);
  await adminQuery(withDatabase(adminUrl, name), 'create extension postgis; create extension btree_gist');
  return {
    url: withDatabase(adminUrl, name),
    dialect: 'postgres',
    drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  };
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * Registers a group of tests only on one engine (for what only one of them has, such as
 * SQLite's pragmas or PostGIS's index): on the other the group does not exist, rather than
 * showing as skipped.
 */
export function onlyOn(dialect: Dialect, define: () => void): void {
  if (TEST_DIALECT === dialect) define();
}
