// Counters in fixed windows, kept in the rate_limits table so that every process and node counts
// together: the login throttle and the per-address request limits. Each hit (or each process's
// batch of hits: addCounts) is one atomic upsert.
import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

export interface Hit {
  key: string;
  windowMs: number;
}

export interface Count {
  count: number;
  /** epoch ms at which the key's window ends */
  resetAt: number;
}

/**
 * Counts one hit on each key, in one statement, and returns the counts including it. A key whose
 * window has ended starts again at 1 with a new window. PostgreSQL locks the row and SQLite has
 * one writer, so N hits at the same moment get the counts 1..N: none slips past a limit. Keys are
 * locked in the order given: callers that count several keys give them in one fixed order.
 */
export async function countHits(db: Db, hits: readonly Hit[], now: number): Promise<Map<string, Count>> {
  const rows = await db
    .insertInto('rate_limits')
    .values(hits.map((hit) => ({ key: hit.key, count: 1, reset_at: now + hit.windowMs })))
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        // Both right-hand sides see the row as it was before this update.
        count: sql<number>`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.count + 1 end`,
        reset_at: sql<number>`case when rate_limits.reset_at <= ${now} then excluded.reset_at else rate_limits.reset_at end`,
      }),
    )
    .returning(['key', 'count', 'reset_at'])
    .execute();
  return new Map(rows.map((row) => [row.key, { count: Number(row.count), resetAt: Number(row.reset_at) }]));
}

/** Rows per statement of addCounts: 3 parameters each, well under either engine's limit. */
const ADD_CHUNK = 1000;

/** Hits counted elsewhere (a process's batch of rate-limit hits): a key's count in the window ending at `resetAt`. */
export interface AddedCount {
  key: string;
  count: number;
  resetAt: number;
}

// The upsert of every way of adding counts: a row of an older window starts again at the added
// count. Both right-hand sides see the row as it was before this update.
const ADDED_COUNT =
  'case when rate_limits.reset_at < excluded.reset_at then excluded.count else rate_limits.count + excluded.count end';
const ADDED_RESET_AT =
  'case when rate_limits.reset_at < excluded.reset_at then excluded.reset_at else rate_limits.reset_at end';

/** Keys in sorted order: one lock order for every process, so two batches never deadlock. */
export const sortedByKey = (batch: readonly AddedCount[]) =>
  [...batch].sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));

/**
 * Adds counts taken elsewhere (a process's batch of rate-limit hits) to the shared ones and
 * returns each key's total. Windows are aligned to the clock (`resetAt` is the window's end).
 */
export async function addCounts(db: Db, batch: readonly AddedCount[]): Promise<Map<string, number>> {
  const totals = new Map<string, number>();
  const sorted = sortedByKey(batch);
  for (let start = 0; start < sorted.length; start += ADD_CHUNK) {
    const rows = await db
      .insertInto('rate_limits')
      .values(
        sorted
          .slice(start, start + ADD_CHUNK)
          .map((item) => ({ key: item.key, count: item.count, reset_at: item.resetAt })),
      )
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({ count: sql.raw<number>(ADDED_COUNT), reset_at: sql.raw<number>(ADDED_RESET_AT) }),
      )
      .returning(['key', 'count'])
      .execute();
    for (const row of rows) totals.set(row.key, Number(row.count));
  }
  return totals;
}

/**
 * addCounts for one key as plain SQLite, for the rate limits' sharing on SQLite: a prepared
 * statement in one transaction takes a batch of 5,000 keys in a fraction of the time Kysely
 * takes to build and run it. Parameters: the key, the count, the window's end.
 */
export const ADD_COUNT_SQLITE = `
  insert into rate_limits (key, count, reset_at) values (?, ?, ?)
  on conflict (key) do update set count = ${ADDED_COUNT}, reset_at = ${ADDED_RESET_AT}
  returning count`;

/**
 * addCounts on PostgreSQL for the rate limits' sharing: the batch as three arrays through
 * `unnest`, one statement of three parameters, where addCounts's VALUES list has three a row for
 * PostgreSQL to parse and plan (a batch of 5,000 keys every second).
 */
export async function addCountsPostgres(db: Db, batch: readonly AddedCount[]): Promise<Map<string, number>> {
  const sorted = sortedByKey(batch);
  const { rows } = await sql<{ key: string; count: number }>`
    insert into rate_limits (key, count, reset_at)
    select * from unnest(
      ${sorted.map((item) => item.key)}::text[],
      ${sorted.map((item) => item.count)}::integer[],
      ${sorted.map((item) => item.resetAt)}::bigint[]
    )
    on conflict (key) do update set count = ${sql.raw(ADDED_COUNT)}, reset_at = ${sql.raw(ADDED_RESET_AT)}
    returning key, count`.execute(db);
  return new Map(rows.map((row) => [row.key, Number(row.count)]));
}

/** The count of a key in its current window, without counting (0 when none). */
export async function peekCount(db: Db, key: string, now: number): Promise<Count> {
  const row = await db
    .selectFrom('rate_limits')
    .select(['count', 'reset_at'])
    .where('key', '=', key)
    .where('reset_at', '>', now)
    .executeTakeFirst();
  return row ? { count: Number(row.count), resetAt: Number(row.reset_at) } : { count: 0, resetAt: now };
}

/** Forgets a key (a new window starts at its next hit). */
export async function clearCount(db: Db, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Takes one hit back from a key's current window. */
export async function uncount(db: Db, key: string, now: number): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ count: sql<number>`count - 1` })
    .where('key', '=', key)
    .where('count', '>', 0)
    .where('reset_at', '>', now)
    .execute();
}

/** Deletes the rows of windows that have ended (they would start again at 1 anyway). */
export async function purgeCounts(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('reset_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
