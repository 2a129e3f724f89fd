// The SQLite store's sources, own places and change files. Every write is one
// better-sqlite3 transaction, synchronous, so nothing else on the connection runs in between.
import type SQLite from '../../../../db/sqlite-driver.js';
import type { Member, OsmType } from '../../model/osm.js';
import { emptyKnown, ownRecord, SOURCE_COUNTS, sourcesQuery, sourceSummaries } from '../rows.js';
import { sourceId, upsertPlaces } from './writer.js';
import type {
  ChangeKnown,
  ChangeNeed,
  ChangePlan,
  ChangeWrites,
  OwnPlace,
  SourceSummary,
  StoredChangePlace,
} from '../types.js';

export function listSources(sqlite: SQLite.Database, name?: string): SourceSummary[] {
  const rows = sqlite.prepare(sourcesQuery(name, '?')).all(...(name === undefined ? [] : [name])) as Parameters<
    typeof sourceSummaries
  >[0];
  return sourceSummaries(rows, sqlite.prepare(SOURCE_COUNTS).all() as Parameters<typeof sourceSummaries>[1]);
}

function removePlaces(sqlite: SQLite.Database, ids: number[]): void {
  const remove = sqlite.prepare('delete from places where id = ?');
  for (const id of ids) remove.run(id);
}

/** Node locations no place uses any more. */
function forgetUnusedNodes(sqlite: SQLite.Database, candidates: number[]): void {
  const forget = sqlite.prepare(
    'delete from node_locations where id = ? and not exists (select 1 from place_nodes where node_id = ?)',
  );
  for (const id of candidates) forget.run(id, id);
}

export function removeSource(sqlite: SQLite.Database, name: string): number | 'not found' | 'not removable' {
  return sqlite
    .transaction(() => {
      const source = sqlite.prepare('select id, kind from place_sources where name = ?').get(name) as
        { id: number; kind: string } | undefined;
      if (!source) return 'not found';
      if (source.kind !== 'osm') return 'not removable';
      const ids = sqlite.prepare('select id from places where source_id = ?').pluck().all(source.id) as number[];
      const nodes = sqlite
        .prepare(
          'select distinct n.node_id from place_nodes n join places p on p.id = n.place_id where p.source_id = ?',
        )
        .pluck()
        .all(source.id) as number[];
      removePlaces(sqlite, ids);
      forgetUnusedNodes(sqlite, nodes);
      sqlite.prepare('delete from place_sources where id = ?').run(source.id);
      return ids.length;
    })
    .immediate();
}

/** Own places: osm_type 'own', osm_id their own id (the next free one when new). */
export function writeOwn(
  sqlite: SQLite.Database,
  changes: { upsert: OwnPlace[]; remove: number[] },
  fetchedAt: number,
): number[] {
  return sqlite
    .transaction(() => {
      const own = sourceId(sqlite, 'own');
      const ids: number[] = [];
      // Ids are never handed out twice: a link to a removed place must not show another one.
      let next = sqlite
        .prepare(
          `select max(coalesce((select cast(value as integer) from places_meta where key = 'own_next_id'), 1),
           coalesce((select max(osm_id) from places where osm_type = 'own'), 0) + 1)`,
        )
        .pluck()
        .get() as number;
      removePlaces(
        sqlite,
        sqlite
          .prepare(`select id from places where osm_type = 'own' and osm_id in (select value from json_each(?))`)
          .pluck()
          .all(JSON.stringify(changes.remove)) as number[],
      );
      const existing = sqlite.prepare(`select id from places where osm_type = 'own' and osm_id = ?`);
      const upsert = sqlite
        .prepare(
          `insert into places (osm_type, osm_id, lat, lon, categories, name, names, address, phone, website,
         opening_hours, wheelchair, country, timezone, source, fetched_at, source_id)
       values ('own', ?, ?, ?, ?, ?, null, ?, ?, ?, ?, null, ?, ?, 'own', ?, ?)
       on conflict (osm_type, osm_id) do update set lat = excluded.lat, lon = excluded.lon,
         categories = excluded.categories, name = excluded.name,
         address = excluded.address, phone = excluded.phone, website = excluded.website, opening_hours = excluded.opening_hours,
         country = excluded.country, timezone = excluded.timezone, fetched_at = excluded.fetched_at
       returning id`,
        )
        .pluck();
      const tags = sqlite.prepare('insert or replace into place_tags (id, tags) values (?, ?)');
      for (const place of changes.upsert) {
        const osmId = place.id ?? next++;
        const before = existing.get(osmId) as { id: number } | undefined;
        if (place.id !== undefined && !before) throw new RangeError(`own place ${place.id} does not exist`);
        const record = ownRecord(place, osmId);
        if (record.categories === 0) throw new RangeError(`unknown category "${place.category}"`);
        const id = upsert.get(
          osmId,
          record.lat,
          record.lon,
          record.categories,
          record.name,
          record.address,
          record.phone,
          record.website,
          record.openingHours,
          record.country,
          record.timezone,
          fetchedAt,
          own,
        ) as number;
        tags.run(id, JSON.stringify(record.tags));
        ids.push(id);
      }
      sqlite
        .prepare(
          `insert into places_meta (key, value) values ('own_next_id', ?) on conflict (key) do update set value = excluded.value`,
        )
        .run(String(next));
      return ids;
    })
    .immediate();
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

/** Answers a plan's needs from the database (inside the change's transaction). */
function lookup(sqlite: SQLite.Database, need: ChangeNeed, known: ChangeKnown): void {
  const json = (ids: unknown[]) => JSON.stringify(ids);
  const columns = 'id, osm_type, osm_id, version, lat, lon, categories';
  for (const key of need.places) known.places.set(key, null);
  const one = sqlite.prepare(`select ${columns} from places where osm_type = ? and osm_id = ?`);
  for (const key of need.places) {
    const slash = key.indexOf('/');
    const row = one.get(key.slice(0, slash), Number(key.slice(slash + 1))) as ChangeRow | undefined;
    if (row) known.places.set(key, toChangePlace(row));
  }
  for (const id of need.placeIds) known.placeIds.set(id, null);
  for (const row of sqlite
    .prepare(`select ${columns} from places where id in (select value from json_each(?))`)
    .all(json(need.placeIds)) as ChangeRow[]) {
    known.placeIds.set(row.id, toChangePlace(row));
  }
  for (const id of need.nodes) known.nodes.set(id, null);
  for (const row of sqlite
    .prepare('select id, lat, lon from node_locations where id in (select value from json_each(?))')
    .all(json(need.nodes)) as { id: number; lat: number; lon: number }[]) {
    known.nodes.set(row.id, [row.lat, row.lon]);
  }
  for (const id of need.ways) known.ways.set(id, null);
  for (const row of sqlite
    .prepare('select id, refs from way_nodes where id in (select value from json_each(?))')
    .all(json(need.ways)) as { id: number; refs: string }[]) {
    known.ways.set(row.id, JSON.parse(row.refs) as number[]);
  }
  for (const id of need.relations) known.relations.set(id, null);
  for (const row of sqlite
    .prepare('select id, members from relation_members where id in (select value from json_each(?))')
    .all(json(need.relations)) as { id: number; members: string }[]) {
    known.relations.set(
      row.id,
      (JSON.parse(row.members) as [OsmType, number][]).map(([type, ref]): Member => ({ type, ref })),
    );
  }
  for (const id of need.users) known.users.set(id, []);
  for (const row of sqlite
    .prepare('select node_id, place_id from place_nodes where node_id in (select value from json_each(?))')
    .all(json(need.users)) as { node_id: number; place_id: number }[]) {
    known.users.get(row.node_id)!.push(row.place_id);
  }
}

export function applyChanges(sqlite: SQLite.Database, plan: ChangePlan): ChangeWrites {
  return sqlite
    .transaction((): ChangeWrites => {
      const known = emptyKnown();
      for (;;) {
        const step = plan(known);
        if ('need' in step) {
          lookup(sqlite, step.need, known);
          continue;
        }
        writeChanges(sqlite, step.writes);
        return step.writes;
      }
    })
    .immediate();
}

function writeChanges(sqlite: SQLite.Database, w: ChangeWrites): void {
  const source = sourceId(sqlite, w.source.name);
  sqlite
    .prepare(
      `update place_sources set sequence = coalesce(?, sequence), data_timestamp = coalesce(?, data_timestamp),
       replication_url = coalesce(?, replication_url), updated_at = ? where id = ?`,
    )
    .run(w.source.sequence, w.source.dataTimestamp, w.source.replicationUrl, w.source.updatedAt, source);
  // Nodes whose users change: forgotten afterwards if nothing uses them any more.
  const oldNodes = sqlite.prepare('select node_id from place_nodes where place_id = ?').pluck();
  const touched = new Set<number>(w.deletedNodes);
  for (const id of w.removals) for (const node of oldNodes.all(id) as number[]) touched.add(node);
  removePlaces(sqlite, w.removals);

  const { ids } = upsertPlaces(
    sqlite,
    w.upserts.map((u) => u.place),
    'import',
    source,
    w.fetchedAt,
    w.upserts.map((u) => u.shape),
  );
  const clearNodes = sqlite.prepare('delete from place_nodes where place_id = ?');
  const addNode = sqlite.prepare('insert or ignore into place_nodes (node_id, place_id) values (?, ?)');
  w.upserts.forEach(({ shape }, i) => {
    if (!shape.nodes) return;
    for (const node of oldNodes.all(ids[i]) as number[]) touched.add(node);
    clearNodes.run(ids[i]);
    for (const node of shape.nodes) addNode.run(node, ids[i]);
  });

  const move = sqlite.prepare('update places set lat = ?, lon = ? where id = ?');
  for (const m of w.moves) move.run(m.lat, m.lon, m.id);

  const setNode = sqlite.prepare('insert or replace into node_locations (id, lat, lon) values (?, ?, ?)');
  for (const row of w.nodeLocations) setNode.run(row);
  const dropNode = sqlite.prepare('delete from node_locations where id = ?');
  for (const id of w.deletedNodes) dropNode.run(id);
  const setWay = sqlite.prepare('insert or replace into way_nodes (id, refs) values (?, ?)');
  for (const [id, refs] of w.wayNodes) setWay.run(id, JSON.stringify(refs));
  const setRelation = sqlite.prepare('insert or replace into relation_members (id, members) values (?, ?)');
  for (const [id, members] of w.relationMembers)
    setRelation.run(id, JSON.stringify(members.map((m) => [m.type, m.ref])));
  forgetUnusedNodes(sqlite, [...touched]);
}
