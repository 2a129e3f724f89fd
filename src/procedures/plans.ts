// Subscription plans. Prices are stored in cents; a description is a plain string or a
// {features, languages} structure, and comes back in the form it was given.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { Db } from '../../db/index.js';
import { adminProcedure, publicProcedure, router } from '../trpc/init.js';
import { audit } from './audit.js';
import { bumpVersion, readVersioned } from '../shared/settings-cache.js';
import { httpUrl, id, ok } from './schemas.js';

const structured = z.object({
  features: z.array(z.string().trim().min(1).max(200)).max(50),
  languages: z.array(z.string().trim().min(1).max(50)).max(50),
});

type Description = string | z.infer<typeof structured>;

/** Keeps the form: a JSON string of the structure stays a string, an object stays an object. */
const description = z.union([
  structured.transform((value) => ({ stored: JSON.stringify(value), isStructured: 1 })),
  z
    .string()
    .trim()
    .min(1, 'is required')
    .max(5000)
    .superRefine((value, ctx) => {
      if (!value.startsWith('{')) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        return; // a plain string that happens to start with a brace
      }
      if (!structured.safeParse(parsed).success) {
        ctx.addIssue({ code: 'custom', message: 'must hold {"features": [...], "languages": [...]} lists of text' });
      }
    })
    .transform((value) => ({ stored: value, isStructured: 0 })),
]);

const price = z.coerce
  .number({ message: 'must be a number' })
  .min(0, 'must be at least 0')
  .max(1_000_000, 'must be at most 1000000')
  .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, 'must have at most two decimals');

const planFields = {
  name: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  price,
  type: z.enum(['basic', 'pro', 'premium'], { message: "must be 'basic', 'pro' or 'premium'" }),
  description,
  link: httpUrl,
};

/** The data_versions row that says when the plans last changed. */
const PLANS_VERSION = 'plans';

/**
 * Every plan; one frozen answer per process until a plan changes anywhere (the home and plans
 * pages keep their rendered HTML while it is the same object).
 */
export function listPlans(db: Db) {
  return readVersioned(db, PLANS_VERSION, () => readPlans(db));
}

async function readPlans(db: Db) {
  const rows = await db.selectFrom('plans').selectAll().orderBy('id').execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    price: row.price_cents / 100,
    type: row.type,
    description: (row.description_is_structured ? JSON.parse(row.description) : row.description) as Description,
    link: row.link,
  }));
}

export const plansRouter = router({
  list: publicProcedure.query(({ ctx }) => listPlans(ctx.db)),

  create: adminProcedure.input(z.object(planFields)).mutation(async ({ ctx, input }) => {
    const row = await ctx.db
      .insertInto('plans')
      .values({
        name: input.name,
        price_cents: Math.round(input.price * 100),
        type: input.type,
        description: input.description.stored,
        description_is_structured: input.description.isStructured,
        link: input.link,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await bumpVersion(ctx.db, PLANS_VERSION);
    await audit(ctx.db, ctx.session, 'plans.create', { id: row.id });
    return { ...ok, id: row.id };
  }),

  update: adminProcedure.input(z.object({ id, ...planFields })).mutation(async ({ ctx, input }) => {
    const result = await ctx.db
      .updateTable('plans')
      .set({
        name: input.name,
        price_cents: Math.round(input.price * 100),
        type: input.type,
        description: input.description.stored,
        description_is_structured: input.description.isStructured,
        link: input.link,
      })
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!result.numUpdatedRows) throw new TRPCError({ code: 'NOT_FOUND', message: 'Plan not found' });
    await bumpVersion(ctx.db, PLANS_VERSION);
    await audit(ctx.db, ctx.session, 'plans.update', { id: input.id });
    return ok;
  }),

  delete: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    const result = await ctx.db.deleteFrom('plans').where('id', '=', input.id).executeTakeFirst();
    if (!result.numDeletedRows) throw new TRPCError({ code: 'NOT_FOUND', message: 'Plan not found' });
    await bumpVersion(ctx.db, PLANS_VERSION);
    await audit(ctx.db, ctx.session, 'plans.delete', { id: input.id });
    return ok;
  }),
});
