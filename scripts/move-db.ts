// npm run move-db -- --to postgres://...: copies the SQLite site in force into an empty
// PostgreSQL database, in one transaction, and checks the copy (counts, a checksum of every row,
// media bytes, searches through both places indexes) before it commits and says so.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from '../db/sqlite-driver.js';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { checkDb, createDb, DatabaseSetupError, describePostgresUrl, migrate, type SqliteHandle } from '../db/index.js';
import { ConfigError, loadConfig, loadDotEnv, parseDatabaseUrl } from '../src/config.js';
import { MEDIA_CHUNK_SIZE } from '../src/media/database-store.js';
import { ALLOWED_MEDIA, UPLOAD_NAME } from '../src/media/store.js';
import { CATEGORIES, maskOf } from '../src/places/model/categories.js';
import { createPlaceStore } from '../src/places/store/index.js';
import { nearestByScan, type ScannedPlace } from '../src/places/search/reference.js';

const HELP = `Usage: npm run move-db -- --to <postgres://user:pass@host:port/db> [--media-store database|folder]

Copies the site in force (DATABASE_URL, which must be sqlite:<file>; a .env file may set it)
into an empty PostgreSQL database (15 or newer, with PostGIS), checks the copy, and only then
reports success. Stop the server first: what is written after the copy starts is not moved.
The SQLite file and UPLOAD_DIR are not changed.

In order:
  1. refuses a target that holds anything, naming what it holds (an empty database, or one a
     failed move left with the schema but no data, is fine)
  2. checks the target (reachable, version, PostGIS) and creates the schema (the migrations)
  3. takes a consistent snapshot of the SQLite file (SQLite's online backup)
  4. in one transaction: copies every table in foreign-key order (settings, admin users, ads,
     videos, plans, messages, visit counts, the audit log, places with their tags, the live
     source's cache...), keeping ids; moves every id sequence past the copied ids; puts the uploaded media into the target's
     media store
  5. still in it, checks: row counts and a checksum of every row per table, settings and
     admin users row by row, every media file's bytes, and 100 place searches (50 positions,
     two category sets) answered by the source's search as by a scan of the copied places,
     same places and distances
  6. commits and prints a summary; on any failure nothing is committed

Not copied: sessions (everyone logs in again: a copied session is a live credential in one
more place, and sessions end after 30 idle minutes anyway), the rate-limit and login-throttle
counters, and leases. All of them are short-lived.

Options:
  --to <url>             the target PostgreSQL database (required)
  --media-store <store>  where the uploads in UPLOAD_DIR go: database (the default, as
                         MEDIA_STORE is on PostgreSQL: into the target's media tables, served
                         by every node) or folder (left where they are: run the site with
                         MEDIA_STORE=folder and this UPLOAD_DIR, shared by every node)
  --help                 show this text

Afterwards set DATABASE_URL to the target (and MEDIA_STORE=folder if chosen) and start the
server.`;

/** A reason to stop that the user can act on: one line, no stack. */
class MoveError extends Error {}

/** The database media store's chunk size: every chunk but the last holds exactly this much. */
const MEDIA_CHUNK = MEDIA_CHUNK_SIZE;
/** Short-lived state, not moved (see HELP). */
const NOT_COPIED: Record<string, string> = {
  sessions: 'not copied (log in again)',
  rate_limits: 'not copied (counters)',
  leases: 'not copied (short-lived)',
  schema_migrations: 'created by the migrations',
  // SQLite's own; PostgreSQL's log is written by its own triggers
  place_changes: 'not copied (the change log of the places)',
  place_cards: "not copied (SQLite's prebuilt answers, made from the places)",
};
/**
 * Tables the migrations fill (a database left by a failed move holds these rows and is still
 * empty); the condition says when a row is only the migration's.
 */
const SEEDED: Record<string, string> = {
  schema_migrations: 'true',
  carousel: 'true',
  visit_counters: 'total_visits = 0 and last_reset is null',
  data_versions: 'true',
  place_sources: "name in ('live', 'own') and imported_at is null and updated_at is null",
};
/** The tables in the order they are copied: foreign keys decide first, this breaks ties. */
const PREFERRED_ORDER = [
  'settings',
  'admin_users',
  'ads',
  'background_videos',
  'carousel',
  'plans',
  'messages',
  'visit_counters',
  'visits_daily',
  'audit_log',
  'place_sources',
  'places',
  'place_tags',
  'overpass_fetches',
  'places_meta',
  'node_locations',
  'way_nodes',
  'relation_members',
  'place_nodes',
  'data_jobs',
  'media',
  'media_chunks',
  'data_versions',
];
const SEARCHES = 50;
const SEARCH_RADIUS_KM = 5;
const SEARCH_LIMIT = 20;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

interface Column {
  name: string;
  /** PostgreSQL's data_type */
  type: string;
}

interface TableResult {
  table: string;
  source: number | null;
  target: number | null;
  check: string;
}

// ---------------------------------------------------------------------------------------------
// Values: SQLite -> COPY text, and one normal form both sides are compared in.

function textField(value: string, where: string): string {
  if (value.includes('\0'))
    throw new MoveError(`${where}: a text value holds a NUL character, which PostgreSQL cannot store`);
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

function encoder(column: Column, table: string): (value: unknown) => string {
  const where = `${table}.${column.name}`;
  return (value) => {
    if (value === null || value === undefined) return '\\N';
    switch (column.type) {
      case 'bytea':
        return `\\\\x${Buffer.from(value as Uint8Array | string).toString('hex')}`;
      case 'boolean':
        return value ? 't' : 'f';
      case 'smallint':
      case 'integer':
      case 'bigint':
        if ((typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint') return String(value);
        throw new MoveError(`${where}: ${JSON.stringify(String(value)).slice(0, 40)} is not a whole number`);
      case 'double precision':
      case 'real':
      case 'numeric':
        if (typeof value === 'number') return String(value);
        return textField(String(value), where);
      default:
        return textField(typeof value === 'string' ? value : String(value), where);
    }
  };
}

/** A value as both engines should agree on it (SQLite's 0/1 for a boolean, bytes as hex). */
function normal(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'boolean') return value ? 1 : 0;
  if (value instanceof Uint8Array) return `x${Buffer.from(value).toString('hex')}`;
  if (typeof value === 'bigint') return Number(value);
  return value;
}

/** An order-free checksum of a table: the sum of each row's hash, with the row count. */
class TableDigest {
  count = 0;
  private sum = 0n;

  add(row: unknown[], columns: Column[]): void {
    const text = JSON.stringify(row.map((value, i) => normal(value, columns[i].type)));
    this.sum = (this.sum + createHash('sha256').update(text).digest().readBigUInt64BE(0)) & 0xffffffffffffffffn;
    this.count++;
  }

  equals(other: TableDigest): boolean {
    return this.count === other.count && this.sum === other.sum;
  }
}

// ---------------------------------------------------------------------------------------------
// The target

/** Tables, views... in the target that no extension owns: a database meant for us has none. */
async function userRelations(client: pg.Client): Promise<{ schema: string; name: string }[]> {
  const { rows } = await client.query<{ schema: string; name: string }>(
    `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p', 'v', 'm', 'f') and n.nspname not in ('pg_catalog', 'information_schema')
       and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
       and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
     order by 1, 2`,
  );
  return rows;
}

/** Why the target is not empty, or null: foreign tables by name, our tables by their rows. */
async function whyNotEmpty(client: pg.Client): Promise<string | null> {
  const relations = await userRelations(client);
  if (relations.length === 0) return null;
  const ours = relations.some((r) => r.schema === 'public' && r.name === 'schema_migrations');
  const foreign = relations.filter((r) => !ours || r.schema !== 'public');
  if (foreign.length) {
    const names = foreign.map((r) => (r.schema === 'public' ? r.name : `${r.schema}.${r.name}`));
    const listed = `${names.slice(0, 8).join(', ')}${names.length > 8 ? ', ...' : ''}`;
    return `it has ${names.length} table${names.length > 1 ? 's' : ''} that this site did not create: ${listed}`;
  }
  const withRows: string[] = [];
  for (const { name } of relations) {
    const condition = SEEDED[name] ? `not (${SEEDED[name]})` : 'true';
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from ${quote(name)} where ${condition}`,
    );
    if (rows[0].n > 0) withRows.push(`${name} (${rows[0].n} row${rows[0].n > 1 ? 's' : ''})`);
  }
  return withRows.length ? `it already holds a site: ${withRows.join(', ')}` : null;
}

async function targetColumns(client: pg.Client): Promise<Map<string, Column[]>> {
  const { rows } = await client.query<{ table_name: string; column_name: string; data_type: string }>(
    `select c.table_name, c.column_name, c.data_type from information_schema.columns c
     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
     where c.table_schema = 'public' and c.is_generated = 'NEVER' order by c.table_name, c.ordinal_position`,
  );
  const tables = new Map<string, Column[]>();
  for (const row of rows) {
    if (!tables.has(row.table_name)) tables.set(row.table_name, []);
    tables.get(row.table_name)!.push({ name: row.column_name, type: row.data_type });
  }
  return tables;
}

/** The tables in an order where every table comes after those its foreign keys point at. */
async function foreignKeyOrder(client: pg.Client, tables: string[]): Promise<string[]> {
  const { rows } = await client.query<{ child: string; parent: string }>(
    `select c.relname as child, p.relname as parent from pg_constraint k
     join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid join pg_namespace n on n.oid = c.relnamespace
     where k.contype = 'f' and n.nspname = 'public'`,
  );
  const rank = (t: string) => (PREFERRED_ORDER.includes(t) ? PREFERRED_ORDER.indexOf(t) : PREFERRED_ORDER.length);
  const pending = [...tables].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const ordered: string[] = [];
  while (pending.length) {
    const next = pending.findIndex((t) =>
      rows.every((fk) => fk.child !== t || fk.parent === t || !pending.includes(fk.parent)),
    );
    if (next < 0) throw new MoveError(`the foreign keys between ${pending.join(', ')} form a cycle`);
    ordered.push(...pending.splice(next, 1));
  }
  return ordered;
}

/** Reads a whole query through a cursor inside the open transaction, a batch at a time. */
async function* cursorRows(client: pg.Client, text: string): AsyncGenerator<unknown[]> {
  await client.query(`declare move_check no scroll cursor for ${text}`);
  try {
    for (;;) {
      const { rows } = await client.query<unknown[]>({ text: 'fetch forward 5000 from move_check', rowMode: 'array' });
      if (rows.length === 0) return;
      yield* rows;
    }
  } finally {
    await client.query('close move_check');
  }
}

// ---------------------------------------------------------------------------------------------
// The move

interface MoveOptions {
  source: SqliteHandle;
  client: pg.Client;
  uploadDir: string;
  mediaStore: 'database' | 'folder';
}

interface MediaFile {
  name: string;
  path: string;
  size: number;
  sha256: string;
}

async function copyTable(opts: MoveOptions, table: string, columns: Column[]): Promise<TableDigest> {
  const digest = new TableDigest();
  const encoders = columns.map((c) => encoder(c, table));
  const statement = opts.source.sqlite
    .prepare(`select ${columns.map((c) => quote(c.name)).join(', ')} from ${quote(table)}`)
    .raw();
  function* lines(): Generator<string> {
    let batch: string[] = [];
    let size = 0;
    for (const row of statement.iterate() as Iterable<unknown[]>) {
      digest.add(row, columns);
      const line = row.map((value, i) => encoders[i](value)).join('\t');
      batch.push(line);
      size += line.length;
      if (size >= 1 << 20) {
        yield `${batch.join('\n')}\n`;
        batch = [];
        size = 0;
      }
    }
    if (batch.length) yield `${batch.join('\n')}\n`;
  }
  const copy = opts.client.query(
    copyFrom(`copy ${quote(table)} (${columns.map((c) => quote(c.name)).join(', ')}) from stdin`),
  );
  try {
    await pipeline(Readable.from(lines()), copy);
  } catch (error) {
    if (error instanceof MoveError) throw error;
    throw new MoveError(`copying ${table}: ${(error as Error).message}`);
  }
  return digest;
}

async function targetDigest(client: pg.Client, table: string, columns: Column[]): Promise<TableDigest> {
  const digest = new TableDigest();
  for await (const row of cursorRows(
    client,
    `select ${columns.map((c) => quote(c.name)).join(', ')} from ${quote(table)}`,
  ))
    digest.add(row, columns);
  return digest;
}

/** Rows of a small table as sorted JSON lines, for a row-by-row comparison. */
function sortedRows(rows: unknown[][], columns: Column[]): string[] {
  return rows.map((row) => JSON.stringify(row.map((v, i) => normal(v, columns[i].type)))).sort();
}

function mediaFiles(dir: string): { files: MediaFile[]; ignored: string[] } {
  if (!existsSync(dir)) return { files: [], ignored: [] };
  const files: MediaFile[] = [];
  const ignored: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue; // uploads in progress, never served
    const path = join(dir, name);
    if (!UPLOAD_NAME.test(name) || !statSync(path).isFile()) {
      ignored.push(name);
      continue;
    }
    files.push({ name, path, size: 0, sha256: '' });
  }
  return { files, ignored };
}

/** Streams one file into media/media_chunks in MEDIA_CHUNK pieces (seq from 0). */
async function copyMediaFile(client: pg.Client, file: MediaFile): Promise<void> {
  const ext = file.name.split('.').pop();
  const mime = Object.values(ALLOWED_MEDIA).find((m) => m.ext === ext)!.serveAs;
  const handle = await open(file.path, 'r');
  try {
    const stat = await handle.stat();
    await client.query(
      'insert into media (name, mime, size, sha256, complete, created_at) values ($1, $2, $3, $4, 0, $5)',
      [file.name, mime, stat.size, '', Math.round(stat.mtimeMs)],
    );
    const hash = createHash('sha256');
    const buffer = Buffer.alloc(MEDIA_CHUNK);
    let position = 0;
    for (let seq = 0; ; seq++) {
      let filled = 0;
      while (filled < MEDIA_CHUNK) {
        const { bytesRead } = await handle.read(buffer, filled, MEDIA_CHUNK - filled, position + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled === 0) break;
      const chunk = buffer.subarray(0, filled);
      hash.update(chunk);
      await client.query('insert into media_chunks (name, seq, data) values ($1, $2, $3)', [
        file.name,
        seq,
        Buffer.from(chunk),
      ]);
      position += filled;
      if (filled < MEDIA_CHUNK) break;
    }
    file.size = position;
    file.sha256 = hash.digest('hex');
    await client.query('update media set size = $2, sha256 = $3, complete = 1 where name = $1', [
      file.name,
      file.size,
      file.sha256,
    ]);
  } finally {
    await handle.close();
  }
}

/** What the target's media tables hold for a file: size, stored hash and the hash of its chunks. */
async function storedMedia(
  client: pg.Client,
  name: string,
): Promise<{ size: number; sha256: string; actual: string; bytes: number } | null> {
  const head = await client.query<{ size: number; sha256: string; complete: number }>(
    'select size, sha256, complete from media where name = $1',
    [name],
  );
  if (!head.rows[0] || head.rows[0].complete !== 1) return null;
  const hash = createHash('sha256');
  let bytes = 0;
  let expected = 0;
  for await (const [seq, data] of cursorRows(
    client,
    `select seq, data from media_chunks where name = '${name.replace(/'/g, "''")}' order by seq`,
  ) as AsyncGenerator<[number, Buffer]>) {
    if (seq !== expected++) return null;
    hash.update(data);
    bytes += data.length;
  }
  return { size: head.rows[0].size, sha256: head.rows[0].sha256, actual: hash.digest('hex'), bytes };
}

async function fileSha256(path: string): Promise<{ size: number; sha256: string }> {
  const handle = await open(path, 'r');
  try {
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of handle.createReadStream()) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { size, sha256: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}

/**
 * Searches at sampled place positions: the source's own search against a scan of the places
 * copied to PostgreSQL (read through the open transaction, before it is committed); the first
 * difference, or null.
 */
async function compareSearches(opts: MoveOptions): Promise<{ searches: number; difference: string | null }> {
  const sqliteIndex = createPlaceStore(opts.source);
  const copied = (await opts.client.query<ScannedPlace>('select id, lat, lon, categories from places')).rows;
  const everything = maskOf(CATEGORIES.map((c) => c.id));
  const sample = opts.source.sqlite
    .prepare('select id, lat, lon, categories from places order by (id * 2654435761) % 4294967291 limit ?')
    .all(SEARCHES) as { id: number; lat: number; lon: number; categories: number }[];
  let searches = 0;
  for (const place of sample) {
    for (const mask of [place.categories, everything]) {
      const a = (await sqliteIndex.feed.reads()).nearest(place.lat, place.lon, SEARCH_RADIUS_KM, mask, SEARCH_LIMIT);
      const b = nearestByScan(copied, place.lat, place.lon, SEARCH_RADIUS_KM, mask, SEARCH_LIMIT);
      searches++;
      const left = a.map((n) => `${n.place.id}@${n.distanceKm}`).join(' ');
      const right = b.ids.map((id, i) => `${id}@${b.distances[i]}`).join(' ');
      if (left !== right) {
        return {
          searches,
          difference:
            `a search at ${place.lat},${place.lon} (mask ${mask}) answers ${a.length} places on SQLite ` +
            `and ${b.ids.length} on PostgreSQL, or not the same ones`,
        };
      }
    }
  }
  return { searches, difference: null };
}

async function move(opts: MoveOptions): Promise<{ results: TableResult[]; notes: string[] }> {
  const { client, source } = opts;
  const results: TableResult[] = [];
  const notes: string[] = [];
  const fail = (message: string): never => {
    throw new MoveError(message);
  };

  const sourceTables = source.sqlite
    .prepare("select name, sql from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\'")
    .all() as {
    name: string;
    sql: string | null;
  }[];
  const virtual = sourceTables.filter((t) => /^create virtual table/i.test(t.sql ?? '')).map((t) => t.name);
  // Virtual tables (the name index) and their shadow tables are SQLite's own.
  const sqliteOnly = (name: string) => virtual.some((v) => name === v || name.startsWith(`${v}_`));
  const sourceNames = new Set(sourceTables.map((t) => t.name).filter((n) => !sqliteOnly(n)));
  const sourceCount = (table: string) =>
    source.sqlite
      .prepare(`select count(*) from ${quote(table)}`)
      .pluck()
      .get() as number;

  // The code's migrations ran on both: the same list, or the source is from a newer version.
  const migrations = (db: string[]) => db.sort().join(',');
  const sourceMigrations = source.sqlite.prepare('select name from schema_migrations').pluck().all() as string[];
  const targetMigrations = (await client.query<{ name: string }>('select name from schema_migrations')).rows.map(
    (r) => r.name,
  );
  if (migrations(sourceMigrations) !== migrations(targetMigrations)) {
    fail(
      `the SQLite site has migrations this version of the app does not know ` +
        `(${sourceMigrations.filter((m) => !targetMigrations.includes(m)).join(', ')}); update the app first`,
    );
  }

  const columnsByTable = await targetColumns(client);
  const copied = [...columnsByTable.keys()].filter((t) => sourceNames.has(t) && !(t in NOT_COPIED));
  const order = await foreignKeyOrder(client, copied);
  // AUTOINCREMENT's high-water marks: ids of rows deleted since are not handed out again.
  const hasSequences =
    source.sqlite.prepare("select 1 from sqlite_master where name = 'sqlite_sequence'").get() !== undefined;
  const sequenceFloor = new Map<string, number>(
    hasSequences
      ? (source.sqlite.prepare('select name, seq from sqlite_sequence').all() as { name: string; seq: number }[]).map(
          (r) => [r.name, r.seq],
        )
      : [],
  );

  // The rows the migrations put in (a carousel flag, zeroed counters...) give way to the site's.
  for (const table of order) if (SEEDED[table]) await client.query(`delete from ${quote(table)}`);

  const digests = new Map<string, { columns: Column[]; digest: TableDigest }>();
  for (const table of order) {
    const sourceColumns = new Set(
      (source.sqlite.prepare(`pragma table_info(${quote(table)})`).all() as { name: string }[]).map((c) => c.name),
    );
    const targetOnly = columnsByTable.get(table)!.filter((c) => !sourceColumns.has(c.name));
    const columns = columnsByTable.get(table)!.filter((c) => sourceColumns.has(c.name));
    const lost = [...sourceColumns].filter((name) => !columnsByTable.get(table)!.some((c) => c.name === name));
    if (lost.length)
      notes.push(
        `${table}: the SQLite column${lost.length > 1 ? 's' : ''} ${lost.join(', ')} ` +
          `ha${lost.length > 1 ? 've' : 's'} no place on PostgreSQL`,
      );
    if (targetOnly.length) notes.push(`${table}: ${targetOnly.map((c) => c.name).join(', ')} take their defaults`);
    progress(`copying ${table}`);
    digests.set(table, { columns, digest: await copyTable(opts, table, columns) });
  }

  // ---- The checks, inside the transaction: any failure and nothing is committed. The tables
  // first, as copied; then the media files go in, and are checked in turn.
  progress('checking');
  for (const table of order) {
    const { columns, digest } = digests.get(table)!;
    const copy = await targetDigest(client, table, columns);
    if (copy.count !== digest.count) fail(`${table}: ${digest.count} rows in SQLite but ${copy.count} in the copy`);
    if (!copy.equals(digest)) fail(`${table}: the copied rows differ from SQLite's (checksum)`);
    let check = 'same rows';
    if (table === 'settings' || table === 'admin_users') {
      const list = columns.map((c) => quote(c.name)).join(', ');
      const a = sortedRows(
        source.sqlite
          .prepare(`select ${list} from ${quote(table)}`)
          .raw()
          .all() as unknown[][],
        columns,
      );
      const b = sortedRows(
        (await client.query<unknown[]>({ text: `select ${list} from ${quote(table)}`, rowMode: 'array' })).rows,
        columns,
      );
      if (a.join('\n') !== b.join('\n')) fail(`${table}: the copied rows differ from SQLite's`);
      check = 'same rows, compared one by one';
    }
    results.push({ table, source: digest.count, target: copy.count, check });
  }
  for (const [table, why] of Object.entries(NOT_COPIED)) {
    if (table === 'schema_migrations' || !sourceNames.has(table)) continue;
    results.push({ table, source: sourceCount(table), target: null, check: why });
  }
  for (const name of sourceNames) {
    if (!columnsByTable.has(name) && !(name in NOT_COPIED)) {
      const n = sourceCount(name);
      if (n > 0) fail(`${name}: ${n} rows in SQLite and no such table on PostgreSQL`);
    }
  }

  // Media files into the database store (unless they stay in the folder).
  const { files, ignored } = mediaFiles(opts.uploadDir);
  if (ignored.length)
    notes.push(
      `${opts.uploadDir}: not uploads, left alone: ${ignored.slice(0, 5).join(', ')}${ignored.length > 5 ? ', ...' : ''}`,
    );
  const inDatabase = new Set<string>(
    order.includes('media') ? (source.sqlite.prepare('select name from media').pluck().all() as string[]) : [],
  );
  const toStore = opts.mediaStore === 'database' ? files.filter((f) => !inDatabase.has(f.name)) : [];
  if (opts.mediaStore === 'database' && files.length && !columnsByTable.has('media'))
    fail('the target has no media tables to store the uploads in');
  for (const file of toStore) {
    progress(`storing ${file.name}`);
    await copyMediaFile(client, file);
  }

  // Sequences past every copied id (and past ids SQLite handed out to rows deleted since).
  const identities = await client.query<{ table_name: string; column_name: string; seq: string }>(
    `select table_name, column_name, pg_get_serial_sequence(format('%I.%I', table_schema, table_name), column_name) as seq
     from information_schema.columns where table_schema = 'public' and (is_identity = 'YES' or column_default like 'nextval(%')`,
  );
  const nextIds = new Map<string, number>();
  for (const { table_name: table, column_name: column, seq } of identities.rows) {
    if (!seq) continue;
    const { rows } = await client.query<{ next: number }>(
      `select setval($1, greatest(coalesce(max(${quote(column)}), 0), $2::bigint) + 1, false) as next from ${quote(table)}`,
      [seq, sequenceFloor.get(table) ?? 0],
    );
    nextIds.set(table, rows[0].next);
  }
  for (const result of results) if (nextIds.has(result.table)) result.check += `; next id ${nextIds.get(result.table)}`;

  progress('analyzing');
  await client.query('analyze');

  if (order.includes('places')) {
    const { searches, difference } = await compareSearches(opts);
    if (difference) fail(difference);
    results.push({
      table: 'place searches',
      source: searches,
      target: searches,
      check: searches ? 'same places, same distances' : 'no places to search',
    });
  }

  if (opts.mediaStore === 'database') {
    for (const file of toStore) {
      const stored = await storedMedia(client, file.name);
      const onDisk = await fileSha256(file.path);
      if (
        !stored ||
        stored.bytes !== onDisk.size ||
        stored.size !== onDisk.size ||
        stored.actual !== onDisk.sha256 ||
        stored.sha256 !== onDisk.sha256
      ) {
        fail(`media ${file.name}: the stored copy differs from the file`);
      }
    }
    results.push({
      table: 'media files',
      source: files.length,
      target: toStore.length + files.filter((f) => inDatabase.has(f.name)).length,
      check: `same bytes, in the database store`,
    });
  } else {
    for (const file of files) await fileSha256(file.path); // readable, all of it
    results.push({
      table: 'media files',
      source: files.length,
      target: null,
      check: `left in ${opts.uploadDir} (MEDIA_STORE=folder)`,
    });
  }
  return { results, notes };
}

let progress: (text: string) => void = () => {};

function formatTable(results: TableResult[]): string {
  const show = (n: number | null) => (n === null ? '-' : String(n));
  const width = Math.max(...results.map((r) => r.table.length), 5);
  const head = `${'table'.padEnd(width)}  ${'SQLite'.padStart(8)}  ${'PostgreSQL'.padStart(10)}  check`;
  const lines = results.map(
    (r) => `${r.table.padEnd(width)}  ${show(r.source).padStart(8)}  ${show(r.target).padStart(10)}  ${r.check}`,
  );
  return [head, ...lines].join('\n');
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  let to: string | undefined;
  let mediaStore: 'database' | 'folder' = 'database';
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split(/=(.*)/s, 2);
    const value = () => inline ?? args[++i];
    if (flag === '--to') to = value();
    else if (flag === '--media-store') {
      const v = value();
      if (v !== 'database' && v !== 'folder') {
        console.error('move-db: --media-store takes database or folder');
        return 2;
      }
      mediaStore = v;
    } else {
      console.error(`move-db: unknown argument ${args[i]} (see --help)`);
      return 2;
    }
  }
  if (!to) {
    console.error('move-db: give the target with --to postgres://user:pass@host:port/db (see --help)');
    return 2;
  }
  const target = parseDatabaseUrl(to);
  if (target?.kind !== 'postgres') {
    console.error('move-db: --to must be a PostgreSQL URL, postgres://user:pass@host:port/db');
    return 2;
  }

  loadDotEnv();
  const config = loadConfig();
  if (config.database.kind !== 'sqlite') {
    console.error(
      `move-db: the site in force (DATABASE_URL) is already on PostgreSQL ` +
        `(${describePostgresUrl(config.database.url)}); ` +
        'move-db copies an SQLite site (DATABASE_URL=sqlite:<file>) into PostgreSQL',
    );
    return 2;
  }
  const sourcePath = config.database.path;
  if (!existsSync(sourcePath)) {
    console.error(`move-db: no SQLite database at ${sourcePath} (DATABASE_URL)`);
    return 1;
  }
  const where = describePostgresUrl(target.url);
  if (process.stderr.isTTY) progress = (text) => process.stderr.write(`\r\x1b[K${text}...`);
  const started = performance.now();

  const handle = createDb(target, { poolSize: 2 });
  const client = new pg.Client({ connectionString: target.url, application_name: 'nearby-place-finder move-db' });
  // A connection that drops is reported by the query that fails; this keeps it from killing us.
  client.on('error', () => {});
  const dir = mkdtempSync(join(tmpdir(), 'move-db-'));
  let snapshot: SqliteHandle | null = null;
  try {
    try {
      await client.connect();
    } catch (error) {
      const e = error as { code?: string; message?: string };
      throw new DatabaseSetupError(`cannot reach PostgreSQL at ${where} (${e.code ?? e.message ?? 'no answer'})`);
    }
    // Looked at before anything is created in it (checkDb may add extensions).
    const why = await whyNotEmpty(client);
    if (why) {
      console.error(
        `move-db: the target ${where} is not empty: ${why}. Nothing was changed; give an empty database (CREATE DATABASE ...).`,
      );
      return 1;
    }
    await checkDb(handle);
    await migrate(handle);

    // A consistent copy of the live file, brought to this version's schema (the site's own
    // file is not touched).
    progress('taking a snapshot');
    const live = new SQLite(sourcePath, { readonly: true, fileMustExist: true });
    live.pragma('busy_timeout = 5000');
    try {
      await live.backup(join(dir, 'snapshot.db'));
    } finally {
      live.close();
    }
    const snapshotAt = new Date();
    snapshot = createDb({ kind: 'sqlite', path: join(dir, 'snapshot.db') }) as SqliteHandle;
    await migrate(snapshot);

    await client.query('begin');
    let outcome: Awaited<ReturnType<typeof move>>;
    try {
      outcome = await move({ source: snapshot, client, uploadDir: config.uploadDir, mediaStore });
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    }
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`Moved ${sourcePath} (as of ${snapshotAt.toISOString()}) to ${where} in ${seconds} s, checked:\n`);
    console.log(formatTable(outcome.results));
    for (const note of outcome.notes) console.log(`note: ${note}`);
    console.log(
      `\nNext: set DATABASE_URL to the target` +
        `${mediaStore === 'folder' ? `, MEDIA_STORE=folder and UPLOAD_DIR=${config.uploadDir}` : ''}, ` +
        `and start the server. Everyone logs in again.`,
    );
    return 0;
  } catch (error) {
    if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
    if (error instanceof DatabaseSetupError) {
      console.error(`move-db: ${error.message.replace(/^DATABASE_URL: /, '--to: ')}`);
      return 1;
    }
    const message = error instanceof MoveError ? error.message : `${(error as Error).message ?? String(error)}`;
    console.error(`move-db: failed, nothing was committed to ${where}: ${message}`);
    return 1;
  } finally {
    await client.end().catch(() => {});
    await handle.close();
    await snapshot?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : `move-db: ${String(error)}`);
    process.exitCode = 1;
  },
);
