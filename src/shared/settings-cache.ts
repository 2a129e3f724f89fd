// Data read on every request but rarely changed (the settings), cached per process and checked
// against its row in data_versions at each read: one tiny query instead of the whole table, and a
// change saved through any process or node shows everywhere at the next request. A writer bumps
// the version in the same transaction as its change (bumpVersion).
import { sql } from 'kysely';
import { sqliteOf, type Db } from '../../db/index.js';

interface Entry {
  version: number;
  value: unknown;
}

// Per database handle: tests run many apps in one process, each on its own database.
const caches = new WeakMap<Db, Map<string, Entry>>();

/** The stored version of `name`: on SQLite one prepared statement, run at once. */
async function readVersion(db: Db, name: string): Promise<{ version: number } | undefined> {
  const sqlite = sqliteOf(db);
  if (!sqlite) return db.selectFrom('data_versions').select('version').where('name', '=', name).executeTakeFirst();
  return sqlite.prepare('select version from data_versions where name = ?').get(name) as { version: number } | undefined;
}

/**
 * `load()`'s answer for the current version of `name`, loaded again only when that changed. The
 * answer is shared by every caller of this process: it is frozen, so nobody can change it.
 */
export async function readVersioned<T>(db: Db, name: string, load: () => Promise<T>): Promise<Readonly<T>> {
  // The version first, then the data: data read after a version is at least that new, so a
  // change committed in between is cached under the older version and reloaded at the next read.
  const row = await readVersion(db, name);
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const cached = cache.get(name);
  if (row && cached && cached.version === row.version) return cached.value as T;
  const value = deepFreeze(await load());
  if (row) cache.set(name, { version: row.version, value });
  return value;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Marks `name` changed; call it inside the transaction that changes the data. */
export async function bumpVersion(db: Db, name: string): Promise<void> {
  await db
    .insertInto('data_versions')
    .values({ name, version: 1 })
    .onConflict((oc) => oc.column('name').doUpdateSet({ version: sql<number>`data_versions.version + 1` }))
    .execute();
}
