// Frozen: addresses from context. Never import application code here.
//
// - places.address_source: where a derived address came from, `building` (the building or area
//   the place stands in) or `nearby` (the nearest address point or street); null when the address
//   is the place's own (or there is none). The answer says `osm` for an own one.
// - address_context: what addresses are derived from (buildings and areas with addr:*, address
//   points, named streets, towns), with a bounding box, so that a change file re-derives the
//   addresses of only the places around what it changed. `data` is the feature as JSON
//   (coordinates, address tags, a town's extent, a way's node ids).
// - On SQLite the cards say address_source too: the triggers of 0007 are made again with it.
// - Places without a name take their brand's, else their operator's.
import { sql, type Kysely } from 'kysely';

/** The card columns of a place row `p`, as 0007 wrote them, with `address_source` after `address`. */
const cardValues = (p: string) => `${p}.id,
  '"id":' || json_quote(${p}.osm_type || '/' || ${p}.osm_id) ||
  ',"address":' || json_quote(${p}.address) ||
  ',"address_source":' || json_quote(coalesce(${p}.address_source, case when ${p}.address is null then null else 'osm' end)) ||
  ',"phone_number":' || json_quote(${p}.phone) ||
  ',"opening_hours":' || json_quote(${p}.opening_hours) ||
  ',"website":' || json_quote(${p}.website) ||
  ',"wheelchair":' || json_quote(${p}.wheelchair) ||
  ',"source":' || case ${p}.osm_type when 'own' then '"own"' else '"osm"' end,
  ${p}.name, ${p}.names, ${p}.opening_hours,
  case when ${p}.opening_hours is null then null else ${p}.country end,
  case when ${p}.opening_hours is null then null else ${p}.timezone end`;

const CARD_COLUMNS = 'id, card, name, names, opening_hours, country, timezone';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  await sql`alter table places add column address_source text check (address_source in ('building', 'nearby'))`.execute(
    db,
  );
  await sql
    .raw(
      `
    create table address_context (
      ${dialect === 'postgres' ? 'id bigserial primary key' : 'id integer primary key'},
      source text,
      osm_type text not null,
      osm_id bigint not null,
      kind text not null check (kind in ('area', 'point', 'street', 'locality')),
      min_lat double precision not null,
      min_lon double precision not null,
      max_lat double precision not null,
      max_lon double precision not null,
      data text not null,
      unique (osm_type, osm_id, kind)
    )`,
    )
    .execute(db);
  await sql`create index address_context_box on address_context (min_lat, max_lat)`.execute(db);
  await sql`create index address_context_source on address_context (source)`.execute(db);

  const brandOrOperator =
    dialect === 'postgres'
      ? `coalesce(nullif(trim(t.tags::jsonb ->> 'brand'), ''), nullif(trim(t.tags::jsonb ->> 'operator'), ''))`
      : `coalesce(nullif(trim(json_extract(t.tags, '$.brand')), ''), nullif(trim(json_extract(t.tags, '$.operator')), ''))`;
  await sql
    .raw(
      `update places set name = (select ${brandOrOperator} from place_tags t where t.id = places.id)
      where name is null and osm_type <> 'own' and exists (select 1 from place_tags t where t.id = places.id and ${brandOrOperator} is not null)`,
    )
    .execute(db);

  if (dialect === 'postgres') return;
  for (const [name, event] of [
    ['places_inserted', 'insert'],
    ['places_updated', 'update'],
  ]) {
    await sql.raw(`drop trigger ${name}`).execute(db);
    await sql
      .raw(
        `
      create trigger ${name} after ${event} on places begin
        insert into place_changes (place_id) values (new.id);
        delete from place_cards where id = new.id;
        insert into place_cards (${CARD_COLUMNS}) values (${cardValues('new')});
      end`,
      )
      .execute(db);
  }
  await sql`delete from place_cards`.execute(db);
  await sql.raw(`insert into place_cards (${CARD_COLUMNS}) select ${cardValues('places')} from places`).execute(db);
}
