// On PostgreSQL, this process's own copy of what searches read: the same grid as on
// SQLite (grid.ts), and the places' cards and name index in a private SQLite file, read by the
// same code (local-reads.ts), so a search, by category or by name, never asks the database
// server anything.
//
// - Load: one REPEATABLE READ transaction streams every place with COPY (never the whole result
//   at once): positions and categories into the grid's columns, cards into the file. The log's
//   cursor starts at that snapshot's xmin: what committed below it is in the copy, what was
//   running then may be in it or not, and is applied again (applying is idempotent: a changed
//   place's current row is read and put in, or its absence takes it out).
// - Follow: the `place_changes` log of db/migrations/0008, read below the snapshot's xmin by the
//   cursor (txid, id), so a transaction that commits after a later one is never skipped (the
//   migration says why). Woken by LISTEN (one notification per writing transaction) on a
//   connection of its own, and by a poll every 5 s, so a lost notification or connection only
//   delays; after a reconnection it catches up by the cursor.
// - Falls behind: more than RELOAD_AFTER changes to read, or no catch-up for BEHIND_MS (the log
//   may have been pruned past it): it loads again beside the copy it serves, then swaps.
// - Its own writes show at once: after a write of this process, the places its transaction
//   logged are read (applyOwn), without waiting for other transactions to end.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from '../../../../db/sqlite-driver.js';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { PostgresHandle } from '../../../../db/index.js';
import type { DerivedSource, Wheelchair } from '../../model/osm.js';
import { cardJson } from '../../search/cards.js';
import { placeColumns } from '../../search/grid.js';
import { RELOAD_AFTER, type ChangePosition } from '../../search/change-feed.js';
import { LocalReads, namesText } from '../../search/local-reads.js';
import { inTransaction } from './transaction.js';
import type { PlaceType } from '../types.js';

/** The channel the triggers of migration 0008 notify. */
const CHANNEL = 'place_changes';
/** The poll that catches what a lost notification would have told. */
const POLL_MS = 5_000;
/** What every transaction finished this long ago wrote to the log is pruned... */
const KEEP_MS = 60 * 60 * 1000;
/** ...so a process whose last catch-up is older than this loads again (KEEP_MS, less a margin). */
const BEHIND_MS = 50 * 60 * 1000;
/** How often a process prunes (and remembers the xmin it will prune by, KEEP_MS later). */
const PRUNE_EVERY_MS = 5 * 60 * 1000;
/** Cards written to the file per local transaction while loading. */
const LOAD_BATCH = 5_000;

/** What the copy reads of a place, in this order (COPY's fields, or a query's rows as arrays). */
const COLUMNS = `id, lat, lon, categories, osm_type, osm_id, address, phone, website, opening_hours, wheelchair, name,
  names, country, timezone, address_source`;
type Fields = unknown[];

/** A place's card row (CARD_ROWS_SQL's columns), as migration 0007's triggers write it on SQLite. */
function cardRow(f: Fields): unknown[] {
  const openingHours = f[9] as string | null;
  const json = cardJson({
    osmType: f[4] as PlaceType,
    osmId: Number(f[5]),
    address: f[6] as string | null,
    addressSource: f[15] as DerivedSource | null,
    phone: f[7] as string | null,
    website: f[8] as string | null,
    openingHours,
    wheelchair: f[10] as Wheelchair | null,
  });
  const hours = openingHours !== null;
  return [Number(f[0]), json, f[11], f[12], openingHours, hours ? f[13] : null, hours ? f[14] : null];
}

const UNESCAPED: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** One line of COPY's text format: its fields, `\N` as null, backslash escapes undone. */
function copyFields(line: string): (string | null)[] {
  return line.split('\t').map((field) => {
    if (field === '\\N') return null;
    return field.includes('\\') ? field.replace(/\\(.)/g, (_, c: string) => UNESCAPED[c] ?? c) : field;
  });
}

/** The lines of a COPY TO stream, a chunk's worth at a time (a line never splits a UTF-8 character: 0x0a is no part of one). */
async function* copyLines(stream: AsyncIterable<Buffer>): AsyncGenerator<string[]> {
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of stream) {
    const buffer = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    const lines: string[] = [];
    let start = 0;
    for (let end = buffer.indexOf(10, start); end !== -1; end = buffer.indexOf(10, start)) {
      lines.push(buffer.toString('utf8', start, end));
      start = end + 1;
    }
    rest = buffer.subarray(start);
    yield lines;
  }
}

/** The private files of the copies of this process, removed when it exits. */
const ownDirs = new Set<string>();
const DIR_PREFIX = 'place-copy-';
let removedOnExit = false;

function privateDir(): string {
  if (!removedOnExit) {
    removedOnExit = true;
    process.once('exit', () => ownDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
    sweepDeadCopies();
  }
  const dir = mkdtempSync(join(tmpdir(), `${DIR_PREFIX}${process.pid}-`));
  ownDirs.add(dir);
  return dir;
}

/** Copies left by processes that did not exit (a crash, a kill -9). */
function sweepDeadCopies(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(name.slice(DIR_PREFIX.length).split('-')[0]);
    if (!name.startsWith(DIR_PREFIX) || !Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as { code?: string }).code === 'ESRCH') rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/** A new cards file: a cache of this process alone, so no journal and no waiting for the disk. */
function openCards(path: string): SQLite.Database {
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = OFF');
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('locking_mode = EXCLUSIVE');
  // as the site's own SQLite file (db/index.ts): the OS's file cache holds the rest
  sqlite.pragma('cache_size = -2000');
  sqlite.exec(
    `create table place_cards (
       id integer primary key, card text not null, name text, names text, opening_hours text, country text, timezone text
     )`,
  );
  // the name index, as migration 0005 makes it on SQLite (filled from the cards: NAMES_FROM_CARDS)
  sqlite.exec(`create virtual table places_names using fts5(names, tokenize = "unicode61 remove_diacritics 2")`);
  return sqlite;
}

/** Fills the name index from the cards (all of them, or those of a JSON array of ids). */
const NAMES_FROM_CARDS = `insert into places_names (rowid, names) select c.id, ${namesText('c')} from place_cards c`;
const NAMES_OF_IDS = `${NAMES_FROM_CARDS} where c.id in (select value from json_each(?))`;

interface Cursor {
  /** xid8, as text */
  txid: string;
  id: number;
}

interface Loaded {
  reads: LocalReads;
  file: string;
  cursor: Cursor;
}

/**
 * The copy of a database handle: one per handle (`handle.shared(NodeCopy)`), which every store
 * on that handle reads and puts its own writes into, so that a process holds the places once.
 */
export class NodeCopy {
  private current: Loaded | null = null;
  private loading: Promise<LocalReads> | null = null;
  /** loads and passes over the log, one at a time in order (a later read must not be overwritten by an earlier one) */
  private queue: Promise<unknown> = Promise.resolve();
  /** a pass is queued and has not started: another wake need not queue one */
  private passQueued = false;
  /** Date.now() when the snapshot of the last complete catch-up was taken */
  private caughtUpAt = 0;
  /** xmins seen, with when: the one seen KEEP_MS ago prunes the log */
  private marks: { at: number; xmin: string }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private files = 0;
  private dir: string | null = null;
  /** the xmin of the snapshot the copy was last brought up to: every transaction below it is in */
  private seenXmin = 0n;
  /** transactions at or above seenXmin applied on their own (applyOwn): in the copy already */
  private appliedAhead = new Set<bigint>();
  /** how many times every place was read (the tests see a copy that fell behind load again) */
  loads = 0;

  constructor(private readonly handle: PostgresHandle) {
    handle.onClose(() => this.close());
  }

  /** What searches read, loaded at the first call. */
  ready(): Promise<LocalReads> {
    if (this.current) return Promise.resolve(this.current.reads);
    // a failed load (the database down at start) is tried again by the next search
    return (this.loading ??= this.serial(() => this.load()).then(
      (reads) => {
        this.follow();
        return reads;
      },
      (error: unknown) => {
        this.loading = null;
        throw error;
      },
    ));
  }

  /**
   * Applies what the committed transaction `txid` logged (this process's own write, or another
   * node's live fetch a search waited for), without waiting for other transactions to end.
   */
  async applyOwn(txid: string): Promise<void> {
    if (!this.current) return;
    await this.serial(async () => {
      const ids = await this.read(async (client) => {
        const { rows } = await client.query<{ place_id: number }>(
          `select distinct place_id from place_changes where txid = $1::xid8 limit ${RELOAD_AFTER + 1}`,
          [txid],
        );
        if (rows.length > RELOAD_AFTER) return null;
        const ids = rows.map((r) => r.place_id);
        return { ids, rows: await this.rowsOf(client, ids) };
      });
      if (ids === null) await this.load();
      else this.apply(ids.ids, ids.rows);
      if (BigInt(txid) >= this.seenXmin) this.appliedAhead.add(BigInt(txid));
    });
  }

  /**
   * The reads, once they hold what the committed transaction at `position` wrote and what every
   * transaction before it that has committed wrote (a writer's earlier writes: an update of several
   * sequences returns its last). A position is a transaction's id: the store's write returned
   * it, in this process or another. Those above the copy's xmin are applied on their own, without
   * waiting for older transactions still running.
   */
  async caughtUpTo(position: ChangePosition): Promise<LocalReads> {
    await this.ready();
    if (BigInt(position) >= this.seenXmin) {
      const { rows } = await this.handle.pool.query<{ txid: string }>(
        'select distinct txid::text as txid from place_changes where txid >= $1::xid8 and txid <= $2::xid8',
        [this.seenXmin.toString(), position],
      );
      for (const { txid } of rows) if (!this.appliedAhead.has(BigInt(txid))) await this.applyOwn(txid);
    }
    return this.current!.reads;
  }

  /**
   * Resolves once every transaction committed before the call is in the copy (waiting for those
   * running now to end): for writes whose position the caller does not have (raw SQL, a program
   * that does not tell it).
   */
  async caughtUpWithEveryCommit(): Promise<void> {
    await this.ready();
    const { xmax } = (
      await this.handle.pool.query<{ xmax: string }>('select pg_snapshot_xmax(pg_current_snapshot())::text as xmax')
    ).rows[0];
    while (this.seenXmin < BigInt(xmax)) {
      await this.wake();
      if (this.seenXmin < BigInt(xmax)) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Catches up now (and resolves once done): a notification or the poll. */
  wake = (): Promise<void> => {
    if (!this.current || this.closed) return Promise.resolve();
    if (this.passQueued) return this.queue.then(() => {});
    this.passQueued = true;
    return this.serial(async () => {
      this.passQueued = false;
      await this.pass();
    }).catch(() => {
      // the database away: the next wake (the poll, a reconnection) tries again
    });
  };

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }

  private follow(): void {
    if (this.timer || this.closed) return;
    this.handle.listen(CHANNEL, () => void this.wake());
    this.timer = setInterval(() => void this.wake(), POLL_MS).unref();
  }

  /** One REPEATABLE READ, read-only transaction on a client of the pool. */
  private read<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(this.handle.pool, work, 'begin isolation level repeatable read read only');
  }

  private async rowsOf(client: pg.PoolClient, ids: number[]): Promise<Fields[]> {
    if (ids.length === 0) return [];
    return (
      await client.query<Fields>({
        text: `select ${COLUMNS} from places where id = any($1::int[])`,
        values: [ids],
        rowMode: 'array',
      })
    ).rows;
  }

  /** Reads every place into a new grid and cards file, then serves them (the old ones go). */
  private async load(): Promise<LocalReads> {
    this.dir ??= privateDir();
    const file = join(this.dir, `cards-${++this.files}.db`);
    const sqlite = openCards(file);
    const started = Date.now();
    try {
      const reads = new LocalReads(sqlite);
      const cursor = await this.read(async (client) => {
        const head = (
          await client.query<{ xmin: string; n: number }>(
            'select pg_snapshot_xmin(pg_current_snapshot())::text as xmin, count(*)::int as n from places',
          )
        ).rows[0];
        const columns = placeColumns(head.n);
        const insert = sqlite.prepare(
          'insert into place_cards (id, card, name, names, opening_hours, country, timezone) values (?, ?, ?, ?, ?, ?, ?)',
        );
        const write = sqlite.transaction((lines: string[]) => {
          for (const line of lines) {
            const f = copyFields(line);
            const k = n++;
            columns.id[k] = Number(f[0]);
            columns.lat[k] = Number(f[1]);
            columns.lon[k] = Number(f[2]);
            columns.categories[k] = Number(f[3]);
            insert.run(cardRow(f));
          }
        });
        let n = 0;
        // the same snapshot as the count: the rows are the ones counted
        const stream = client.query(copyTo(`copy (select ${COLUMNS} from places order by id) to stdout`));
        for await (const lines of copyLines(stream)) {
          for (let i = 0; i < lines.length; i += LOAD_BATCH) write(lines.slice(i, i + LOAD_BATCH));
        }
        sqlite.exec(NAMES_FROM_CARDS);
        reads.grid.build(columns);
        this.mark(started, head.xmin);
        return { txid: head.xmin, id: 0 };
      });
      const old = this.current;
      this.current = { reads, file, cursor };
      this.caughtUpAt = started;
      this.passed(BigInt(cursor.txid));
      this.loads++;
      if (old) this.discard(old);
      return reads;
    } catch (error) {
      sqlite.close();
      rmSync(file, { force: true });
      throw error;
    }
  }

  /** Reads the log from the cursor up to the snapshot's xmin, and applies it. */
  private async pass(): Promise<void> {
    const current = this.current;
    if (!current || this.closed) return;
    const started = Date.now();
    if (started - this.caughtUpAt > BEHIND_MS) {
      await this.load();
      return;
    }
    const read = await this.read(async (client) => {
      const { xmin } = (
        await client.query<{ xmin: string }>('select pg_snapshot_xmin(pg_current_snapshot())::text as xmin')
      ).rows[0];
      const { rows: log } = await client.query<{ txid: string; id: number; place_id: number }>(
        `select txid::text as txid, id, place_id from place_changes
         where (txid, id) > ($1::xid8, $2) and txid < pg_snapshot_xmin(pg_current_snapshot())
         order by txid, id limit ${RELOAD_AFTER + 1}`,
        [current.cursor.txid, current.cursor.id],
      );
      if (log.length > RELOAD_AFTER) return null;
      const ids = [...new Set(log.map((row) => row.place_id))];
      return { xmin, last: log.at(-1), ids, rows: await this.rowsOf(client, ids) };
    });
    if (read === null) {
      await this.load();
      return;
    }
    this.apply(read.ids, read.rows);
    if (read.last) current.cursor = { txid: read.last.txid, id: read.last.id };
    this.caughtUpAt = started;
    this.passed(BigInt(read.xmin));
    this.mark(started, read.xmin);
    await this.prune(started);
  }

  /** Puts the rows read into the grid and the cards; an id without a row is a place gone. */
  private apply(ids: number[], rows: Fields[]): void {
    const { reads } = this.current!;
    const byId = new Map(rows.map((f) => [Number(f[0]), f]));
    const { sqlite } = reads;
    const upsert = sqlite.prepare(
      'insert or replace into place_cards (id, card, name, names, opening_hours, country, timezone) values (?, ?, ?, ?, ?, ?, ?)',
    );
    const remove = sqlite.prepare('delete from place_cards where id = ?');
    sqlite.transaction(() => {
      sqlite
        .prepare('delete from places_names where rowid in (select value from json_each(?))')
        .run(JSON.stringify(ids));
      for (const id of ids) {
        const f = byId.get(id);
        reads.forget(id);
        if (f) {
          reads.grid.upsert({ id, lat: Number(f[1]), lon: Number(f[2]), categories: Number(f[3]) });
          upsert.run(cardRow(f));
        } else {
          reads.grid.remove(id);
          remove.run(id);
        }
      }
      sqlite.prepare(NAMES_OF_IDS).run(JSON.stringify(ids));
    })();
  }

  /** Every transaction below `xmin` is in the copy now. */
  private passed(xmin: bigint): void {
    this.seenXmin = xmin;
    for (const txid of this.appliedAhead) if (txid < xmin) this.appliedAhead.delete(txid);
  }

  private mark(at: number, xmin: string): void {
    if (this.marks.length === 0 || at - this.marks.at(-1)!.at >= PRUNE_EVERY_MS) this.marks.push({ at, xmin });
  }

  /**
   * Deletes the log rows of transactions that had all ended KEEP_MS ago (below the xmin seen
   * then): every process caught up since has read them, and one that has not reloads.
   */
  private async prune(now: number): Promise<void> {
    let horizon: string | null = null;
    while (this.marks.length > 0 && now - this.marks[0].at >= KEEP_MS) horizon = this.marks.shift()!.xmin;
    if (horizon !== null) await this.handle.pool.query('delete from place_changes where txid < $1::xid8', [horizon]);
  }

  private discard(loaded: Loaded): void {
    loaded.reads.sqlite.close();
    rmSync(loaded.file, { force: true });
  }

  private async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.queue;
    if (this.current) this.discard(this.current);
    this.current = null;
    if (this.dir) {
      rmSync(this.dir, { recursive: true, force: true });
      ownDirs.delete(this.dir);
    }
  }
}
