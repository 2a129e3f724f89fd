// One request's context: the database, the services, the clock and who is asking.
import '@fastify/cookie';
import { TRPCError } from '@trpc/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable, type Db } from '../../db/index.js';
import type { Config } from '../config.js';
import { readSession, SESSION_COOKIE, type SessionUser } from '../auth/sessions.js';
import type { Services } from '../services.js';
import { pickLanguage, type Lang } from '../i18n.js';
import type { Logger } from '../logger.js';

/** Sets and clears the session cookie; over HTTP it is Fastify's reply, in tests a plain object. */
export interface SessionCookie {
  /** The cookie value the request came with, if any. */
  current: string | undefined;
  set(value: string): void;
  clear(): void;
}

export interface Context {
  db: Db;
  config: Readonly<Config>;
  services: Services;
  now: () => number;
  log: Logger;
  ip: string;
  lang: Lang;
  session: SessionUser | null;
  cookie: SessionCookie;
}

export function fastifyCookie(req: FastifyRequest, res: FastifyReply, config: Readonly<Config>): SessionCookie {
  return {
    current: req.cookies[SESSION_COOKIE],
    set(value) {
      res.setCookie(SESSION_COOKIE, value, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: config.secure,
      });
    },
    clear() {
      res.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: config.secure });
    },
  };
}

/** What a client is told while the database cannot be reached (the API's 503 wording, docs/api.md). */
export const UNAVAILABLE_MESSAGE = 'Service temporarily unavailable';
/** Seconds a client is asked to wait: about what a PostgreSQL restart takes. */
export const UNAVAILABLE_RETRY_AFTER = 5;

/** The 503 for a database that is restarting or unreachable; the cause is kept for the log only. */
export function databaseUnavailable(cause: unknown): TRPCError {
  return new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: UNAVAILABLE_MESSAGE, cause });
}

// The reply of each HTTP context, so that a procedure failing for want of the database can ask
// the client to retry (tRPC's adapter sends the headers already set on the reply).
const replies = new WeakMap<object, FastifyReply>();

/** Adds Retry-After to the reply of this context, when it has one (not for in-process callers). */
export function retryLater(ctx: object): void {
  replies.get(ctx)?.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER));
}

export async function createContext(
  base: { db: Db; config: Readonly<Config>; services: Services; now: () => number },
  req: FastifyRequest,
  res: FastifyReply,
): Promise<Context> {
  const cookie = fastifyCookie(req, res, base.config);
  const query = req.query as Record<string, unknown> | undefined;
  let session: SessionUser | null;
  try {
    session = await readSession(base.db, cookie.current, base.now());
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    res.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER));
    throw databaseUnavailable(error);
  }
  const ctx: Context = {
    ...base,
    log: req.log,
    ip: req.ip,
    lang: pickLanguage(typeof query?.lang === 'string' ? query.lang : undefined, req.headers['accept-language']),
    session,
    cookie,
  };
  replies.set(ctx, res);
  return ctx;
}
