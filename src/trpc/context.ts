// One request's context: the database, the services, the clock and who is asking.
import '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/index.js';
import type { Config } from '../config.js';
import { readSession, SESSION_COOKIE, type SessionUser } from '../auth/sessions.js';
import type { Services } from '../services.js';
import { pickLanguage, type Lang } from '../i18n.js';

export interface Logger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

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

export async function createContext(
  base: { db: Db; config: Readonly<Config>; services: Services; now: () => number },
  req: FastifyRequest,
  res: FastifyReply,
): Promise<Context> {
  const cookie = fastifyCookie(req, res, base.config);
  const query = req.query as Record<string, unknown> | undefined;
  return {
    ...base,
    log: req.log,
    ip: req.ip,
    lang: pickLanguage(typeof query?.lang === 'string' ? query.lang : undefined, req.headers['accept-language']),
    session: await readSession(base.db, cookie.current, base.now()),
    cookie,
  };
}
