// Helpers for tests of the per-address limits across processes (src/shared/rate-limit-store.ts).
import { sql } from 'kysely';
import { createDb } from '../../db/index.js';
import { parseDatabaseUrl } from '../../src/config.js';

/**
 * The batched limits count in windows aligned to the clock: a run of requests that straddles the
 * end of a minute is counted in two windows. Waits until at least `marginMs` remain in this one.
 */
export async function clearOfWindowEdge(windowMs = 60_000, marginMs = 20_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Sends `send` again every 100 ms until it is refused (429) or `ms` have passed; its last reply. */
export async function refusedWithin<T extends { status: number }>(
  ms: number,
  send: () => Promise<T>,
): Promise<{ reply: T; afterMs: number }> {
  const started = Date.now();
  for (;;) {
    const reply = await send();
    const afterMs = Date.now() - started;
    if (reply.status === 429 || afterMs > ms) return { reply, afterMs };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Counts the rows written to rate_limits from now on, with a trigger (both engines). */
export async function countRateLimitWrites(url: string): Promise<{ read(): Promise<number>; close(): Promise<void> }> {
  const handle = createDb(parseDatabaseUrl(url)!, { poolSize: 1 });
  const db = handle.db;
  await sql`create table rate_limit_writes (n integer not null)`.execute(db);
  await sql`insert into rate_limit_writes values (0)`.execute(db);
  if (handle.dialect === 'sqlite') {
    for (const event of ['insert', 'update']) {
      await sql
        .raw(
          `create trigger rate_limit_${event} after ${event} on rate_limits begin update rate_limit_writes set n = n + 1; end`,
        )
        .execute(db);
    }
  } else {
    await sql
      .raw(
        `create function count_rate_limit_write() returns trigger language plpgsql as $$ begin update rate_limit_writes set n = n + 1; return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        'create trigger rate_limit_write after insert or update on rate_limits for each row execute function count_rate_limit_write()',
      )
      .execute(db);
  }
  return {
    read: async () => Number((await sql<{ n: number }>`select n from rate_limit_writes`.execute(db)).rows[0].n),
    close: () => handle.close(),
  };
}
