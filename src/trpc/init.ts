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

/**
 * Attached as a TRPCError's cause when a place search's live source failed where the site holds
 * no places itself: the REST answer adds `"coverage": "none"` beside its `error`.
 */
export class NoCoverage extends Error {
  constructor() {
    super('the site holds no places around the search');
  }
}

/** "field: message" (an API error names the field); the message alone for the whole input. */
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

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
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

/** How deep an input may nest: no field of this site goes past 4 (a plan's features). */
export const MAX_INPUT_DEPTH = 32;

export interface InputProblem {
  /** the field's path ('' for the input itself) */
  field: string;
  message: string;
}

/**
 * What no procedure takes, found before any schema sees the input: text (or a key) holding U+0000,
 * and nesting past MAX_INPUT_DEPTH. Iterative, so that any depth is walked safely.
 */
export function findInputProblem(input: unknown): InputProblem | null {
  const stack: [unknown, string, number][] = [[input, '', 0]];
  const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  while (stack.length > 0) {
    const [value, field, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { field, message: 'must not contain NUL characters' };
      continue;
    }
    const isArray = Array.isArray(value);
    const isPlainObject =
      !isArray &&
      value !== null &&
      typeof value === 'object' &&
      [Object.prototype, null].includes(Object.getPrototypeOf(value));
    if (!isArray && !isPlainObject) continue;
    if (depth >= MAX_INPUT_DEPTH)
      return { field, message: `must not be nested more than ${MAX_INPUT_DEPTH} levels deep` };
    if (isArray) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], join(field, i), depth + 1]);
    } else {
      const entries = Object.entries(value as object);
      if (entries.some(([key]) => key.includes('\u0000'))) return { field, message: 'must not contain NUL characters' };
      for (const [key, item] of entries.reverse()) stack.push([item, join(field, key), depth + 1]);
    }
  }
  return null;
}

/**
 * Refused alike on both engines, naming the field (a 400 BAD_REQUEST); the REST adapter's direct
 * paths (src/rest/plugin.ts) run the same check. NUL: PostgreSQL cannot store it in text (it was
 * a 500 there on login, contact and plans), and no field needs it. Depth: zod puts a refused value
 * into its error, whose message is that error as JSON, and a value nested ~2,000 deep overflowed
 * the stack there (a 500, found by the fuzz battery).
 */
export function checkInputShape(input: unknown): void {
  const problem = findInputProblem(input);
  if (problem) throw new TRPCError({ code: 'BAD_REQUEST', message: fieldProblem(problem.field, problem.message) });
}

const inputShape = t.middleware(async ({ getRawInput, next }) => {
  checkInputShape(await getRawInput());
  return next();
});

export const publicProcedure = t.procedure.use(inputShape).use(databaseAvailability).meta({ access: 'public' });

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
