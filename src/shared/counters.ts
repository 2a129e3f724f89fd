// Counters in fixed windows, kept in the rate_limits table so that every process and node counts
// together: the login throttle and the per-address request limits. Each hit is one atomic upsert.
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

/**
 * countHits for one key as plain SQLite, for the per-request path of the rate limits: a prepared
 * statement costs ~30 µs where building the query with Kysely adds ~150 µs. Parameters: the key,
 * the end of a new window, now, now. Keep it the same statement as countHits.
 */
export const COUNT_ONE_SQLITE = `
  insert into rate_limits (key, count, reset_at) values (?, 1, ?)
  on conflict (key) do update set
    count = case when rate_limits.reset_at <= ? then 1 else rate_limits.count + 1 end,
    reset_at = case when rate_limits.reset_at <= ? then excluded.reset_at else rate_limits.reset_at end
  returning count, reset_at`;

/** The count of a key in its current window, without counting (0 when none). */
export async function peekCount(db: Db, key: string, now: number): Promise<Count> {
  const row = await db.selectFrom('rate_limits').select(['count', 'reset_at']).where('key', '=', key).where('reset_at', '>', now).executeTakeFirst();
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
