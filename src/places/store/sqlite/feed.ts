// The SQLite store's reads: the grid and the card cache (search/local-reads.ts) over the same
// file, following the `place_changes` log (db/migrations/0007) that every process writes to. A
// position is the log's `seq` after a write: reads that have taken in that change hold the write.
import type SQLite from '../../../../db/sqlite-driver.js';
import { RELOAD_AFTER, type ChangeFeed, type ChangePosition } from '../../search/change-feed.js';
import { placeColumns, type PlaceColumns } from '../../search/grid.js';
import { LocalReads } from '../../search/local-reads.js';
import { PerTurn } from '../../../shared/per-turn.js';

/** Statements are prepared on first use: the tables may not exist yet at start-up. */
export class SqliteChangeFeed implements ChangeFeed {
  private statements: ReturnType<SqliteChangeFeed['prepare']> | null = null;
  /** the last change of the log the grid and the row cache have taken in */
  private seenChange = 0;
  /**
   * The grid brought up to the log's newest change, looked at once per turn of the event loop
   * (a look costs as much as a small search's own work); this process's writes forget it at once.
   */
  private readonly current = new PerTurn(() => this.sync());
  /** the grid and the cards searches read */
  private readonly local: LocalReads;
  /** whether the grid was built yet */
  private built = false;
  /** whether the database has the change log yet */
  private logged = false;

  constructor(
    private readonly sqlite: SQLite.Database,
    /** how many cards the cache holds at most (the tests fill a small one) */
    cardCacheMax?: number,
  ) {
    this.local = new LocalReads(sqlite, cardCacheMax);
  }

  async reads(): Promise<LocalReads> {
    return this.current.get();
  }

  async caughtUp(position: ChangePosition): Promise<LocalReads> {
    // a write of another process, committed in this very turn: look at the log again
    if (!this.built || this.seenChange < Number(position)) this.current.forget();
    return this.current.get();
  }

  /**
   * After a write through this connection: the next read looks at the log, whatever the turn.
   * Returns the write's position (the log's newest change, which is the write's last or later).
   */
  written(): ChangePosition {
    this.current.forget();
    // a database not yet migrated to the change log (0007) has no positions: '0', nothing to wait for
    this.logged ||= this.sqlite.prepare(`select 1 from sqlite_master where name = 'place_changes'`).get() !== undefined;
    return this.logged ? String((this.sql.lastChange.get() as number | null) ?? 0) : '0';
  }

  private prepare() {
    const db = this.sqlite;
    return {
      count: db.prepare('select count(*) from places').pluck(),
      lastChange: db.prepare('select max(seq) from place_changes').pluck(),
      firstChange: db.prepare('select min(seq) from place_changes').pluck(),
      changes: db.prepare('select distinct place_id from place_changes where seq > ? and seq <= ?').pluck(),
      everyPlace: db.prepare('select id, lat, lon, categories from places').raw(),
      position: db.prepare('select lat, lon, categories from places where id = ?').raw(),
    };
  }

  private get sql() {
    return (this.statements ??= this.prepare());
  }

  /**
   * Brings the grid and the card cache up to the log's newest change: what this or any other
   * process wrote since the last search. One read transaction, so they match one state.
   */
  private sync(): LocalReads {
    const sql = this.sql;
    const reads = this.local;
    const last = (sql.lastChange.get() as number | null) ?? 0;
    if (this.built && last === this.seenChange) return reads;
    this.sqlite.transaction(() => {
      const newest = (sql.lastChange.get() as number | null) ?? 0;
      const first = (sql.firstChange.get() as number | null) ?? newest + 1;
      // pruned past what we saw, or a log that went back (another file put in place)
      const missed = (first > this.seenChange + 1 && newest > this.seenChange) || newest < this.seenChange;
      if (!this.built || missed || newest - this.seenChange > RELOAD_AFTER) {
        reads.grid.build(this.everyPlace());
        reads.forgetAll();
        this.built = true;
      } else {
        for (const id of sql.changes.all(this.seenChange, newest) as number[]) {
          reads.forget(id);
          const row = sql.position.get(id) as [number, number, number] | undefined;
          if (row) reads.grid.upsert({ id, lat: row[0], lon: row[1], categories: row[2] });
          else reads.grid.remove(id);
        }
      }
      this.seenChange = newest;
    })();
    return reads;
  }

  /** Every place's position and categories, as columns. */
  private everyPlace(): PlaceColumns {
    const columns = placeColumns(this.sql.count.get() as number);
    let n = 0;
    for (const [id, lat, lon, categories] of this.sql.everyPlace.iterate() as Iterable<
      [number, number, number, number]
    >) {
      columns.id[n] = id;
      columns.lat[n] = lat;
      columns.lon[n] = lon;
      columns.categories[n++] = categories;
    }
    return columns;
  }
}
