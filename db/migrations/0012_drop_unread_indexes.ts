// Frozen: drops what the writers kept and no search reads. Never import application code here.
//
// Every process answers searches from its own grid, cards and name index, following the change
// log (0007, 0008, 0010). The R*Trees on SQLite, and on PostgreSQL the per-category rows with
// their GiST index and the places' geography point with its own, were written on every write
// (import, change file, live answer, own place) and read by no search.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  if (dialect === 'sqlite') {
    // places_rtree and one tree per category (0002): each is a virtual table with shadow tables.
    const trees = await sql<{
      name: string;
    }>`select name from sqlite_master where type = 'table' and name like 'places_rtree%'
      and sql like 'create virtual table % using rtree%'`.execute(db);
    for (const { name } of trees.rows) await sql`drop table ${sql.id(name)}`.execute(db);
    return;
  }
  await sql`drop table if exists place_categories`.execute(db);
  await sql`drop index if exists places_geog`.execute(db);
  await sql`alter table places drop column if exists geog`.execute(db);
}
