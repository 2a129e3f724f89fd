// Admin sign-in: status, login, logout, changePassword; and the admin users.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { initialPasswordFile, removeInitialPasswordFile } from '../auth/first-admin.js';
import { decoy, hashPassword, needsRehash, passwordProblem, verifyPassword } from '../auth/passwords.js';
import { createSession, deleteSession, deleteUserSessions } from '../auth/sessions.js';
import type { Context } from '../trpc/context.js';
import { adminProcedure, authedProcedure, publicProcedure, RetryAfter, router } from '../trpc/init.js';
import { audit } from './audit.js';
import { id, ok } from './schemas.js';

const INVALID = 'Invalid username or password';

const newPassword = z.string().superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const username = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9._-]{3,32}$/, 'must be 3 to 32 characters of a-z 0-9 . _ -');

/**
 * The login page's hint: the first administrator's username and where its password comes from,
 * never the password itself: the generated file until it is changed, or the server's
 * ADMIN_PASSWORD while that set it. None once the administrator chose a password (a login page
 * then names nobody to guess at), nor when that account is gone.
 */
async function loginHint(ctx: { db: Context['db']; config: Context['config'] }) {
  const first = await ctx.db
    .selectFrom('admin_users')
    .select(['id', 'username', 'must_change_password'])
    .where('username', '=', ctx.config.adminUsername)
    .executeTakeFirst();
  if (!first) return null;
  if (first.must_change_password === 1)
    return {
      username: first.username,
      password_source: 'file' as const,
      password_file: initialPasswordFile(ctx.config),
    };
  if (ctx.config.adminPassword === null) return null;
  const changed = await ctx.db
    .selectFrom('audit_log')
    .select('id')
    .where('admin_user_id', '=', first.id)
    .where('action', '=', 'auth.changePassword')
    .executeTakeFirst();
  return changed ? null : { username: first.username, password_source: 'env' as const, password_file: null };
}

export const authRouter = router({
  status: publicProcedure.query(async ({ ctx }) => {
    return {
      logged_in: ctx.session !== null,
      username: ctx.session?.username ?? null,
      must_change_password: ctx.session?.mustChangePassword ?? false,
      login_hint: await loginHint(ctx),
    };
  }),

  login: publicProcedure
    .input(
      z.object({
        username: z.string().trim().min(1, 'is required').max(200),
        password: z.string().min(1, 'is required').max(1024),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const name = input.username.toLowerCase();
      const { throttle } = ctx.services;
      // Counted before the password is checked, so parallel guesses cannot slip past the limit.
      const wait = await throttle.attempt(ctx.db, name, ctx.ip);
      if (wait > 0) {
        throw new TRPCError({
          code: 'TOO_MANY_REQUESTS',
          message: `Too many login attempts. Try again in ${wait} seconds.`,
          cause: new RetryAfter(wait),
        });
      }
      const user = await ctx.db
        .selectFrom('admin_users')
        .select(['id', 'username', 'password_hash', 'must_change_password'])
        .where('username', '=', name)
        .executeTakeFirst();
      // Verify against a decoy when there is no such user, so timing does not tell.
      const valid = await verifyPassword(user?.password_hash ?? (await decoy()), input.password);
      if (!user || !valid) {
        ctx.log.info({ username: name, ip: ctx.ip }, 'admin login failed');
        throw new TRPCError({ code: 'UNAUTHORIZED', message: INVALID });
      }
      await throttle.succeeded(ctx.db, name, ctx.ip);
      if (needsRehash(user.password_hash)) {
        const hash = await hashPassword(input.password);
        await ctx.db.updateTable('admin_users').set({ password_hash: hash }).where('id', '=', user.id).execute();
      }
      // A fresh id at each login: a session id planted before login is worth nothing.
      await deleteSession(ctx.db, ctx.cookie.current);
      ctx.cookie.set(await createSession(ctx.db, user.id, ctx.now()));
      await audit(ctx.db, { userId: user.id, username: user.username, mustChangePassword: false }, 'auth.login');
      return { ...ok, must_change_password: user.must_change_password === 1 };
    }),

  logout: publicProcedure.mutation(async ({ ctx }) => {
    await deleteSession(ctx.db, ctx.cookie.current);
    ctx.cookie.clear();
    if (ctx.session) await audit(ctx.db, ctx.session, 'auth.logout');
    return ok;
  }),

  changePassword: authedProcedure
    .input(z.object({ current_password: z.string().min(1, 'is required').max(1024), new_password: newPassword }))
    .mutation(async ({ ctx, input }) => {
      const user = await ctx.db
        .selectFrom('admin_users')
        .select(['password_hash'])
        .where('id', '=', ctx.session.userId)
        .executeTakeFirstOrThrow();
      if (!(await verifyPassword(user.password_hash, input.current_password))) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'current_password: is not correct' });
      }
      if (input.new_password === input.current_password) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: 'new_password: must differ from the current password' });
      }
      await ctx.db
        .updateTable('admin_users')
        .set({ password_hash: await hashPassword(input.new_password), must_change_password: 0 })
        .where('id', '=', ctx.session.userId)
        .execute();
      // Every other session of this admin ends; this one goes on.
      await deleteUserSessions(ctx.db, ctx.session.userId, ctx.cookie.current);
      if (ctx.session.mustChangePassword) removeInitialPasswordFile(ctx.config);
      await audit(ctx.db, ctx.session, 'auth.changePassword');
      return ok;
    }),
});

export const usersRouter = router({
  list: adminProcedure.query(({ ctx }) =>
    ctx.db.selectFrom('admin_users').select(['id', 'username', 'created_at']).orderBy('id').execute(),
  ),

  create: adminProcedure.input(z.object({ username, password: newPassword })).mutation(async ({ ctx, input }) => {
    const taken = await ctx.db
      .selectFrom('admin_users')
      .select('id')
      .where('username', '=', input.username)
      .executeTakeFirst();
    if (taken) throw new TRPCError({ code: 'CONFLICT', message: `username: "${input.username}" is already taken` });
    const row = await ctx.db
      .insertInto('admin_users')
      .values({ username: input.username, password_hash: await hashPassword(input.password), must_change_password: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await audit(ctx.db, ctx.session, 'users.create', { id: row.id, username: input.username });
    return { ...ok, id: row.id, message: 'User added successfully' };
  }),

  delete: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    if (input.id === ctx.session.userId) {
      throw new TRPCError({ code: 'CONFLICT', message: 'You cannot delete your own account' });
    }
    await ctx.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('admin_users').select('username').where('id', '=', input.id).executeTakeFirst();
      if (!user) throw new TRPCError({ code: 'NOT_FOUND', message: 'User not found' });
      const { count } = await trx
        .selectFrom('admin_users')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      if (Number(count) <= 1)
        throw new TRPCError({ code: 'CONFLICT', message: 'The last administrator cannot be deleted' });
      // Its sessions go with it (ON DELETE CASCADE).
      await trx.deleteFrom('admin_users').where('id', '=', input.id).execute();
      await audit(trx, ctx.session, 'users.delete', { id: input.id, username: user.username });
    });
    return { ...ok, message: 'User deleted successfully' };
  }),
});
