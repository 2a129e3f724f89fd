// Site keys for the administrator: create, edit, delete, and each key's use per day. A key lets
// another site read the public API and embed the locator, from the origins it lists, within its
// daily quota (src/site-keys/).
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { keysByText, keysChanged, newKeyText, usageByDay } from '../site-keys/keys.js';
import { adminProcedure, router } from '../trpc/init.js';
import { audit } from './audit.js';
import { id, listOf, ok } from './schemas.js';

/** The most origins a key may list. */
const MAX_ORIGINS = 50;

/** `https://example.org` (scheme, host and port, as a browser sends it in `Origin`). */
const origin = z
  .string()
  .trim()
  .max(300)
  .transform((value, ctx) => {
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {
      // not a URL: refused below
    }
    if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.pathname !== '/' ||
      url.search ||
      url.hash ||
      url.username
    ) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: 'must be origins such as https://example.org (scheme, host and port, no path)',
      });
      return z.NEVER;
    }
    return url.origin;
  });

const fields = {
  name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  origins: listOf(origin)
    .refine((list) => list.length <= MAX_ORIGINS, `must list at most ${MAX_ORIGINS} origins`)
    .transform((list) => [...new Set(list)]),
  daily_limit: z.coerce
    .number({ invalid_type_error: 'must be a whole number from 1 to 100000000' })
    .int('must be a whole number from 1 to 100000000')
    .min(1, 'must be a whole number from 1 to 100000000')
    .max(100_000_000, 'must be a whole number from 1 to 100000000'),
};

export const keysRouter = router({
  /** Every key with its use today (this process's hits not yet shared included). */
  list: adminProcedure.query(async ({ ctx }) => {
    const { list } = await keysByText(ctx.db);
    return list.map((key) => ({
      id: key.id,
      name: key.name,
      key: key.key,
      origins: [...key.origins],
      daily_limit: key.dailyLimit,
      used_today: ctx.services.keyUsage.count(key.id),
      created_at: key.createdAt,
    }));
  }),

  /** Each key's requests per UTC day for the last 30 days, oldest first. */
  usage: adminProcedure.query(async ({ ctx }) => {
    const { list } = await keysByText(ctx.db);
    const { days, counts } = await usageByDay(ctx.db, ctx.now());
    return {
      days,
      keys: list.map((key) => {
        const perDay = counts.get(key.id) ?? new Array<number>(days.length).fill(0);
        // today as this process counts it, hits not yet shared included
        perDay[perDay.length - 1] = ctx.services.keyUsage.count(key.id);
        return { id: key.id, counts: perDay };
      }),
    };
  }),

  create: adminProcedure.input(z.object(fields)).mutation(async ({ ctx, input }) => {
    const key = newKeyText();
    const row = await ctx.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('site_keys')
        .values({ name: input.name, key, origins: JSON.stringify(input.origins), daily_limit: input.daily_limit })
        .returning('id')
        .executeTakeFirstOrThrow();
      await keysChanged(trx);
      return inserted;
    });
    await audit(ctx.db, ctx.session, 'keys.create', { id: row.id, origins: input.origins });
    return { ...ok, id: row.id, key };
  }),

  update: adminProcedure
    .input(z.object({ id, ...fields }).partial({ name: true, origins: true, daily_limit: true }))
    .mutation(async ({ ctx, input }) => {
      const changes = {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.origins !== undefined ? { origins: JSON.stringify(input.origins) } : {}),
        ...(input.daily_limit !== undefined ? { daily_limit: input.daily_limit } : {}),
      };
      const found = await ctx.db.transaction().execute(async (trx) => {
        const exists = await trx.selectFrom('site_keys').select('id').where('id', '=', input.id).executeTakeFirst();
        if (!exists) return false;
        if (Object.keys(changes).length)
          await trx.updateTable('site_keys').set(changes).where('id', '=', input.id).execute();
        await keysChanged(trx);
        return true;
      });
      if (!found) throw new TRPCError({ code: 'NOT_FOUND', message: 'Key not found' });
      await audit(ctx.db, ctx.session, 'keys.update', { id: input.id, fields: Object.keys(changes) });
      return ok;
    }),

  /** The key stops working on every node within about a second; its use per day goes with it. */
  delete: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    const removed = await ctx.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('site_keys').where('id', '=', input.id).executeTakeFirst();
      if (result.numDeletedRows) await keysChanged(trx);
      return Number(result.numDeletedRows);
    });
    if (!removed) throw new TRPCError({ code: 'NOT_FOUND', message: 'Key not found' });
    await audit(ctx.db, ctx.session, 'keys.delete', { id: input.id });
    return ok;
  }),
});
