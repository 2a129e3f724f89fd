// Frozen: a place's derived address kept in parts. Never import application code here.
//
// - places.address_parts: the parts of a derived address (street, house number, postcode, town,
//   and whether it came from the building or from nearby), as JSON, written with the address text
//   whenever addresses are derived, so that a place page reads one row rather than the address
//   context around the place.
// - The indexes 0016 made for that per-page read of the context have no reader left.
// - An index that holds derived addresses (it has address context) gets the places_meta key
//   `address_parts_pending`: its places are derived again once, by the server's next start (before
//   it listens) or the next import, which then removes the key (the derivation is application code).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  await sql`alter table places add column address_parts text`.execute(db);
  await sql
    .raw(
      dialect === 'postgres'
        ? 'drop index if exists address_context_area'
        : 'drop index if exists address_context_tier',
    )
    .execute(db);
  await sql`insert into places_meta (key, value) select 'address_parts_pending', 'yes'
    where exists (select 1 from address_context)`.execute(db);
}
