// tRPC is created once here; the rest of the code uses only these building blocks.
import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../../db/index.js';
import { databaseUnavailable, retryLater, type Context } from './context.js';

/** Attached as a TRPCError's cause when the client should wait (429 Retry-After). */
export class RetryAfter extends Error {
  constructor(readonly seconds: number) {
    super(`retry after ${seconds}s`);
  }
}

/** "field: message" for the first problem: CONTRACT.md wants the field named. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  const field = issue.path.join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** Who may call a procedure; read by the OpenAPI document (src/rest/openapi.ts). */
export interface ProcedureMeta {
  access?: 'public' | 'session' | 'admin';
}

const t = initTRPC.context<Context>().meta<ProcedureMeta>().create({
  errorFormatter({ shape, error }) {
    const zod = error.cause instanceof ZodError ? error.cause : null;
    const internal = error.code === 'INTERNAL_SERVER_ERROR';
    return {
      ...shape,
      message: zod ? describeZodError(zod) : internal ? 'Internal server error' : shape.message,
      data: { code: shape.data.code, httpStatus: shape.data.httpStatus },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every procedure runs under this: a database that cannot be reached (restarting, a dropped
 * connection) is a 503 the client may retry, not a 500, whatever the procedure was doing.
 */
const databaseAvailability = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR' && isDatabaseUnavailable(result.error.cause)) {
    retryLater(ctx);
    throw databaseUnavailable(result.error.cause);
  }
  return result;
});

export const publicProcedure = t.procedure.use(databaseAvailability).meta({ access: 'public' });

/** Logged in, whatever the state of the password: status, logout, changePassword. */
export const authedProcedure = publicProcedure
  .use(({ ctx, next }) => {
    if (!ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please login to access admin panel' });
    return next({ ctx: { ...ctx, session: ctx.session } });
  })
  .meta({ access: 'session' });

/** Every admin procedure: logged in, and not on a generated password that must be changed. */
export const adminProcedure = authedProcedure
  .use(({ ctx, next }) => {
    if (ctx.session.mustChangePassword) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'Please change your password first' });
    }
    return next();
  })
  .meta({ access: 'admin' });
