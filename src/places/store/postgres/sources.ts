// The PostgreSQL store's sources, own places and change files: the same behaviour as
// sqlite/sources.ts, each write in one transaction on one client.
import type pg from 'pg';
import { CATEGORIES_VERSION } from '../../model/categories.js';
import type { Member, OsmType } from '../../model/osm.js';
import type { PlaceRecord } from '../../model/osm.js';
import {
  ownRecord,
  PLACE_COLUMNS,
  placeRow,
  SOURCE_COUNTS,
  sourcesQuery,
  sourceSummaries,
  updateOnConflict,
} from '../rows.js';
import { runPlan, type Plan } from '../addresses.js';
import type {
  ChangeKnown,
  ChangeNeed,
  ChangeWrites,
  OwnPlace,
  PlaceShape,
  SourceSummary,
  StoredChangePlace,
} from '../types.js';

export async function listSources(pool: pg.Pool | pg.PoolClient, name?: string): Promise<SourceSummary[]> {
  const { rows } = await pool.query(sourcesQuery(name, '$1'), name === undefined ? [] : [name]);
  // count(*) is a bigint, which pg gives as a string
  return sourceSummaries(rows, (await pool.query(SOURCE_COUNTS)).rows);
}

/** The id of a source, made when new (an OSM source). */
export async function sourceId(client: pg.PoolClient, name: string): Promise<number> {
  await client.query(`insert into place_sources (name, kind) values ($1, 'osm') on conflict (name) do nothing`, [name]);
  return (await client.query<{ id: number }>('select id from place_sources where name = $1', [name])).rows[0].id;
}

/** Node locations no place uses any more. */
async function forgetUnusedNodes(client: pg.PoolClient, candidates: number[]): Promise<void> {
  if (candidates.length === 0) return;
  await client.query(
    'delete from node_locations n where n.id = any($1::bigint[]) and not exists (select 1 from place_nodes p where p.node_id = n.id)',
    [candidates],
  );
}

/** The places removed, or why none were. Call in a transaction. */
export async function removeSource(
  client: pg.PoolClient,
  name: string,
): Promise<number | 'not found' | 'not removable'> {
  const source = (
    await client.query<{ id: number; kind: string }>('select id, kind from place_sources where name = $1 for update', [
      name,
    ])
  ).rows[0];
  if (!source) return 'not found';
  if (source.kind !== 'osm') return 'not removable';
  const nodes = (
    await client.query<{ node_id: number }>(
      'select distinct n.node_id from place_nodes n join places p on p.id = n.place_id where p.source_id = $1',
      [source.id],
    )
  ).rows.map((r) => r.node_id);
  const removed = (await client.query('delete from places where source_id = $1', [source.id])).rowCount ?? 0;
  await forgetUnusedNodes(client, nodes);
  await client.query('delete from place_sources where id = $1', [source.id]);
  return removed;
}

export async function writeOwn(
  client: pg.PoolClient,
  changes: { upsert: OwnPlace[]; remove: number[] },
  fetchedAt: number,
): Promise<number[]> {
  const own = (await client.query<{ id: number }>(`select id from place_sources where name = 'own'`)).rows[0].id;
  // One writer of own places at a time: new ids are the next free ones.
  await client.query(`select pg_advisory_xact_lock(hashtext('own-places'))`);
  // Ids are never handed out twice: a link to a removed place must not show another one.
  let next = (
    await client.query<{ n: number }>(
      `select greatest(coalesce((select value::int from places_meta where key = 'own_next_id'), 1),
       coalesce((select max(osm_id) from places where osm_type = 'own'), 0)::int + 1) as n`,
    )
  ).rows[0].n;
  if (changes.remove.length)
    await client.query(`delete from places where osm_type = 'own' and osm_id = any($1::bigint[])`, [changes.remove]);
  const ids: number[] = [];
  for (const place of changes.upsert) {
    const osmId = place.id ?? next++;
    if (place.id !== undefined) {
      const exists = await client.query(`select 1 from places where osm_type = 'own' and osm_id = $1`, [osmId]);
      if (exists.rowCount === 0) throw new RangeError(`own place ${place.id} does not exist`);
    }
    const record = ownRecord(place, osmId);
    if (record.categories === 0) throw new RangeError(`unknown category "${place.category}"`);
    const row = placeRow(record);
    row[0] = 'own';
    const values = row.map((_, i) => `$${i + 1}`).join(', ');
    const { rows } = await client.query<{ id: number }>(
      `insert into places (${PLACE_COLUMNS}, source, fetched_at, source_id)
       values (${values}, 'own', $${row.length + 1}, $${row.length + 2})
       ${updateOnConflict(false)} returning id`,
      [...row, fetchedAt, own],
    );
    await client.query(
      'insert into place_tags (id, tags) values ($1, $2) on conflict (id) do update set tags = excluded.tags',
      [rows[0].id, JSON.stringify(record.tags)],
    );
    ids.push(rows[0].id);
  }
  await client.query(
    `insert into places_meta (key, value) values ('own_next_id', $1) on conflict (key) do update set value = excluded.value`,
    [String(next)],
  );
  return ids;
}

/**
 * Upserts places with their tags. Live answers and change
 * files leave a known place in its source. Returns the ids, in order.
 */
export async function upsertPlaces(
  client: pg.PoolClient,
  places: PlaceRecord[],
  source: 'import' | 'overpass',
  sourceIdValue: number,
  fetchedAt: number,
  shapes: PlaceShape[] = [],
): Promise<{ ids: number[]; replaced: number; added: number }> {
  const seen = new Set<string>();
  let replaced = 0;
  const ids: number[] = [];
  for (const [i, place] of places.entries()) {
    const key = `${place.osmType}/${place.osmId}`;
    const row = placeRow(place);
    const n = row.length;
    const { rows } = await client.query<{ id: number; inserted: boolean }>(
      `insert into places (${PLACE_COLUMNS}, source, fetched_at, source_id, version)
       values (${row.map((_, k) => `$${k + 1}`).join(', ')}, $${n + 1}, $${n + 2}, $${n + 3}, $${n + 4})
       ${updateOnConflict(false)} returning id, (xmax = 0) as inserted`,
      [...row, source, fetchedAt, sourceIdValue, shapes[i]?.version ?? null],
    );
    if (!seen.has(key)) {
      seen.add(key);
      if (!rows[0].inserted) replaced++;
    }
    ids.push(rows[0].id);
    await client.query(
      'insert into place_tags (id, tags) values ($1, $2) on conflict (id) do update set tags = excluded.tags',
      [rows[0].id, JSON.stringify(place.tags)],
    );
  }
  return { ids, replaced, added: seen.size - replaced };
}

interface ChangeRow {
  id: number;
  osm_type: OsmType;
  osm_id: number;
  version: number | null;
  lat: number;
  lon: number;
  categories: number;
}

const toChangePlace = (row: ChangeRow): StoredChangePlace => ({
  id: row.id,
  osmType: row.osm_type,
  osmId: row.osm_id,
  version: row.version,
  lat: row.lat,
  lon: row.lon,
  categories: row.categories,
});

export async function lookup(client: pg.PoolClient, need: ChangeNeed, known: ChangeKnown): Promise<void> {
  const columns = 'id, osm_type, osm_id, version, lat, lon, categories';
  for (const key of need.places) known.places.set(key, null);
  if (need.places.length) {
    const types = need.places.map((k) => k.slice(0, k.indexOf('/')));
    const ids = need.places.map((k) => Number(k.slice(k.indexOf('/') + 1)));
    const { rows } = await client.query<ChangeRow>(
      `select ${columns} from places p join unnest($1::text[], $2::bigint[]) as k(t, i) on p.osm_type = k.t and p.osm_id = k.i`,
      [types, ids],
    );
    for (const row of rows) known.places.set(`${row.osm_type}/${row.osm_id}`, toChangePlace(row));
  }
  for (const id of need.placeIds) known.placeIds.set(id, null);
  if (need.placeIds.length) {
    for (const row of (
      await client.query<ChangeRow>(`select ${columns} from places where id = any($1::int[])`, [need.placeIds])
    ).rows) {
      known.placeIds.set(row.id, toChangePlace(row));
    }
  }
  for (const id of need.nodes) known.nodes.set(id, null);
  if (need.nodes.length) {
    const { rows } = await client.query<{ id: number; lat: number; lon: number }>(
      'select id, lat, lon from node_locations where id = any($1::bigint[])',
      [need.nodes],
    );
    for (const row of rows) known.nodes.set(row.id, [row.lat, row.lon]);
  }
  for (const id of need.ways) known.ways.set(id, null);
  if (need.ways.length) {
    const { rows } = await client.query<{ id: number; refs: string }>(
      'select id, refs from way_nodes where id = any($1::bigint[])',
      [need.ways],
    );
    for (const row of rows) known.ways.set(row.id, JSON.parse(row.refs) as number[]);
  }
  for (const id of need.relations) known.relations.set(id, null);
  if (need.relations.length) {
    const { rows } = await client.query<{ id: number; members: string }>(
      'select id, members from relation_members where id = any($1::bigint[])',
      [need.relations],
    );
    for (const row of rows)
      known.relations.set(
        row.id,
        (JSON.parse(row.members) as [OsmType, number][]).map(([type, ref]): Member => ({ type, ref })),
      );
  }
  for (const id of need.users) known.users.set(id, []);
  if (need.users.length) {
    const { rows } = await client.query<{ node_id: number; place_id: number }>(
      'select node_id, place_id from place_nodes where node_id = any($1::bigint[])',
      [need.users],
    );
    for (const row of rows) known.users.get(row.node_id)!.push(row.place_id);
  }
}

export async function writeChanges(client: pg.PoolClient, w: ChangeWrites): Promise<void> {
  const source = await sourceId(client, w.source.name);
  await client.query(
    `update place_sources set sequence = coalesce($1, sequence), data_timestamp = coalesce($2, data_timestamp),
     replication_url = coalesce($3, replication_url), updated_at = $4 where id = $5`,
    [w.source.sequence, w.source.dataTimestamp, w.source.replicationUrl, w.source.updatedAt, source],
  );
  const oldNodes = async (ids: number[]) =>
    ids.length
      ? (
          await client.query<{ node_id: number }>('select node_id from place_nodes where place_id = any($1::int[])', [
            ids,
          ])
        ).rows.map((r) => r.node_id)
      : [];
  const touched = new Set<number>([...w.deletedNodes, ...(await oldNodes(w.removals))]);
  if (w.removals.length) await client.query('delete from places where id = any($1::int[])', [w.removals]);

  const { ids } = await upsertPlaces(
    client,
    w.upserts.map((u) => u.place),
    'import',
    source,
    w.fetchedAt,
    w.upserts.map((u) => u.shape),
  );
  const reshaped = ids.filter((_, i) => w.upserts[i].shape.nodes);
  for (const node of await oldNodes(reshaped)) touched.add(node);
  if (reshaped.length) await client.query('delete from place_nodes where place_id = any($1::int[])', [reshaped]);
  const feeds: [number, number][] = [];
  w.upserts.forEach(({ shape }, i) => {
    for (const node of shape.nodes ?? []) feeds.push([node, ids[i]]);
  });
  if (feeds.length) {
    await client.query(
      'insert into place_nodes (node_id, place_id) select * from unnest($1::bigint[], $2::int[]) on conflict do nothing',
      [feeds.map((f) => f[0]), feeds.map((f) => f[1])],
    );
  }
  if (w.moves.length) {
    await client.query(
      `update places p set lat = m.lat, lon = m.lon
       from unnest($1::int[], $2::float8[], $3::float8[]) as m(id, lat, lon) where p.id = m.id`,
      [w.moves.map((m) => m.id), w.moves.map((m) => m.lat), w.moves.map((m) => m.lon)],
    );
  }
  // A node may be listed twice (as a node of the file and of a way's new shape): the last wins.
  const locations = [...new Map(w.nodeLocations.map((n) => [n[0], n])).values()];
  if (locations.length) {
    await client.query(
      `insert into node_locations (id, lat, lon) select * from unnest($1::bigint[], $2::float8[], $3::float8[])
       on conflict (id) do update set lat = excluded.lat, lon = excluded.lon`,
      [locations.map((n) => n[0]), locations.map((n) => n[1]), locations.map((n) => n[2])],
    );
  }
  if (w.deletedNodes.length)
    await client.query('delete from node_locations where id = any($1::bigint[])', [w.deletedNodes]);
  const ways = new Map(w.wayNodes);
  if (ways.size) {
    await client.query(
      'insert into way_nodes (id, refs) select * from unnest($1::bigint[], $2::text[]) on conflict (id) do update set refs = excluded.refs',
      [[...ways.keys()], [...ways.values()].map((refs) => JSON.stringify(refs))],
    );
  }
  const relations = new Map(w.relationMembers);
  if (relations.size) {
    await client.query(
      `insert into relation_members (id, members) select * from unnest($1::bigint[], $2::text[])
       on conflict (id) do update set members = excluded.members`,
      [
        [...relations.keys()],
        [...relations.values()].map((members) => JSON.stringify(members.map((m) => [m.type, m.ref]))),
      ],
    );
  }
  await forgetUnusedNodes(client, [...touched]);
}

/** Which category table the stored masks were computed with. */
export async function recordCategoriesVersion(client: pg.PoolClient): Promise<void> {
  await client.query(
    `insert into places_meta (key, value) values ('categories_version', $1) on conflict (key) do update set value = excluded.value`,
    [CATEGORIES_VERSION],
  );
}

/** Runs a plan of queries on the client, inside its transaction. */
export function runPlanOn<T>(client: pg.PoolClient, plan: Plan<T>): Promise<T> {
  return runPlan(plan, async (query) => {
    let n = 0;
    const text = query.sql.replace(/\?/g, () => `$${++n}`);
    return (await client.query(text, query.params)).rows as Record<string, unknown>[];
  });
}
