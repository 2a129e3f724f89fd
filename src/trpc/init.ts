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

/** "field: message" (CONTRACT.md wants the field named); the message alone for the whole input. */
const fieldProblem = (field: string, message: string) => (field ? `${field}: ${message}` : message);

/** The first problem, with its field. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  return issue ? fieldProblem(issue.path.join('.'), issue.message) : 'Invalid input';
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

/**
 * The first field of an input where a string (or a key) holds U+0000, as its path ('' for the
 * input itself); null when none does. Iterative: inputs may be nested thousands deep.
 */
export function findNulCharacter(input: unknown): string | null {
  const stack: [unknown, string][] = [[input, '']];
  const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], join(path, i)]);
    } else if (value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
      const entries = Object.entries(value);
      if (entries.some(([key]) => key.includes('\u0000'))) return path;
      for (const [key, item] of entries.reverse()) stack.push([item, join(path, key)]);
    }
  }
  return null;
}

/**
 * Text never holds NUL: PostgreSQL cannot store it (it was a 500 there on login, contact and plans),
 * and no field of this site needs it. Refused alike on both engines, naming the field.
 */
const noNulCharacters = t.middleware(async ({ getRawInput, next }) => {
  const field = findNulCharacter(await getRawInput());
  if (field !== null) throw new TRPCError({ code: 'BAD_REQUEST', message: fieldProblem(field, 'must not contain NUL characters') });
  return next();
});

export const publicProcedure = t.procedure.use(noNulCharacters).use(databaseAvailability).meta({ access: 'public' });

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
