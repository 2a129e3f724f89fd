// Frozen: the places change log on PostgreSQL. Never import application code here.
//
// Every server process searches its own copy of the places (src/places/store/postgres/node-copy.ts),
// loaded at start and kept current from this log: whoever writes `places` (an import, a change
// file, the live source, the admin, on any node), statement triggers log the ids in the same
// transaction and send one notification per transaction (identical notifications of one
// transaction are folded into one) on the channel `place_changes`, which the processes listen to.
//
// The cursor trap: `id` is taken when a row is inserted, but the row shows only at commit, so
// ids do not show in order (T1 takes 100, T2 takes 101 and commits first; a reader past 101
// would never go back for 100). Hence `txid`, the writing transaction's id: a reader takes only
// rows whose transaction ended before its snapshot's xmin (`txid < pg_snapshot_xmin(...)`: no
// transaction below it is still running, so none of them can add a row later), in the order
// (txid, id), and keeps that pair as its cursor. No writer waits for another (serialising the
// writers with a lock would hold every write behind a long import); the price is that a long
// writing transaction holds the log's readers back until it ends.
//
// The readers prune the log (node-copy.ts): what every transaction ended an hour ago wrote.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  if (dialect === 'sqlite') return; // SQLite has its log since 0007 (one writer at a time: no such trap)
  await sql`
    create table place_changes (
      id bigint generated always as identity primary key,
      txid xid8 not null default pg_current_xact_id(),
      place_id integer not null
    )`.execute(db);
  await sql`create index place_changes_cursor on place_changes (txid, id)`.execute(db);
  // One statement, one insert of every id it touched (transition tables), however many rows.
  await sql
    .raw(
      `
    create function place_changes_logged() returns trigger language plpgsql as $$
    declare
      logged bigint;
    begin
      insert into place_changes (place_id) select id from changed;
      get diagnostics logged = row_count;
      if logged > 0 then
        perform pg_notify('place_changes', '');
      end if;
      return null;
    end $$`,
    )
    .execute(db);
  for (const [name, event, table] of [
    ['places_inserted', 'insert', 'new'],
    ['places_updated', 'update', 'new'],
    ['places_deleted', 'delete', 'old'],
  ]) {
    await sql
      .raw(
        `
      create trigger ${name} after ${event} on places referencing ${table} table as changed
      for each statement execute function place_changes_logged()`,
      )
      .execute(db);
  }
}
