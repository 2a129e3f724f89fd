// Frozen: which transaction recorded each live (Overpass) fetch, on PostgreSQL. Never import
// application code here.
//
// A search that waited while another node fetched its area finds the area covered, and must then
// search that fetch's places; its own copy of the places (node-copy.ts) may not have heard of them yet.
// With the writing transaction's id it applies exactly that transaction's changes, without
// waiting for every other running transaction (an import) to end. The live writer sets it (no
// default: rows copied in by move-db or recorded before this migration have none, and every
// process started since loaded their places).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  if (dialect === 'sqlite') return; // one file: a search reads what any process committed
  await sql`alter table overpass_fetches add column txid xid8`.execute(db);
}
