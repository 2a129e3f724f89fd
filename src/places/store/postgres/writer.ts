// The PostgreSQL store's import writer: stages an import's places (and what lets them follow
// their nodes) in files (COPY text format) while the inputs are read, then loads them with COPY
// into temporary tables and merges them into the places in one transaction.
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { PlaceRecord } from '../../model/osm.js';
import type { OsmType } from '../../model/osm.js';
import { PLACE_COLUMNS as WRITTEN_COLUMNS, placeRow, updateOnConflict } from '../rows.js';
import type { ImportWriter, PlaceShape, SourceState, WriteResult, Written } from '../types.js';
import {
  addressPlans,
  derivePlaces,
  keptAddressParts,
  placesNotStaged,
  STAGED_ADDRESS,
  stagedPlaces,
  type AddressSummary,
  type AddressUpdate,
} from '../addresses.js';
import * as sources from './sources.js';
import { recordCategoriesVersion } from './sources.js';

/** What the writer needs of its store: the masks brought up to date, one write transaction, reads. */
export interface StoreWrites {
  refreshCategoryMasks(): Promise<unknown>;
  write<T extends object>(work: (client: pg.PoolClient) => Promise<T>): Promise<T & Written>;
  pool: pg.Pool;
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

/** The read timeout of the commit's statements: a day, where requests get 30 s. */
const BULK_TIMEOUT_MS = 24 * 3600 * 1000;

/** Rows buffered before they are written to the staging file. */
const FILE_BATCH = 2000;

/** The staging files of an import, and the temp table each is copied into. */
const STAGED = {
  places: `place_staging (seq bigserial, ${WRITTEN_COLUMNS.split(',')
    .map((c) => `${c.trim()} ${columnType(c.trim())}`)
    .join(', ')}, tags text not null, version integer, source_name text not null)`,
  dropped: 'place_dropped (osm_type text not null, osm_id bigint not null)',
  nodes: 'place_shape_nodes (id bigint not null, lat double precision not null, lon double precision not null)',
  ways: 'place_shape_ways (id bigint not null, refs text not null)',
  relations: 'place_shape_relations (id bigint not null, members text not null)',
  feeds: 'place_shape_feeds (osm_type text not null, osm_id bigint not null, node_id bigint not null)',
} as const;
type Staged = keyof typeof STAGED;
const tableOf = (kind: Staged) => STAGED[kind].slice(0, STAGED[kind].indexOf(' '));
const columnsOf = (kind: Staged) =>
  STAGED[kind]
    .slice(STAGED[kind].indexOf('(') + 1, -1)
    .split(',')
    .map((c) => c.trim().split(' ')[0])
    .filter((c) => c !== 'seq')
    .join(', ');

export class PostgresImportWriter implements ImportWriter {
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
    private readonly fetchedAt: number,
    private readonly store: StoreWrites,
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

  /** (PostgreSQL derives the addresses in its commit) */
  derivingAddresses(): void {}

  source(state: SourceState): void {
    this.sources.push(state);
  }

  add(place: PlaceRecord, shape: PlaceShape = {}): void {
    this.stage('places', [
      ...placeRow(place),
      JSON.stringify(place.tags),
      shape.version ?? null,
      this.sources.at(-1)?.name ?? 'import',
    ]);
    if (shape.refs) this.stage('ways', [place.osmId, JSON.stringify(shape.refs)]);
    if (shape.members)
      this.stage('relations', [place.osmId, JSON.stringify(shape.members.map((m) => [m.type, m.ref]))]);
    for (const node of shape.nodes ?? []) this.stage('feeds', [place.osmType, place.osmId, node]);
  }

  async knownIds(): Promise<Record<OsmType, Float64Array>> {
    const read = async (type: OsmType) => {
      const query = {
        text: 'select osm_id from places where osm_type = $1 order by osm_id',
        values: [type],
        rowMode: 'array' as const,
      };
      return Float64Array.from((await this.store.pool.query<[string]>(query)).rows, ([id]) => Number(id));
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

  async commit(addresses: AddressUpdate[] = []): Promise<WriteResult & Written & { addresses: AddressSummary | null }> {
    if (this.finished) throw new Error('import writer: already finished');
    try {
      for (const kind of Object.keys(STAGED) as Staged[]) this.flush(kind);
      this.closeFiles();
      await this.store.refreshCategoryMasks();
      return await this.store.write(async (client) => {
        // A country's statements run for minutes: no read timeout here (the pool's is for requests).
        // (query_timeout per query: pg reads it, its types do not list it)
        const query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
          client.query<R>({ text, values, query_timeout: BULK_TIMEOUT_MS } as pg.QueryConfig);
        for (const kind of Object.keys(STAGED) as Staged[]) {
          await query(`create temp table ${STAGED[kind]} on commit drop`);
          const copy = Object.assign(copyFrom(`copy ${tableOf(kind)} (${columnsOf(kind)}) from stdin`), {
            query_timeout: BULK_TIMEOUT_MS,
          });
          await pipeline(createReadStream(this.files[kind].path), client.query(copy));
        }
        // seq: a later copy of the same object in the input wins.
        await query(
          'delete from place_staging s using place_staging t where s.osm_type = t.osm_type and s.osm_id = t.osm_id and s.seq < t.seq',
        );
        await query('create index on place_staging (osm_type, osm_id)');
        await query('create unique index on place_staging (seq)');
        await query('analyze place_staging');

        // A re-imported source loses what the new file no longer has: those places go as dropped ones.
        // (A writer given no source puts its places in 'import' and removes nothing.)
        if (this.sources.length === 0) await sources.sourceId(client, 'import');
        for (const name of new Set(this.sources.map((source) => source.name))) {
          const id = await sources.sourceId(client, name);
          await query(
            `insert into place_dropped select osm_type, osm_id from places where source_id = $1 and osm_type <> 'own'`,
            [id],
          );
        }
        for (const state of this.sources) {
          await query(
            `update place_sources set kind = 'osm', replication_url = $1, sequence = $2, data_timestamp = $3,
             imported_at = $4, updated_at = null where name = $5`,
            [state.replicationUrl, state.sequence, state.dataTimestamp, this.fetchedAt, state.name],
          );
        }
        if (this.sources.length === 0)
          await query(`update place_sources set imported_at = $1 where name = 'import'`, [this.fetchedAt]);

        const staged = (await query<{ n: number }>('select count(*)::int as n from place_staging')).rows[0].n;
        const replaced = (
          await query<{ n: number }>(
            'select count(*)::int as n from places p join place_staging s using (osm_type, osm_id)',
          )
        ).rows[0].n;
        // Objects now in no category leave the index (their tags with them).
        const removed =
          (
            await query(
              `delete from places p using (select distinct osm_type, osm_id from place_dropped) d
             where p.osm_type = d.osm_type and p.osm_id = d.osm_id
             and not exists (select 1 from place_staging s where s.osm_type = d.osm_type and s.osm_id = d.osm_id)`,
            )
          ).rowCount ?? 0;

        // The context first, and the staged places' addresses from it, so that each place is
        // written into the index once, with its address. One at a time with change files: the
        // address plan reads, then writes, what it read.
        await query(
          'create temp table place_staging_addresses (id bigint primary key, address text, address_source text, address_parts text) on commit drop',
        );
        let derived: AddressSummary | null = null;
        if (addresses.length) {
          await client.query(`select pg_advisory_xact_lock(hashtext('place-changes'))`);
          const stagedSet = stagedPlaces('place_staging', 'seq', 'place_staging_addresses');
          derived = await sources.runPlanOn(
            client,
            addressPlans(addresses.map((update) => ({ ...update, places: stagedSet }))),
          );
        }
        // (a writer given no addresses leaves address_source alone)
        const addressSource = derived
          ? ['address_source, address_parts, ', 'a.address_source, a.address_parts, ']
          : ['', ''];
        await query(
          `insert into places (${WRITTEN_COLUMNS}, ${addressSource[0]}source, fetched_at, version, source_id)
           select ${WRITTEN_COLUMNS.split(',')
             .map((c) => (c.trim() === 'address' ? STAGED_ADDRESS : `s.${c.trim()}`))
             .join(', ')}, ${addressSource[1]}'import', $1, s.version, ps.id
           from place_staging s join place_sources ps on ps.name = s.source_name
           left join place_staging_addresses a on a.id = s.seq ${updateOnConflict(true, derived !== null)}`,
          [this.fetchedAt],
        );
        const imported = 'select p.id from place_staging s join places p using (osm_type, osm_id)';
        await query(
          `insert into place_tags (id, tags) select p.id, s.tags from place_staging s join places p using (osm_type, osm_id)
           on conflict (id) do update set tags = excluded.tags`,
        );

        // What lets the places follow their nodes later (change files).
        await query(`delete from place_nodes where place_id in (${imported})`);
        await query(
          `insert into place_nodes (node_id, place_id) select f.node_id, p.id from place_shape_feeds f
           join places p using (osm_type, osm_id) on conflict do nothing`,
        );
        await query(
          `insert into node_locations (id, lat, lon) select distinct on (id) id, lat, lon from place_shape_nodes
           on conflict (id) do update set lat = excluded.lat, lon = excluded.lon`,
        );
        await query(
          `insert into way_nodes (id, refs) select distinct on (id) id, refs from place_shape_ways
           on conflict (id) do update set refs = excluded.refs`,
        );
        await query(
          `insert into relation_members (id, members) select distinct on (id) id, members
           from place_shape_relations on conflict (id) do update set members = excluded.members`,
        );
        await query(
          'delete from node_locations n where not exists (select 1 from place_nodes p where p.node_id = n.id)',
        );
        await recordCategoriesVersion(client);
        // The places of the index this import did not bring (other sources) are within reach of its context too.
        // Then every place's address parts are kept (an index migrated without them has them now).
        if (derived) {
          const indexed = (await query<{ n: number }>(`select count(*)::int as n from places where osm_type <> 'own'`))
            .rows[0].n;
          if (indexed > staged)
            await sources.runPlanOn(client, derivePlaces(placesNotStaged('place_staging'), derived));
          await sources.runPlanOn(client, keptAddressParts());
        }
        return { added: staged - replaced, replaced, removed, addresses: derived };
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
