// Reads from other sites' pages: CORS on the public reads only (never on admin paths or writes,
// never with credentials), and site keys. A read without a key is anonymous: allowed from the
// origins of CORS_ORIGINS, under the per-address limits. A read with a key (the X-Api-Key header
// or the `key` query parameter) is allowed from the key's origins (or from a server, with no
// Origin), counted against the key's daily quota and not the visitor's address.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/index.js';
import type { Config } from '../config.js';
import { KEY_TEXT, keysByText, secondsToNextDay, type KeyUsage, type SiteKey } from './keys.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** the site key a public read came with, once checked; null for an anonymous read */
    siteKey: SiteKey | null;
  }
}

/** The public reads: the places, one place, settings, ads, plans, the OpenAPI document, the tiles. */
const PUBLIC_READ =
  /^\/(?:api\/(?:places(?:\/(?:node|way|relation|own)\/[^/?#]+)?|settings|ads|plans|openapi\.json)|tiles\.json|tiles\/[^?#]*)(?:\?|$)/;

/** Browsers keep a preflight at most 2 hours (Chromium's cap). */
const PREFLIGHT_MAX_AGE = '7200';

export const isPublicRead = (url: string) => PUBLIC_READ.test(url);

/** Adds `value` to the answer's Vary header, keeping what is there. */
export function addVary(reply: FastifyReply, value: string): void {
  const current = reply.getHeader('vary');
  if (!current) reply.header('vary', value);
  else if (
    !String(current)
      .toLowerCase()
      .split(/\s*,\s*/)
      .includes(value.toLowerCase())
  )
    reply.header('vary', `${current}, ${value}`);
}

/** The key a request names: the X-Api-Key header, else the `key` query parameter. */
function keyOf(req: FastifyRequest): string | undefined {
  const header = req.headers['x-api-key'];
  if (typeof header === 'string') return header;
  // The query is parsed only when the URL can hold the parameter.
  if (!req.url.includes('key=')) return undefined;
  const value = (req.query as Record<string, unknown> | undefined)?.key;
  return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0]) : undefined;
}

export interface KeyCheck {
  status: 401 | 403 | 429;
  error: string;
  retryAfter?: number;
}

/**
 * Whether a keyed request may go on: the key known, the origin on its list (or the site's own, or
 * none: a server), the day's quota not spent. Counts the request when it goes on.
 */
export async function checkKey(
  db: Db,
  usage: KeyUsage,
  text: string,
  origin: string | undefined,
  ownOrigins: readonly string[],
  now: number,
): Promise<SiteKey | KeyCheck> {
  const key = KEY_TEXT.test(text) ? (await keysByText(db)).byText.get(text) : undefined;
  if (!key) return { status: 401, error: 'Unknown or deleted API key' };
  if (origin !== undefined && !key.origins.includes(origin) && !ownOrigins.includes(origin)) {
    return { status: 403, error: 'This API key may not be used from this origin' };
  }
  if (usage.count(key.id) >= key.dailyLimit) {
    return { status: 429, error: 'This API key has used its requests for today', retryAfter: secondsToNextDay(now) };
  }
  usage.hit(key.id);
  return key;
}

export function crossOriginReads(
  app: FastifyInstance,
  options: { config: Readonly<Config>; db: Db; usage: KeyUsage; now: () => number },
): { close: () => Promise<void> } {
  const { config, db, usage, now } = options;
  const anonymous = config.corsOrigins;
  app.decorateRequest('siteKey', null);

  // Shared once a second: no database write per keyed request (keys.ts).
  let away = false;
  let sharing: Promise<void> | null = null;
  const share = () =>
    (sharing ??= usage
      .share(db)
      .then(() => {
        if (away) app.log.info('site keys: sharing counts again');
        away = false;
      })
      .catch((error: unknown) => {
        if (!away)
          app.log.warn(
            { err: error },
            'site keys: cannot share counts; counting in this process until the database is back',
          );
        away = true;
      })
      .finally(() => (sharing = null)));
  const timer = setInterval(() => void share(), 1_000);
  timer.unref();
  // The last counts are shared by the app's own close, before it closes the database.
  const close = async () => {
    clearInterval(timer);
    await share();
  };

  // A callback hook: no promise per request, and nothing at all for paths that are not public reads.
  app.addHook('onRequest', (req, reply, done) => {
    if (!isPublicRead(req.url)) return done();
    const origin = req.headers.origin;
    if (req.method === 'OPTIONS') {
      // Any origin passes the preflight: whether it may read is known only at the GET, from the key
      // it sends (a preflight carries no header values).
      if (origin) reply.header('access-control-allow-origin', origin);
      reply
        .header('vary', 'Origin')
        .header('access-control-allow-methods', 'GET')
        .header('access-control-allow-headers', 'X-Api-Key')
        .header('access-control-max-age', PREFLIGHT_MAX_AGE)
        .header('cross-origin-resource-policy', 'cross-origin')
        .code(204)
        .send();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return done();
    // Other sites may use these answers (helmet's same-origin would make browsers drop them).
    reply.header('cross-origin-resource-policy', 'cross-origin').header('access-control-expose-headers', 'Retry-After');
    const text = keyOf(req);
    if (text === undefined) {
      if (anonymous === '*') reply.header('access-control-allow-origin', '*');
      else if (anonymous !== 'off') {
        addVary(reply, 'Origin');
        if (origin && anonymous.includes(origin)) reply.header('access-control-allow-origin', origin);
      }
      return done();
    }
    // A keyed answer depends on the origin; the page that sent it may read why it was refused.
    addVary(reply, 'Origin');
    if (origin) reply.header('access-control-allow-origin', origin);
    checkKey(db, usage, text, origin, config.publicOrigins, now()).then(
      (result) => {
        if ('status' in result) {
          if (result.retryAfter) reply.header('retry-after', String(result.retryAfter));
          reply.code(result.status).send({ error: result.error });
          return;
        }
        req.siteKey = result;
        done();
      },
      (error: unknown) => done(error as Error),
    );
  });
  return { close };
}
