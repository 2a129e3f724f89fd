// Contact messages: sent by visitors, read and answered by admins.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { adminProcedure, publicProcedure, router } from '../trpc/init.js';
import { audit } from './audit.js';
import { id, ok } from './schemas.js';

const required = (max: number) =>
  z.string({ message: 'is required' }).trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

export const messagesRouter = router({
  send: publicProcedure
    .input(
      z.object({
        name: required(100),
        email: z
          .string({ message: 'is required' })
          .trim()
          .min(1, 'is required')
          .max(254)
          .email('must be a valid email address'),
        subject: required(200),
        body: required(5000),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const row = await ctx.db
        .insertInto('messages')
        .values({ ...input, status: 'unread' })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { ...ok, id: row.id, message: 'Message sent successfully' };
    }),

  list: adminProcedure.query(async ({ ctx }) => {
    const rows = await ctx.db
      .selectFrom('messages')
      .select(['id', 'name', 'email', 'subject', 'body', 'status', 'created_at as date'])
      .orderBy('id', 'desc')
      .execute();
    return rows;
  }),

  setStatus: adminProcedure
    .input(z.object({ id, status: z.enum(['unread', 'read'], { message: "must be 'unread' or 'read'" }) }))
    .mutation(async ({ ctx, input }) => {
      const result = await ctx.db
        .updateTable('messages')
        .set({ status: input.status })
        .where('id', '=', input.id)
        .executeTakeFirst();
      if (!result.numUpdatedRows) throw new TRPCError({ code: 'NOT_FOUND', message: 'Message not found' });
      await audit(ctx.db, ctx.session, 'messages.status', { id: input.id, status: input.status });
      return ok;
    }),

  delete: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    const result = await ctx.db.deleteFrom('messages').where('id', '=', input.id).executeTakeFirst();
    if (!result.numDeletedRows) throw new TRPCError({ code: 'NOT_FOUND', message: 'Message not found' });
    await audit(ctx.db, ctx.session, 'messages.delete', { id: input.id });
    return ok;
  }),
});
