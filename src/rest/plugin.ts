// Registers every row of routes.ts: gathers the input, calls the procedure through a caller (or
// the row's direct path), and turns errors into the statuses of docs/api.md and {"error": "..."} bodies.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { ZodError } from 'zod';
import { isDatabaseUnavailable, isOutOfSpace, type DbHandle } from '../../db/index.js';
import type { Config } from '../config.js';
import { createCaller } from '../procedures/index.js';
import type { Services } from '../services.js';
import { createContext, UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER } from '../trpc/context.js';
import { checkInputShape, describeZodError, NoCoverage, RetryAfter } from '../trpc/init.js';
import { JsonText } from './json-text.js';
import { readMultipart } from './multipart.js';
import { openApiDocument, procedureDef } from './openapi.js';
import { routes, type DirectDeps, type RestRoute } from './routes.js';

export interface RestOptions {
  config: Readonly<Config>;
  handle: DbHandle;
  services: Services;
  now: () => number;
}

export const JSON_BODY_LIMIT = 64 * 1024;
const DEFAULT_RATE_LIMIT = { max: 300, timeWindow: 60_000 };

export async function restPlugin(app: FastifyInstance, options: RestOptions): Promise<void> {
  const base = { db: options.handle.db, config: options.config, services: options.services, now: options.now };

  // An empty JSON body is no body: the site's original client posts visits with a JSON type and nothing.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: JSON_BODY_LIMIT },
    (_req, body, done) => {
      if ((body as string).trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(Object.assign(new Error('The body is not valid JSON'), { statusCode: 400 }), undefined);
      }
    },
  );

  app.setErrorHandler((error: FastifyError, req, reply) => sendError(error, req, reply));

  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.path,
      // RATE_LIMIT=off lifts these; the login throttle is not one of them.
      config: { rateLimit: options.config.rateLimit ? (route.rateLimit ?? DEFAULT_RATE_LIMIT) : false },
      handler: route.direct
        ? directHandler(route, route.direct, base, options.services)
        : async (req, reply) => {
            const ctx = await createContext(base, req, reply);
            const caller = createCaller(ctx);
            const { input, stored } = await gatherInput(route, req, ctx.session !== null, options.services);
            try {
              return await route.call(caller, input);
            } catch (error) {
              if (stored) await options.services.media.remove(stored.url);
              throw error;
            }
          },
    });
  }

  app.get(
    '/api/openapi.json',
    { config: { rateLimit: options.config.rateLimit ? DEFAULT_RATE_LIMIT : false } },
    async () => openApiDocument(),
  );

  // Uploads for the admin pages: one file in, its /uploads/ path out (XHR shows progress).
  // Counted exactly, in the database: every upload is a write there anyway.
  app.post(
    '/api/uploads',
    { config: { rateLimit: options.config.rateLimit ? { ...DEFAULT_RATE_LIMIT, exact: true } : false } },
    async (req, reply) => {
      const ctx = await createContext(base, req, reply);
      requireUploader(ctx.session);
      if (!req.isMultipart())
        throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send multipart/form-data with a file' });
      const { stored } = await readMultipart(req, options.services.media);
      if (!stored) throw new TRPCError({ code: 'BAD_REQUEST', message: 'file: is required' });
      reply.code(201);
      return { success: true, url: stored.url, type: stored.mime, size: stored.size };
    },
  );
}

/**
 * A row's direct path (routes.ts): the procedure's own checks on the input, in its order (the
 * shape, then its zod schema, a ZodError being a 400 that names the field), then the direct
 * function. Its errors reach sendError as a procedure's do through the caller: a TRPCError as it
 * is, anything else as an internal error around it (a database out of reach is then a 503, a
 * full disk a 507, the rest a 500 whatever the error carries).
 */
export function directHandler(
  route: RestRoute,
  direct: NonNullable<RestRoute['direct']>,
  deps: DirectDeps,
  services: Services,
): RouteHandlerMethod {
  const def = procedureDef(route.procedure);
  // No session is read and no middleware runs: only for what anybody may read, without a body.
  if (
    def.meta?.access !== 'public' ||
    def.type !== 'query' ||
    !['none', 'query', 'path'].includes(route.source) ||
    def.inputs.length > 1
  ) {
    throw new Error(`${route.method} ${route.path}: a direct path is for a public query with at most one input schema`);
  }
  const schema = def.inputs[0];
  return async (req, reply) => {
    const { input: raw } = await gatherInput(route, req, false, services);
    checkInputShape(raw);
    let input: unknown = raw;
    if (schema) {
      // Synchronously (a direct path's schema has no asynchronous step): parseAsync costs a
      // tenth of a small answer in promises alone.
      const parsed = schema.safeParse(raw);
      if (parsed.success) input = parsed.data;
      else {
        // What tRPC makes of a refused input (sendError names the field from the ZodError).
        throw new TRPCError({ code: 'BAD_REQUEST', cause: parsed.error });
      }
    }
    let answer: unknown;
    try {
      answer = await direct(deps, input, req);
    } catch (error) {
      throw error instanceof TRPCError ? error : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: error });
    }
    if (answer instanceof JsonText) return reply.type(JSON_TYPE).send(Buffer.from(answer.text));
    return answer;
  };
}

/** What Fastify sends a serialised object as. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** Files are written only for a logged-in admin: nobody else gets to fill the disk. */
function requireUploader(session: { mustChangePassword: boolean } | null): void {
  if (!session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please login to access admin panel' });
  if (session.mustChangePassword)
    throw new TRPCError({ code: 'FORBIDDEN', message: 'Please change your password first' });
}

async function gatherInput(route: RestRoute, req: FastifyRequest, loggedIn: boolean, services: Services) {
  switch (route.source) {
    case 'none':
      return { input: undefined, stored: null };
    case 'query':
      return { input: normalizeQuery(req.query as Record<string, unknown>), stored: null };
    case 'path':
      // The path names the thing; options (a position, a language) come in the query.
      return {
        input: { ...normalizeQuery(req.query as Record<string, unknown>), ...(req.params as object) },
        stored: null,
      };
    case 'json':
      requireJson(req);
      return { input: req.body ?? {}, stored: null };
    case 'form':
      if (req.isMultipart()) {
        requireUploader(loggedIn ? { mustChangePassword: false } : null);
        return readMultipart(req, services.media);
      }
      requireJson(req);
      return { input: req.body ?? {}, stored: null };
  }
}

function requireJson(req: FastifyRequest): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (req.body !== undefined && type !== 'application/json') {
    throw new TRPCError({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Content-Type must be application/json' });
  }
}

/** `a[]=1&a[]=2` and `a=1&a=2` both become `a: ['1', '2']`. */
export function normalizeQuery(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query ?? {})) {
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    const values = Array.isArray(value) ? value : [value];
    const previous = out[name];
    out[name] =
      previous === undefined
        ? key.endsWith('[]') || Array.isArray(value)
          ? values
          : value
        : [previous, ...values].flat();
  }
  return out;
}

export const OUT_OF_SPACE_MESSAGE = 'The server is out of storage space: nothing was saved';

/** Any error as the contract's `{"error": "..."}` with a fitting status; never a stack or a driver's words. */
export function sendError(error: unknown, req: FastifyRequest, reply: FastifyReply) {
  let status: number;
  let message: string;
  // A full disk (the database's or the uploads'): 507, and nothing was stored.
  if (isOutOfSpace(error)) {
    req.log.error({ err: error }, 'out of storage space');
    return reply.code(507).send({ error: OUT_OF_SPACE_MESSAGE });
  }
  // The database restarting or out of reach (whether or not a procedure wrapped the error): a
  // 503 to retry, never a 500 and never the driver's words.
  const unavailable =
    (error instanceof TRPCError && error.code === 'SERVICE_UNAVAILABLE' && error.message === UNAVAILABLE_MESSAGE) ||
    ((!(error instanceof TRPCError) || error.code === 'INTERNAL_SERVER_ERROR') && isDatabaseUnavailable(error));
  if (unavailable) {
    status = 503;
    message = UNAVAILABLE_MESSAGE;
    reply.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER));
    req.log.warn({ err: error }, 'database unavailable');
    // A place source out of reach where the site holds no places: the page says that instead.
    if (error instanceof TRPCError && error.cause instanceof NoCoverage)
      return reply.code(status).send({ error: message, coverage: 'none' });
    return reply.code(status).send({ error: message });
  }
  if (error instanceof TRPCError) {
    status = getHTTPStatusCodeFromError(error);
    message = error.cause instanceof ZodError ? describeZodError(error.cause) : error.message;
    if (error.cause instanceof RetryAfter) reply.header('Retry-After', String(error.cause.seconds));
  } else {
    const fastifyError = error as FastifyError;
    status = fastifyError.statusCode && fastifyError.statusCode >= 400 ? fastifyError.statusCode : 500;
    message = fastifyError.message;
    if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') message = 'The request body is too large';
    if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') message = 'Unsupported content type';
    if (status === 429) message = 'Too many requests, please try again later';
  }
  if (status >= 500) {
    req.log.error({ err: error }, 'request failed');
    if (status !== 503) message = 'Internal server error';
  }
  return reply.code(status).send({ error: message });
}
