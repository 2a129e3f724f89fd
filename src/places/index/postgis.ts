// The places index on PostgreSQL + PostGIS (db/migrations/0002_places.ts): the database every
// node shares holds the places and takes every write (imports, change files, the live source,
// the own places). Searches do not ask it: each process searches its own copy (node-copy.ts),
// the same grid and cards as on SQLite, kept current from the change log of migration 0008.
// The name search reads PostgreSQL's full-text index.
//
// postgisNearest() asks PostGIS the nearest places itself (GiST indexes on `places` and
// `place_categories`): the reference that move-db and the tests compare the copies with.
import { createReadStream, mkdtempSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { PostgresHandle } from '../../../db/index.js';
import { CATEGORIES, CATEGORIES_VERSION } from '../categories.js';
import { distanceKm } from '../geo.js';
import { GrowableIds } from '../import/node-store.js';
import type { OsmType } from '../import/types.js';
import * as sources from './postgis-sources.js';
import { emptyKnown } from './sqlite-sources.js';
import type { PlaceRecord, Wheelchair } from '../osm.js';
import { cardOf, type PlaceCard } from './cards.js';
import { nodeCopy } from './node-copy.js';
import { inTransaction } from './pg-transaction.js';
import { PLACE_COLUMNS as WRITTEN_COLUMNS, placeRow, searchPlan, storedMask, updateOnConflict } from './columns.js';
import type {
  ChangePlan, ChangeWrites, ImportWriter, LiveArea, Nearby, OwnPlace, PlaceIndex, PlaceShape, PlaceType, SourceState, SourceSummary, StoredPlace, WriteResult,
} from './types.js';

/** PostGIS's sphere and ours differ by far less than this (km): margin when cutting a scan. */
const EPSILON_KM = 1e-5;

const PLACE_COLUMNS = `p.id, p.osm_type, p.osm_id, p.lat, p.lon, p.categories, p.name, p.names, p.address, p.phone,
  p.website, p.opening_hours, p.wheelchair, p.country, p.timezone, p.source, p.fetched_at`;

const POINT = 'st_setsrid(st_makepoint($1, $2), 4326)::geography';

interface PlaceRow {
  id: number;
  osm_type: PlaceType;
  osm_id: number;
  lat: number;
  lon: number;
  categories: number;
  name: string | null;
  names: string | null;
  address: string | null;
  phone: string | null;
  website: string | null;
  opening_hours: string | null;
  wheelchair: Wheelchair | null;
  country: string | null;
  timezone: string | null;
  source: StoredPlace['source'];
  fetched_at: number;
}

function fromRow(row: PlaceRow): StoredPlace {
  return {
    id: row.id,
    osmType: row.osm_type,
    osmId: row.osm_id,
    lat: row.lat,
    lon: row.lon,
    categories: row.categories,
    name: row.name,
    names: row.names ? (JSON.parse(row.names) as Record<string, string>) : null,
    address: row.address,
    phone: row.phone,
    website: row.website,
    openingHours: row.opening_hours,
    wheelchair: row.wheelchair,
    country: row.country,
    timezone: row.timezone,
    source: row.source,
    fetchedAt: row.fetched_at,
  };
}

/** The nearest-candidates query for a category mask, with $1 lon, $2 lat, $3 radius (m), $4 how many. */
function candidatesQuery(mask: number): { text: string; params: number[] } {
  const { own, broad } = searchPlan(mask);
  if (broad) {
    return {
      text: `select ${PLACE_COLUMNS}, p.geog <-> ${POINT} as d from places p
        where (p.categories & $5::bigint) <> 0 and st_dwithin(p.geog, ${POINT}, $3, false)
        order by p.geog <-> ${POINT} limit $4`,
      params: [mask],
    };
  }
  // One ordered index scan per category, merged; a place in two of them counts once.
  const scans = own.map(
    (_, k) => `(select place_id, geog <-> ${POINT} as d from place_categories
      where category = $${5 + k} and st_dwithin(geog, ${POINT}, $3, false) order by geog <-> ${POINT} limit $4)`,
  );
  return {
    text: `select ${PLACE_COLUMNS}, n.d from (
        select place_id, min(d) as d from (${scans.join(' union all ')}) u group by place_id order by d limit $4
      ) n join places p on p.id = n.place_id`,
    params: own,
  };
}

/**
 * PlaceIndex.nearest's answer from PostGIS itself, through `query` (a pool, or a client in a
 * transaction): candidates come in PostGIS's order, the same haversine (geo.ts) as the grid's
 * measures, filters and orders them, and the scan widens until the `limit`-th accepted place is
 * surely nearer than anything not yet read.
 */
export async function postgisNearest(
  query: pg.Pool['query'], lat: number, lon: number, radiusKm: number, mask: number, limit: number, accept: (place: PlaceCard) => boolean = () => true,
): Promise<Nearby[]> {
  const { text, params } = candidatesQuery(mask);
  const verdicts = new Map<number, boolean>();
  // Enough for most searches in one round trip; more when open-now may turn many away.
  let wanted = limit + 16;
  for (;;) {
    const { rows } = await query<PlaceRow & { d: number }>(text, [lon, lat, radiusKm * 1000 + 1, wanted, ...params]);
    const accepted: Nearby[] = [];
    let farthest = 0;
    for (const row of rows) {
      farthest = Math.max(farthest, row.d / 1000);
      const distance = distanceKm(lat, lon, row.lat, row.lon);
      if (distance > radiusKm) continue;
      let verdict = verdicts.get(row.id);
      const place = cardOf(fromRow(row));
      if (verdict === undefined) verdicts.set(row.id, (verdict = accept(place)));
      if (verdict) accepted.push({ place, distanceKm: distance });
    }
    accepted.sort((a, b) => a.distanceKm - b.distanceKm || a.place.id - b.place.id);
    // Fewer rows than asked: everything within the radius was read.
    if (rows.length < wanted) return accepted.slice(0, limit);
    // Every place nearer than the farthest row read was read: done once the last one kept
    // is surely nearer than that.
    if (accepted.length >= limit && accepted[limit - 1].distanceKm < farthest - EPSILON_KM) return accepted.slice(0, limit);
    wanted *= 4;
  }
}

/** COPY text format: one field, escaped. */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  return String(value)
    .replace(/\0/g, '')
    .replace(/\\/g, '\\\\')
    .replace(/\t/g, '\\t')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r');
}


/**
 * The category rows of the places in `idsQuery` (a query of ids), rebuilt from their masks.
 * Exported for move-db, which copies `places` in bulk and rebuilds all of them.
 */
export async function rebuildCategoryRows(client: pg.PoolClient, idsQuery: string, params: unknown[] = []): Promise<void> {
  await client.query(`delete from place_categories where place_id in (${idsQuery})`, params);
  await client.query(
    `insert into place_categories (place_id, category, geog)
     select p.id, c.i, p.geog from places p cross join generate_series(0, ${CATEGORIES.length - 1}) as c(i)
     where p.id in (${idsQuery}) and (p.categories >> c.i) & 1 = 1`,
    params,
  );
}

async function recordCategoriesVersion(client: pg.PoolClient): Promise<void> {
  await client.query(
    `insert into places_meta (key, value) values ('categories_version', $1) on conflict (key) do update set value = excluded.value`,
    [CATEGORIES_VERSION],
  );
}

export class PostgisPlaceIndex implements PlaceIndex {
  readonly dialect = 'postgres';
  private readonly pool: pg.Pool;

  constructor(private readonly handle: PostgresHandle) {
    this.pool = handle.pool;
  }

  /**
   * One write transaction; once committed, this process's copy takes in what it logged at once
   * (other processes within a notification's time), so a search right after it sees it.
   */
  async write<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let txid: string | null = null;
    const result = await inTransaction(this.pool, async (client) => {
      const result = await work(client);
      txid = (await client.query<{ txid: string | null }>('select pg_current_xact_id_if_assigned()::text as txid')).rows[0].txid;
      return result;
    });
    if (txid !== null) await nodeCopy(this.handle).applyOwn(txid);
    return result;
  }

  async nearest(lat: number, lon: number, radiusKm: number, mask: number, limit: number, accept?: (place: PlaceCard) => boolean): Promise<Nearby[]> {
    return (await nodeCopy(this.handle).ready()).nearest(lat, lon, radiusKm, mask, limit, accept);
  }

  async nearestByName(lat: number, lon: number, radiusKm: number, mask: number, terms: string[], limit: number, accept?: (place: PlaceCard) => boolean): Promise<Nearby[]> {
    return (await nodeCopy(this.handle).ready()).nearestByName(lat, lon, radiusKm, mask, terms, limit, accept);
  }

  /** Loads this process's copy (node-copy.ts); a server calls it at start. */
  async load(): Promise<void> {
    await nodeCopy(this.handle).ready();
  }

  async getByOsmId(osmType: PlaceType, osmId: number): Promise<StoredPlace | null> {
    const { rows } = await this.pool.query<PlaceRow>(`select ${PLACE_COLUMNS} from places p where osm_type = $1 and osm_id = $2`, [osmType, osmId]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>('select count(*)::int as n from places');
    return rows[0].n;
  }

  async refreshCategoryMasks(): Promise<number> {
    const { rows } = await this.pool.query<{ value: string }>(`select value from places_meta where key = 'categories_version'`);
    if (rows[0]?.value === CATEGORIES_VERSION) return 0;
    return this.write(async (client) => {
      // Taken first: two processes starting together recompute once.
      await client.query('lock table places_meta in exclusive mode');
      const again = await client.query<{ value: string }>(`select value from places_meta where key = 'categories_version'`);
      if (again.rows[0]?.value === CATEGORIES_VERSION) return 0;
      let changed = 0;
      for (let after = 0; ; ) {
        const batch = await client.query<{ id: number; osm_type: string; categories: number; tags: string }>(
          'select p.id, p.osm_type, p.categories, t.tags from places p join place_tags t on t.id = p.id where p.id > $1 order by p.id limit 5000',
          [after],
        );
        if (batch.rows.length === 0) break;
        after = batch.rows[batch.rows.length - 1].id;
        const updates: [number, number][] = [];
        const removals: number[] = [];
        for (const row of batch.rows) {
          const mask = storedMask(row.osm_type, JSON.parse(row.tags));
          if (mask === row.categories) continue;
          if (mask === 0) removals.push(row.id);
          else updates.push([row.id, mask]);
        }
        changed += updates.length + removals.length;
        if (removals.length) await client.query('delete from places where id = any($1::int[])', [removals]);
        if (updates.length) {
          await client.query(
            'update places p set categories = u.mask from unnest($1::int[], $2::bigint[]) as u(id, mask) where p.id = u.id',
            [updates.map((u) => u[0]), updates.map((u) => u[1])],
          );
          await rebuildCategoryRows(client, 'select unnest($1::int[])', [updates.map((u) => u[0])]);
        }
      }
      await recordCategoriesVersion(client);
      return changed;
    });
  }

  importWriter(fetchedAt: number): ImportWriter {
    return new PostgisImportWriter(this.pool, fetchedAt, this);
  }

  async writeLive(places: PlaceRecord[], area: LiveArea, fetchedAt: number, expireBefore: number): Promise<WriteResult> {
    await this.refreshCategoryMasks();
    return this.write(async (client) => {
      const live = await sources.sourceId(client, 'live');
      const { ids, added, replaced } = await sources.upsertPlaces(client, places, 'overpass', live, fetchedAt);
      if (ids.length) await rebuildCategoryRows(client, 'select unnest($1::int[])', [ids]);
      await recordCategoriesVersion(client);
      await client.query('delete from overpass_fetches where fetched_at < $1', [expireBefore]);
      // with this transaction's id: a node that waited for this fetch applies exactly its places (liveCovered)
      await client.query('insert into overpass_fetches (lat, lon, radius_m, categories, fetched_at, txid) values ($1, $2, $3, $4, $5, pg_current_xact_id())', [
        area.lat, area.lon, area.radiusM, area.categories, fetchedAt,
      ]);
      return { added, replaced, removed: 0 };
    });
  }

  async listSources(): Promise<SourceSummary[]> {
    return sources.listSources(this.pool);
  }

  async getSource(name: string): Promise<SourceSummary | null> {
    return (await sources.listSources(this.pool, name))[0] ?? null;
  }

  async removeSource(name: string): Promise<number> {
    const removed = await this.write((client) => sources.removeSource(client, name));
    if (removed === -1) throw new RangeError(`no source named "${name}"`);
    if (removed === -2) throw new RangeError(`"${name}" cannot be removed: it holds the live fallback's or the admin's own places`);
    return removed;
  }

  async writeOwn(changes: { upsert: OwnPlace[]; remove: number[] }, fetchedAt: number): Promise<StoredPlace[]> {
    await this.refreshCategoryMasks();
    const ids = await this.write((client) => sources.writeOwn(client, changes, fetchedAt, rebuildCategoryRows));
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<PlaceRow>(`select ${PLACE_COLUMNS} from places p where p.id = any($1::int[])`, [ids]);
    const byId = new Map(rows.map((row) => [row.id, fromRow(row)]));
    return ids.map((id) => byId.get(id)!);
  }

  async listOwn(): Promise<StoredPlace[]> {
    const { rows } = await this.pool.query<PlaceRow>(`select ${PLACE_COLUMNS} from places p where p.osm_type = 'own' order by p.osm_id`);
    return rows.map(fromRow);
  }

  async applyChanges(plan: ChangePlan): Promise<ChangeWrites> {
    await this.refreshCategoryMasks();
    return this.write(async (client) => {
      // One change file at a time per database: the plan reads, then writes, what it read.
      await client.query(`select pg_advisory_xact_lock(hashtext('place-changes'))`);
      const known = emptyKnown();
      for (;;) {
        const step = plan(known);
        if ('need' in step) {
          await sources.lookup(client, step.need, known);
          continue;
        }
        await sources.writeChanges(client, step.writes, rebuildCategoryRows);
        return step.writes;
      }
    });
  }

  async liveCovered(lat: number, lon: number, radiusM: number, mask: number, since: number): Promise<boolean> {
    const { rows } = await this.pool.query<{ lat: number; lon: number; radius_m: number; txid: string | null }>(
      'select lat, lon, radius_m, txid::text as txid from overpass_fetches where fetched_at >= $1 and (categories & $2::bigint) = $2::bigint',
      [since, mask],
    );
    const covering = rows.filter((f) => distanceKm(lat, lon, f.lat, f.lon) * 1000 + radiusM <= f.radius_m + 1);
    // Another node's fetch: its places go into this process's copy before the search reads it.
    for (const txid of new Set(covering.map((f) => f.txid))) if (txid !== null) await nodeCopy(this.handle).applyOwn(txid);
    return covering.length > 0;
  }
}

/** Rows buffered before they are written to the staging file. */
const FILE_BATCH = 2000;

/** The staging files of an import, and the temp table each is copied into. */
const STAGED = {
  places: `place_staging (seq bigserial, ${WRITTEN_COLUMNS.split(',').map((c) => `${c.trim()} ${columnType(c.trim())}`).join(', ')}, tags text not null, version integer, source_name text not null)`,
  dropped: 'place_dropped (osm_type text not null, osm_id bigint not null)',
  nodes: 'place_shape_nodes (id bigint not null, lat double precision not null, lon double precision not null)',
  ways: 'place_shape_ways (id bigint not null, refs text not null)',
  relations: 'place_shape_relations (id bigint not null, members text not null)',
  feeds: 'place_shape_feeds (osm_type text not null, osm_id bigint not null, node_id bigint not null)',
} as const;
type Staged = keyof typeof STAGED;
const tableOf = (kind: Staged) => STAGED[kind].slice(0, STAGED[kind].indexOf(' '));
const columnsOf = (kind: Staged) =>
  STAGED[kind].slice(STAGED[kind].indexOf('(') + 1, -1).split(',').map((c) => c.trim().split(' ')[0]).filter((c) => c !== 'seq').join(', ');

/**
 * Stages an import's places (and what lets them follow their nodes) in files (COPY text format)
 * while the inputs are read, then loads them with COPY into temporary tables and merges them
 * into the index in one transaction.
 */
class PostgisImportWriter implements ImportWriter {
  private readonly dir = mkdtempSync(join(tmpdir(), 'places-stage-'));
  private readonly files = Object.fromEntries(
    Object.keys(STAGED).map((kind) => {
      const path = join(this.dir, `${kind}.tsv`);
      return [kind, { path, fd: openSync(path, 'w'), lines: [] as string[] }];
    }),
  ) as Record<Staged, { path: string; fd: number; lines: string[] }>;
  private readonly sources: SourceState[] = [];
  private finished = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly fetchedAt: number,
    private readonly index: PostgisPlaceIndex,
  ) {}

  private stage(kind: Staged, fields: unknown[]): void {
    const file = this.files[kind];
    file.lines.push(fields.map(copyField).join('\t'));
    if (file.lines.length >= FILE_BATCH) this.flush(kind);
  }

  private flush(kind: Staged): void {
    const file = this.files[kind];
    if (file.lines.length) writeSync(file.fd, `${file.lines.join('\n')}\n`);
    file.lines = [];
  }

  source(state: SourceState): void {
    this.sources.push(state);
  }

  add(place: PlaceRecord, shape: PlaceShape = {}): void {
    this.stage('places', [...placeRow(place), JSON.stringify(place.tags), shape.version ?? null, this.sources.at(-1)?.name ?? 'import']);
    if (shape.refs) this.stage('ways', [place.osmId, JSON.stringify(shape.refs)]);
    if (shape.members) this.stage('relations', [place.osmId, JSON.stringify(shape.members.map((m) => [m.type, m.ref]))]);
    for (const node of shape.nodes ?? []) this.stage('feeds', [place.osmType, place.osmId, node]);
  }

  async knownIds(): Promise<Record<OsmType, Float64Array>> {
    const read = async (type: OsmType) => {
      const ids = new GrowableIds('place ids');
      const result = await this.pool.query<[string]>({ text: 'select osm_id from places where osm_type = $1 order by osm_id', values: [type], rowMode: 'array' });
      for (const [id] of result.rows) ids.push(Number(id));
      return ids.sortedUnique();
    };
    return { node: await read('node'), way: await read('way'), relation: await read('relation') };
  }

  drop(osmType: OsmType, osmId: number): void {
    this.stage('dropped', [osmType, osmId]);
  }

  nodeLocation(id: number, lat: number, lon: number): void {
    this.stage('nodes', [id, lat, lon]);
  }

  wayNodes(id: number, refs: number[]): void {
    this.stage('ways', [id, JSON.stringify(refs)]);
  }

  private closeFiles(): void {
    for (const file of Object.values(this.files)) {
      try {
        closeSync(file.fd);
      } catch {
        // closed already
      }
    }
  }

  async commit(): Promise<WriteResult> {
    if (this.finished) throw new Error('import writer: already finished');
    try {
      for (const kind of Object.keys(STAGED) as Staged[]) this.flush(kind);
      this.closeFiles();
      await this.index.refreshCategoryMasks();
      return await this.index.write(async (client) => {
        for (const kind of Object.keys(STAGED) as Staged[]) {
          await client.query(`create temp table ${STAGED[kind]} on commit drop`);
          await pipeline(createReadStream(this.files[kind].path), client.query(copyFrom(`copy ${tableOf(kind)} (${columnsOf(kind)}) from stdin`)));
        }
        // seq: a later copy of the same object in the input wins.
        await client.query('delete from place_staging s using place_staging t where s.osm_type = t.osm_type and s.osm_id = t.osm_id and s.seq < t.seq');
        await client.query('create index on place_staging (osm_type, osm_id)');
        await client.query('analyze place_staging');

        // A re-imported source loses what the new file no longer has: those places go as dropped ones.
        // (A writer given no source puts its places in 'import' and removes nothing.)
        if (this.sources.length === 0) await sources.sourceId(client, 'import');
        for (const name of new Set(this.sources.map((source) => source.name))) {
          const id = await sources.sourceId(client, name);
          await client.query(`insert into place_dropped select osm_type, osm_id from places where source_id = $1 and osm_type <> 'own'`, [id]);
        }
        for (const state of this.sources) {
          await client.query(
            `update place_sources set kind = 'osm', replication_url = $1, sequence = $2, data_timestamp = $3, imported_at = $4, updated_at = null where name = $5`,
            [state.replicationUrl, state.sequence, state.dataTimestamp, this.fetchedAt, state.name],
          );
        }
        if (this.sources.length === 0) await client.query(`update place_sources set imported_at = $1 where name = 'import'`, [this.fetchedAt]);

        const staged = (await client.query<{ n: number }>('select count(*)::int as n from place_staging')).rows[0].n;
        const replaced = (await client.query<{ n: number }>('select count(*)::int as n from places p join place_staging s using (osm_type, osm_id)')).rows[0].n;
        // Objects now in no category leave the index (their tags and category rows with them).
        const removed = (
          await client.query(
            `delete from places p using (select distinct osm_type, osm_id from place_dropped) d where p.osm_type = d.osm_type and p.osm_id = d.osm_id
             and not exists (select 1 from place_staging s where s.osm_type = d.osm_type and s.osm_id = d.osm_id)`,
          )
        ).rowCount ?? 0;

        await client.query(
          `insert into places (${WRITTEN_COLUMNS}, source, fetched_at, version, source_id)
           select ${WRITTEN_COLUMNS.split(',').map((c) => `s.${c.trim()}`).join(', ')}, 'import', $1, s.version, ps.id
           from place_staging s join place_sources ps on ps.name = s.source_name ${updateOnConflict(true)}`,
          [this.fetchedAt],
        );
        const imported = 'select p.id from place_staging s join places p using (osm_type, osm_id)';
        await client.query(
          `insert into place_tags (id, tags) select p.id, s.tags from place_staging s join places p using (osm_type, osm_id)
           on conflict (id) do update set tags = excluded.tags`,
        );
        await rebuildCategoryRows(client, imported);

        // What lets the places follow their nodes later (change files).
        await client.query(`delete from place_nodes where place_id in (${imported})`);
        await client.query(
          `insert into place_nodes (node_id, place_id) select f.node_id, p.id from place_shape_feeds f join places p using (osm_type, osm_id) on conflict do nothing`,
        );
        await client.query(
          `insert into node_locations (id, lat, lon) select distinct on (id) id, lat, lon from place_shape_nodes
           on conflict (id) do update set lat = excluded.lat, lon = excluded.lon`,
        );
        await client.query(`insert into way_nodes (id, refs) select distinct on (id) id, refs from place_shape_ways on conflict (id) do update set refs = excluded.refs`);
        await client.query(
          `insert into relation_members (id, members) select distinct on (id) id, members from place_shape_relations on conflict (id) do update set members = excluded.members`,
        );
        await client.query('delete from node_locations n where not exists (select 1 from place_nodes p where p.node_id = n.id)');
        await recordCategoriesVersion(client);
        return { added: staged - replaced, replaced, removed };
      });
    } finally {
      this.dispose();
    }
  }

  async abort(): Promise<void> {
    if (this.finished) return;
    this.closeFiles();
    this.dispose();
  }

  private dispose(): void {
    this.finished = true;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function columnType(column: string): string {
  if (column === 'osm_id' || column === 'categories') return 'bigint';
  if (column === 'lat' || column === 'lon') return 'double precision';
  return 'text';
}
