// An order-independent digest of what an import wrote: every row of the places, their tags,
// cards and change log, the address context, and what lets places follow their nodes, with each place named by its
// OSM type and id rather than its row id (row ids follow the order places are written in, which
// the reader is free to change). Two imports that wrote the same rows have the same digest.
import { createHash } from 'node:crypto';
import type { TempDb } from '../../support/places.js';

type Row = Record<string, unknown>;

/** The number columns of each query, read as numbers (PostgreSQL gives bigints as text). */
const NUMERIC = new Set(['osm_id', 'lat', 'lon', 'categories', 'version', 'node_id', 'id', 'n']);

function normalise(row: Row): unknown[] {
  return Object.entries(row).map(([column, value]) => (value !== null && NUMERIC.has(column) ? Number(value) : value));
}

function digestRows(rows: Row[]): { rows: number; sha256: string } {
  const lines = rows.map((row) => JSON.stringify(normalise(row))).sort();
  return { rows: lines.length, sha256: createHash('sha256').update(lines.join('\n')).digest('hex') };
}

const PLACE = `p.osm_type || '/' || p.osm_id`;

/** Per table, the row count and the digest of its rows. */
export async function importDigest(db: TempDb): Promise<Record<string, { rows: number; sha256: string }>> {
  const queries: Record<string, string> = {
    places: `select p.osm_type, p.osm_id, p.lat, p.lon, p.categories, p.name, p.names, p.address, p.phone, p.website,
      p.address_source, p.opening_hours, p.wheelchair, p.country, p.timezone, p.source, p.version, s.name as source_name
      from places p left join place_sources s on s.id = p.source_id`,
    place_tags: `select ${PLACE} as place, t.tags from place_tags t join places p on p.id = t.id`,
    place_nodes: `select ${PLACE} as place, n.node_id from place_nodes n join places p on p.id = n.place_id`,
    node_locations: 'select id, lat, lon from node_locations',
    way_nodes: 'select id, refs from way_nodes',
    relation_members: 'select id, members from relation_members',
    // what addresses are derived from, as the store keeps it (the feature's geometry in `data`)
    address_context:
      'select source, osm_type, osm_id, kind, min_lat, min_lon, max_lat, max_lon, data from address_context',
    // the change log: how many times each place was logged
    place_changes: `select ${PLACE} as place, count(*) as n from place_changes c join places p on p.id = c.place_id
      group by p.osm_type, p.osm_id`,
  };
  if (db.handle.dialect === 'sqlite') {
    queries.place_cards = `select ${PLACE} as place, c.card, c.name, c.names, c.opening_hours, c.country, c.timezone
      from place_cards c join places p on p.id = c.id`;
    queries.places_names = `select ${PLACE} as place, f.names from places_names f join places p on p.id = f.rowid`;
  }
  const digest: Record<string, { rows: number; sha256: string }> = {};
  for (const [table, query] of Object.entries(queries)) digest[table] = digestRows(await db.rows<Row>(query));
  return digest;
}
