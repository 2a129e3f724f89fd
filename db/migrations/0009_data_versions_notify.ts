// Frozen: a notification when a cached kind of data changes, on PostgreSQL. Never import
// application code here.
//
// Every process caches the settings (src/shared/settings-cache.ts) under the version in
// `data_versions` that a writer bumps in the same transaction as its change. Reading that row at
// every request kept each search waiting on the database (the waits held 50 requests'
// objects alive at once, and the collector took a quarter of the process's time). With this
// trigger each process listens on `data_versions` instead, and reads the row only after a
// notification (or while its listening connection is down). One notification per transaction:
// PostgreSQL folds identical ones, and it sends them at commit.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  if (dialect === 'sqlite') return; // SQLite's `PRAGMA data_version` tells the same at no cost
  await sql
    .raw(
      `
    create function data_versions_notified() returns trigger language plpgsql as $$
    begin
      perform pg_notify('data_versions', '');
      return null;
    end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `
    create trigger data_versions_changed after insert or update or delete on data_versions
    for each statement execute function data_versions_notified()`,
    )
    .execute(db);
}
