// Frozen: the places index (issue 3). Never import application code here.
import { sql, type Kysely } from 'kysely';

/** The 34 locator categories as of this migration, in their fixed order (bit i of a mask). */
const CATEGORIES = [
  'healthcare', 'amenity', 'shop', 'tourism', 'education', 'transport', 'entertainment',
  'financial', 'public_service', 'restaurant', 'hotel', 'parking', 'pharmacy', 'hospital', 'bank',
  'atm', 'gas_station', 'supermarket', 'bakery', 'butcher', 'post_office', 'police',
  'fire_station', 'library', 'gym', 'swimming_pool', 'park', 'playground', 'cinema', 'theater',
  'museum', 'public_toilets', 'camping', 'wifi',
];

export async function up(db: Kysely<any>): Promise<void> {
  // One row per OSM object that falls in at least one locator category: what a search answers.
  // `id` is the row id the R*Trees share; (osm_type, osm_id) is what a re-import replaces by.
  await sql`
    create table places (
      id integer primary key,
      osm_type text not null check (osm_type in ('node', 'way', 'relation')),
      osm_id integer not null,
      lat real not null check (lat between -90 and 90),
      lon real not null check (lon between -180 and 180),
      -- bit i set: in category i of the list above (34 bits)
      categories integer not null,
      name text,
      -- JSON object of every name:xx tag, or null
      names text,
      address text,
      phone text,
      website text,
      opening_hours text,
      wheelchair text check (wheelchair in ('yes', 'limited', 'no')),
      -- ISO 3166-1 alpha-2, for public holidays
      country text,
      -- IANA time zone, for opening hours
      timezone text,
      source text not null check (source in ('import', 'overpass')),
      -- epoch ms of the import or of the Overpass fetch
      fetched_at integer not null,
      unique (osm_type, osm_id)
    )`.execute(db);

  // All the OSM tags, so derived columns can be recomputed; apart, to keep search rows small.
  await sql`
    create table place_tags (
      id integer primary key references places (id) on delete cascade,
      tags text not null
    )`.execute(db);

  // Points as boxes (R*Trees keep 32-bit floats, rounded outwards). A search prefilters on a box,
  // then measures exact distances. Every place is in places_rtree (its category mask alongside,
  // for searches over broad categories), and in one tree per category it is in, so that a search
  // for, say, pharmacies reads pharmacies only.
  await sql`create virtual table places_rtree using rtree(id, min_lat, max_lat, min_lon, max_lon, +categories)`.execute(db);
  for (const category of CATEGORIES) {
    await sql`create virtual table ${sql.raw(`places_rtree_${category}`)} using rtree(id, min_lat, max_lat, min_lon, max_lon)`.execute(db);
  }

  // Areas asked from Overpass, so the same area and categories are not asked again for a day.
  await sql`
    create table overpass_fetches (
      id integer primary key,
      lat real not null,
      lon real not null,
      radius_m real not null,
      categories integer not null,
      fetched_at integer not null
    )`.execute(db);
  await sql`create index overpass_fetches_time on overpass_fetches (fetched_at)`.execute(db);

  // Facts about the index as a whole (e.g. which category table its masks were computed with).
  await sql`create table places_meta (key text primary key, value text not null)`.execute(db);
}
