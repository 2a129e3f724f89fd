// Frozen: the address context read around a point. Never import application code here.
//
// A place page derives its address from the context features whose box meets a small box around
// the place. The index on (min_lat, max_lat) bounds such a read on one side only (min_lat <=
// north): every feature south of the place was read.
// - PostgreSQL: a GiST index of each feature's box (the built-in `box` type), which answers `&&`
//   (overlap) in two dimensions.
// - SQLite (no such index outside a virtual table): features fall into tiers by their height in
//   degrees of latitude (at most 0.01, at most 0.1, taller), and within a tier a feature that
//   reaches the place starts at most the tier's height south of it: one range of the index per
//   tier, the box's other bounds in the index too.
// Each index's expression must stay the same, text for text, as the store's reads
// (src/places/store/addresses.ts) for the engine to use it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  if (dialect === 'postgres') {
    await sql`create index address_context_area on address_context using gist (box(point(min_lon, min_lat), point(max_lon, max_lat)))`.execute(
      db,
    );
    return;
  }
  await sql`create index address_context_tier on address_context ((case when max_lat - min_lat <= 0.01 then 0 when max_lat - min_lat <= 0.1 then 1 else 2 end), min_lat, max_lat, min_lon, max_lon)`.execute(
    db,
  );
}
