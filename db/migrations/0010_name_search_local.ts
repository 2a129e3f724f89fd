// Frozen: PostgreSQL's name index goes. Never import application code here.
//
// A search by name now reads the FTS5 index every process keeps beside its copy of the places
// (src/places/store/postgres/node-copy.ts, as on SQLite since 0005), so the tsvector column of 0005 and
// the trigger that filled it at every write of a place are no longer read.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  if (dialect === 'sqlite') return; // SQLite's places_names is the index every process reads
  await sql`drop trigger places_name_search on places`.execute(db);
  await sql`drop function places_name_search()`.execute(db);
  // its GIN index goes with it
  await sql`alter table places drop column name_search`.execute(db);
}
