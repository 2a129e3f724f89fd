// Visit counts: running totals, the last reset, and a count per UTC day for the chart.
import { sql } from 'kysely';
import { z } from 'zod';
import { adminProcedure, publicProcedure, router } from '../trpc/init.js';
import { audit } from './audit.js';
import { ok } from './schemas.js';
import { searchReport } from '../places/jobs/search-stats.js';

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const visitsRouter = router({
  count: publicProcedure.mutation(async ({ ctx }) => {
    const day = dayOf(ctx.now());
    // Both counts in one transaction, answered only after it commits: an acknowledged visit is
    // stored. Each statement adds to what is stored at that moment, whatever other processes do
    // (PostgreSQL re-reads a locked row for `n + 1`; the upsert inserts or adds, never both), and
    // every visit takes its two row locks in the same order, so parallel visits never deadlock.
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('visit_counters')
        .set({ current_visits: sql`current_visits + 1`, total_visits: sql`total_visits + 1` })
        .where('id', '=', 1)
        .execute();
      await trx
        .insertInto('visits_daily')
        .values({ day, count: 1 })
        .onConflict((oc) => oc.column('day').doUpdateSet({ count: sql`visits_daily.count + 1` }))
        .execute();
    });
    return ok;
  }),

  get: adminProcedure.query(({ ctx }) =>
    ctx.db
      .selectFrom('visit_counters')
      .select(['current_visits', 'total_visits', 'last_reset'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow(),
  ),

  /** Visits per day for the last `days` days, oldest first, zero-filled. */
  daily: adminProcedure
    .input(z.object({ days: z.coerce.number().int().min(1).max(366).default(30) }).default({}))
    .query(async ({ ctx, input }) => {
      const today = ctx.now();
      const first = dayOf(today - (input.days - 1) * DAY_MS);
      const rows = await ctx.db.selectFrom('visits_daily').select(['day', 'count']).where('day', '>=', first).execute();
      const counts = new Map(rows.map((row) => [row.day, row.count]));
      return Array.from({ length: input.days }, (_, i) => {
        const day = dayOf(today - (input.days - 1 - i) * DAY_MS);
        return { day, count: counts.get(day) ?? 0 };
      });
    }),

  /** What visitors looked for in the last 30 days (counts written every few seconds). */
  searches: adminProcedure.query(async ({ ctx }) => {
    await ctx.services.searchStats.flush();
    return searchReport(ctx.db, ctx.now());
  }),

  reset: adminProcedure.mutation(async ({ ctx }) => {
    await ctx.db
      .updateTable('visit_counters')
      .set({ current_visits: 0, last_reset: new Date(ctx.now()).toISOString() })
      .where('id', '=', 1)
      .execute();
    await audit(ctx.db, ctx.session, 'visits.reset');
    return ok;
  }),
});
