// GET/HEAD /uploads/<name>: uploads served as the type we stored, never sniffed, never able to
// run script, cached for good (a random name never gets other bytes). From the folder by
// @fastify/static, which does Range, ETag and Last-Modified itself; from the database by the
// route below, which does the same reading only the chunks a range needs.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isDatabaseUnavailable } from '../../db/index.js';
import { UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER } from '../trpc/context.js';
import { DatabaseMediaStore } from './database-store.js';
import { ALLOWED_MEDIA, FolderMediaStore, UPLOAD_NAME, type MediaStore } from './store.js';

/** Headers on every served upload, whichever store it comes from. */
export const MEDIA_SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Cross-Origin-Resource-Policy': 'same-origin',
} as const;
export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export async function uploadsPlugin(app: FastifyInstance, options: { store: MediaStore }): Promise<void> {
  const { store } = options;
  // Errors answer in the contract's shape: {"error"}, 503 while the database is away.
  app.setErrorHandler((error: FastifyError, req, reply) => {
    reply.removeHeader('content-type');
    if (isDatabaseUnavailable(error)) {
      req.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('Retry-After', String(UNAVAILABLE_RETRY_AFTER))
        .send({ error: UNAVAILABLE_MESSAGE });
    }
    // @fastify/static's 416 carries the Content-Range it must be sent with.
    const range = (error as { headers?: Record<string, string> }).headers?.['Content-Range'];
    if (error.statusCode === 416 && range) reply.header('Content-Range', range);
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) req.log.error({ err: error }, 'serving an upload failed');
    return reply.code(status).send({ error: status === 500 ? 'Internal server error' : error.message });
  });
  if (store instanceof DatabaseMediaStore) return databaseRoutes(app, store);
  if (store instanceof FolderMediaStore) return folderRoutes(app, store.dir);
  throw new Error(`no way to serve a ${store.kind} media store`);
}

async function folderRoutes(app: FastifyInstance, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await app.register(fastifyStatic, {
    root: resolve(dir),
    prefix: '/uploads/',
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    cacheControl: false,
    setHeaders(reply, path) {
      const ext = path.split('.').pop();
      const type = Object.values(ALLOWED_MEDIA).find((media) => media.ext === ext);
      if (type) reply.header('Content-Type', type.serveAs);
      reply.header('Cache-Control', MEDIA_CACHE_CONTROL);
      reply.headers(MEDIA_SECURITY_HEADERS);
    },
  });
}

async function databaseRoutes(app: FastifyInstance, store: DatabaseMediaStore): Promise<void> {
  // Uploads cut short by a crash are deleted at start-up (and again before later uploads).
  await store.sweep();

  // HEAD is its own route: Fastify's automatic one would read the whole body from the database
  // only to throw it away.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/uploads/:name',
    handler: async (req, reply) => {
      const { name } = req.params as { name: string };
      const media = UPLOAD_NAME.test(name) ? await store.info(name) : undefined;
      if (!media) return reply.code(404).send({ error: 'Not found' });

      const etag = `"${media.sha256}"`;
      const lastModified = new Date(media.modified).toUTCString();
      reply.headers({
        ...MEDIA_SECURITY_HEADERS,
        'Accept-Ranges': 'bytes',
        ETag: etag,
        'Last-Modified': lastModified,
        'Cache-Control': MEDIA_CACHE_CONTROL,
      });
      if (notModified(req, etag, media.modified)) return reply.code(304).send();

      // Range is defined for GET only; If-Range sends the whole file when it has changed.
      const range =
        req.method === 'GET' && rangeStillValid(req, etag, lastModified)
          ? parseRange(req.headers.range, media.size)
          : null;
      if (range === 'unsatisfiable') {
        return reply
          .code(416)
          .header('Content-Range', `bytes */${media.size}`)
          .send({ error: 'Range not satisfiable' });
      }
      const [start, end] = range ?? [0, media.size - 1];
      reply.type(media.mime).header('Content-Length', String(end - start + 1));
      if (range) reply.code(206).header('Content-Range', `bytes ${start}-${end}/${media.size}`);
      if (req.method === 'HEAD') return reply.send();
      return reply.send(store.read(media, start, end));
    },
  });
}

/** If-None-Match (weak comparison, RFC 9110 13.1.2), else If-Modified-Since. */
function notModified(req: FastifyRequest, etag: string, modified: number): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (typeof ifNoneMatch === 'string') {
    return ifNoneMatch.split(',').some((tag) => {
      const t = tag.trim();
      return t === '*' || t.replace(/^W\//, '') === etag;
    });
  }
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(modified / 1000) * 1000 <= since;
}

/** If-Range: an entity tag must match strongly, a date exactly (RFC 9110 13.1.5). */
function rangeStillValid(req: FastifyRequest, etag: string, lastModified: string): boolean {
  const ifRange = req.headers['if-range'];
  if (typeof ifRange !== 'string') return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  return Date.parse(value) === Date.parse(lastModified);
}

/**
 * One byte range of `Range: bytes=a-b | a- | -n` as [start, end] inclusive; null to send the
 * whole file (no header, another unit, several ranges, or a malformed one, which RFC 9110 says
 * to ignore); 'unsatisfiable' when it starts past the end.
 */
export function parseRange(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | null {
  if (!header || size === 0) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? Number.POSITIVE_INFINITY : Number(match[2]);
  if (!Number.isSafeInteger(start) || end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return [start, Math.min(end, size - 1)];
}
