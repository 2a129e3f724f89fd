// Data read on every request but rarely changed (the settings, plans, ads), cached per process and
// checked against its row in data_versions (none yet: version 0): a change saved through any
// process or node shows everywhere. The rendered pages kept by src/pages compare these objects.
// A writer bumps the version in the same transaction as its change (bumpVersion).
// The row is read only when something may have changed since the entry was last confirmed:
// - on SQLite, `PRAGMA data_version` changes whenever another connection (another process, or
//   this one's rate-limit counter) has committed; asked once per turn of the event loop;
// - on PostgreSQL, a trigger (migration 0009) notifies `data_versions` at each change, and the
//   process listens: a notification, or its listening session lost or made again, marks every
//   entry to confirm. While it is not listening, the row is read at every request.
// - This process's own bumps are counted by bumpVersion, so its own writes show at once.
// Across processes a change shows once the other process has heard of it: on SQLite at its next
// request, on PostgreSQL when the notification arrives, a few milliseconds after the commit.
import type SQLite from '../../db/sqlite-driver.js';
import { sql } from 'kysely';
import { postgresOf, sqliteOf, type Db } from '../../db/index.js';
import { JoinedRead } from './joined-read.js';
import { PerTurn } from './per-turn.js';

interface Entry {
  version: number;
  value: unknown;
  /** changeMark() when the entry was last confirmed; NaN: confirm it again */
  mark: number;
  /** `localBumps` then */
  bumps: number;
}

/**
 * bumpVersion calls in this process. Counted when the bump is written, not when (or whether) its
 * transaction commits: a change makes the next read look at the row again, which then sees what
 * was committed, and a bump rolled back only costs that one look.
 */
let localBumps = 0;

// Per database handle: tests run many apps in one process, each on its own database.
const caches = new WeakMap<Db, Map<string, Entry>>();

type VersionRow = { version: number } | undefined;

/**
 * The stored version of `name`: on SQLite one prepared statement, run at once; on PostgreSQL one
 * query shared by the requests that arrive together (joined-read.ts). A query per request kept
 * the server idle half the time, waiting for the pool's connections: `/api/settings` went at
 * 0.12-0.15x of a hello-world, with the shared query 0.41-0.45x.
 */
async function readVersion(db: Db, name: string): Promise<VersionRow> {
  const sqlite = sqliteOf(db);
  if (sqlite) return sqlite.prepare('select version from data_versions where name = ?').get(name) as VersionRow;
  let reads = versionReads.get(db);
  if (!reads) versionReads.set(db, (reads = new Map()));
  let read = reads.get(name);
  if (!read)
    reads.set(
      name,
      (read = new JoinedRead(() =>
        db.selectFrom('data_versions').select('version').where('name', '=', name).executeTakeFirst(),
      )),
    );
  return read.get();
}

// Per database handle, as the caches: a transaction is a handle of its own, so it never shares
// a read with the connections outside it.
const versionReads = new WeakMap<Db, Map<string, JoinedRead<VersionRow>>>();

/**
 * `load()`'s answer for the current version of `name`, loaded again only when that changed. The
 * answer is shared by every caller of this process: it is frozen, so nobody can change it.
 */
export async function readVersioned<T>(db: Db, name: string, load: () => Promise<T>): Promise<Readonly<T>> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const cached = cache.get(name);
  // Before the row: a commit landing between the two is then seen at the next read.
  const seen = changeMark(db);
  if (cached && cached.mark === seen && cached.bumps === localBumps) return cached.value as T;
  const bumps = localBumps;
  // The version first, then the data: data read after a version is at least that new, so a
  // change committed in between is cached under the older version and reloaded at the next read.
  // No row yet: version 0 (the first bump writes 1).
  const version = (await readVersion(db, name))?.version ?? 0;
  if (cached && cached.version === version) {
    cached.mark = seen;
    cached.bumps = bumps;
    return cached.value as T;
  }
  const value = deepFreeze(await load());
  cache.set(name, { version, value, mark: seen, bumps });
  return value;
}

/**
 * A number that changes whenever data of another connection may have been committed since it was
 * last read (NaN: unknown, never equal, so the row is read): SQLite's `data_version`; on
 * PostgreSQL, how many notifications (and listening sessions lost or made) there were, NaN while
 * not listening. NaN inside a transaction, where the row read may be a change not yet committed
 * (or to be rolled back).
 */
function changeMark(db: Db): number {
  const postgres = postgresOf(db);
  if (postgres) {
    let heard = notifications.get(db);
    if (!heard) {
      const mark = { listening: false, count: 0 };
      notifications.set(db, (heard = mark));
      const heardOf = (listening: boolean) => () => {
        mark.listening = listening;
        mark.count++;
      };
      postgres.listen('data_versions', heardOf(true), heardOf(false));
    }
    return heard.listening ? heard.count : NaN;
  }
  const sqlite = sqliteOf(db);
  if (!sqlite) return NaN;
  let seen = dataVersions.get(sqlite);
  if (!seen) {
    // prepared once per connection: preparing costs more than running it
    const statement = sqlite.prepare('pragma data_version').pluck();
    // asked once per turn: the pragma costs ~5 us, a fifth of a whole settings answer
    dataVersions.set(sqlite, (seen = { statement, version: new PerTurn(() => statement.get() as number) }));
  }
  if (seen.statement.database.inTransaction) return NaN;
  return seen.version.get();
}

const notifications = new WeakMap<Db, { listening: boolean; count: number }>();
const dataVersions = new WeakMap<object, { statement: SQLite.Statement; version: PerTurn<number> }>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Marks `name` changed; call it inside the transaction that changes the data. */
export async function bumpVersion(db: Db, name: string): Promise<void> {
  localBumps++;
  await db
    .insertInto('data_versions')
    .values({ name, version: 1 })
    .onConflict((oc) => oc.column('name').doUpdateSet({ version: sql<number>`data_versions.version + 1` }))
    .execute();
}
