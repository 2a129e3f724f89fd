// createApp: the whole site as a Fastify instance, ready to listen or to be injected into.
// /api (REST) and /trpc are sibling plugins: tRPC's plugin drops the content-type parsers of
// its own scope, which would break multipart on /api if they shared one.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import compress from '@fastify/compress';
import { constants as zlibConstants } from 'node:zlib';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { migrate, type DbHandle } from '../db/index.js';
import { ensureFirstAdmin } from './auth/first-admin.js';
import { purgeExpiredSessions } from './auth/sessions.js';
import type { Config } from './config.js';
import { uploadsPlugin } from './media/serve.js';
import { appRouter, type AppRouter } from './procedures/index.js';
import { JSON_BODY_LIMIT, restPlugin, sendError } from './rest/plugin.js';
import { MULTIPART_LIMITS } from './rest/multipart.js';
import { shedLoad, type SheddingOptions } from './load-shedding.js';
import { helmetOptions, securityHeaders } from './security-headers.js';
import { startUpdateTimer } from './places/sources/replication/index.js';
import { TilesFile, tilesPlugin } from './map/tiles.js';
import { createServices } from './services.js';
import { fastifyTrustProxy } from './trust-proxy.js';
import { sharedRateLimits } from './shared/rate-limit-store.js';
import { createContext } from './trpc/context.js';
import { crossOriginReads } from './site-keys/cross-origin.js';
import { embedPlugin } from './site-keys/embed.js';
import { pagesPlugin } from './pages/plugin.js';

/** How hard answers made per request are compressed: a fraction of a millisecond for 30 KB. */
export const DYNAMIC_BROTLI_QUALITY = 4;
export const DYNAMIC_GZIP_LEVEL = 6;

export interface AppOptions {
  config: Readonly<Config>;
  handle: DbHandle;
  /** the clock; tests pass a controllable one */
  now?: () => number;
  /** where the built web app is; default dist/web */
  webRoot?: string;
  /** where a generated first-admin password is told; default stderr */
  announce?: (text: string) => void;
  /** false for no logs; a stream to send them to (tests read it); default stdout */
  logger?: false | { stream: NodeJS.WritableStream };
  /** how much it takes on at once before turning requests away; tests set small ones */
  shedding?: SheddingOptions;
  /** the HTTP timeouts; tests set short ones */
  timeouts?: Partial<typeof TIMEOUTS>;
}

/**
 * HTTP timeouts, chosen so that slow or stalled clients cannot hold the server: a client has 10 s
 * to send its headers (a slowloris that never finishes them is cut off), 5 minutes for a whole
 * request (a 50 MiB video upload on a slow line), 60 s of silence on a socket, and a kept-alive
 * idle connection is closed after 5 s. Expired connections are looked for every second.
 */
export const TIMEOUTS = {
  headersMs: 10_000,
  requestMs: 300_000,
  idleMs: 60_000,
  keepAliveMs: 5_000,
  checkEveryMs: 1_000,
};

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A cookie-authenticated write must come from our own pages (docs/security.md). */
export function isCrossSite(req: FastifyRequest, origins: readonly string[]): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = req.headers.origin;
  if (typeof origin === 'string') return !origins.includes(origin);
  return false; // not a browser: no ambient cookie to abuse
}

export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, handle } = options;
  const now = options.now ?? Date.now;
  const timeouts = { ...TIMEOUTS, ...options.timeouts };
  const logger = options.logger !== false && {
    level: config.logLevel,
    // Belt and braces: nothing logs these today, and nothing ever should.
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.password',
        '*.new_password',
        '*.current_password',
      ],
      censor: '[redacted]',
    },
    ...(options.logger ? { stream: options.logger.stream } : {}),
  };
  // Every answer, errors included, carries the security headers (src/security-headers.ts).
  const headers = securityHeaders(helmetOptions(config.secure));
  const app = Fastify({
    // Errors met before any hook runs (a malformed URL, a request the HTTP parser refuses) still
    // answer the contract's shape with the security headers.
    frameworkErrors: (error, _req, reply) => {
      void (reply as FastifyReply)
        .headers(headers)
        .code(400)
        .send({ error: error.code === 'FST_ERR_BAD_URL' ? 'The URL is not valid' : 'Bad request' });
    },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket, headers),
    logger,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: JSON_BODY_LIMIT,
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: timeouts.checkEveryMs },
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    maxRequestsPerSocket: Number(process.env.MRPS ?? 0),
    // One line per request, written when it is answered (Fastify's default writes two).
    logController: new LogController({ disableRequestLogging: true }),
  });
  // A line on arrival at debug level: the hook is added only when that level is on, since every
  // hook costs each request something.
  if (options.logger !== false && (config.logLevel === 'debug' || config.logLevel === 'trace')) {
    app.addHook('onRequest', (req, _reply, done) => {
      req.log.debug({ req }, 'incoming request');
      done();
    });
  }
  // The line per answered request, through a child without the redaction: its fields are plain
  // values, which no redacted path (an object's key) can match, so the line is the same, but the
  // wildcard paths no longer run a redactor over each field (some 6% of a /healthz under load).
  // Same stream, same level, same `reqId` as req.log's.
  const accessLog = app.log.child({}, { redact: [] });
  app.addHook('onResponse', (req, reply, done) => {
    accessLog.info(
      {
        reqId: req.id,
        ip: req.ip,
        method: req.method,
        url: req.url,
        statusCode: reply.statusCode,
        responseTime: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request completed',
    );
    done();
  });

  await migrate(handle);
  await ensureFirstAdmin(handle.db, config, app.log, options.announce);
  await purgeExpiredSessions(handle.db, now());
  const services = createServices(config, handle, now);
  // An index imported before the places kept their address parts gets them before the first page.
  const derived = await services.placeIndex.derivePendingAddressParts();
  if (derived) app.log.info(derived, 'places: addresses derived again, their parts kept with them');
  // What searches read from memory is read now, not by the first visitor (a million places: ~1 s).
  await services.placeIndex.feed.reads();
  // What uploads cut short by a crash left behind goes before anything new arrives.
  const swept = await services.media.sweep().catch(() => 0);
  if (swept) app.log.info({ swept }, 'removed the leftovers of interrupted uploads');

  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
  shedLoad(app, options.shedding);
  // Errors outside /api (uploads, pages, hooks) answer like the API's.
  app.setErrorHandler((error, req, reply) => sendError(error, req, reply));
  await app.register(cookie);
  // Text answers over 1 KB (JSON, pages not kept) compressed at levels that cost little CPU
  // (bench/pages.ts measures them); the web app's files come compressed from the build, and a
  // kept page is compressed once (src/pages/page-cache.ts): neither is compressed again here.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY,
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
      },
    },
    zlibOptions: { level: DYNAMIC_GZIP_LEVEL },
  });
  // Per-address limits for the whole site, not per process: counted in memory and shared through
  // the database once a second, or exactly there where the count matters (rate-limit-store.ts).
  const rateLimits = sharedRateLimits(app, handle, now);
  // A read with a site key counts against the key's quota, not the visitor's address.
  await app.register(rateLimit, {
    global: false,
    ...rateLimits.options('api'),
    allowList: (req) => req.siteKey !== null,
  });

  // CORS on the public reads and site keys (src/site-keys/cross-origin.ts).
  const keyCounts = crossOriginReads(app, { config, db: handle.db, usage: services.keyUsage, now });

  // A callback hook, not an async one: no promise per request. Answering here, it does not call done.
  app.addHook('onRequest', (req, reply, done) => {
    const path = req.url;
    if (
      UNSAFE.has(req.method) &&
      (path.startsWith('/api/') || path.startsWith('/trpc/')) &&
      isCrossSite(req, config.publicOrigins)
    ) {
      reply.code(403).send({ error: 'Cross-site requests are not allowed' });
      return;
    }
    done();
  });

  // Answers within about a second whatever the database does (a load balancer is waiting).
  const healthy = (ok: boolean, reply: FastifyReply) =>
    ok ? { ok: true } : reply.code(503).header('Retry-After', '5').send({ ok: false });
  if (handle.dialect === 'sqlite') {
    // SQLite answers at once or throws: no timeout to race.
    const selectOne = handle.sqlite.prepare('select 1');
    app.get('/healthz', async (_req, reply) => {
      try {
        selectOne.get();
        return healthy(true, reply);
      } catch {
        return healthy(false, reply);
      }
    });
  } else {
    // On a connection of its own, never behind the searches in the pool's queue; one probe at a
    // time: while the server hangs, checks share it.
    let probe: Promise<boolean> | null = null;
    app.get('/healthz', async (_req, reply) => {
      probe ??= handle
        .ping()
        .then(
          () => true,
          () => false,
        )
        .finally(() => {
          probe = null;
        });
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 1000);
      });
      const ok = await Promise.race([probe, late]);
      clearTimeout(timer);
      return healthy(ok, reply);
    });
  }

  const limitAll = config.rateLimit;
  await app.register(async (api) => {
    await api.register(multipart, { limits: MULTIPART_LIMITS });
    await api.register(restPlugin, { config, handle, services, now });
  });

  await app.register(async (trpc) => {
    if (limitAll) await trpc.register(rateLimit, { max: 300, timeWindow: 60_000, ...rateLimits.options('trpc') });
    // No procedure takes form data (files go to /api/uploads), and tRPC's adapter throws on a
    // multipart body that Fastify has already parsed (a 500): a 415 before it is reached.
    trpc.addHook('onRequest', async (req, reply) => {
      if (/^multipart\//i.test(req.headers['content-type'] ?? ''))
        return reply.code(415).send({ error: 'Unsupported content type' });
    });
    await trpc.register(fastifyTRPCPlugin, {
      prefix: '/trpc',
      trpcOptions: {
        router: appRouter,
        createContext: ({ req, res }) => createContext({ db: handle.db, config, services, now }, req, res),
        onError: ({ error, path }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error, path }, 'trpc call failed');
        },
      } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
    });
  });

  // The site's own map tiles, when built (src/map/tiles.ts).
  await app.register(tilesPlugin, { file: new TilesFile(config.tilesFile, now), origin: config.publicOrigins[0] });

  // Uploaded media, from the folder or the database store (src/media/serve.ts).
  await app.register(uploadsPlugin, { store: services.media });

  const webRoot = resolve(options.webRoot ?? 'dist/web');
  const hasWeb = existsSync(join(webRoot, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webRoot,
      prefix: '/',
      wildcard: false,
      index: false,
      // the build's .br and .gz siblings, made once when it was built (vite.config.ts)
      preCompressed: true,
      // the template of the pages, with its empty slots, is no page: / is
      allowedPath: (path) => path !== '/index.html',
      setHeaders(res, path) {
        // Vite fingerprints every asset name: they can be cached for good.
        if (path.includes(`${join(webRoot, 'assets')}`))
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });
    // The public pages rendered here, robots.txt and the sitemap; any other path redirects to /.
    await pagesPlugin(app, { db: handle.db, services, origin: config.publicOrigins[0], webRoot, now });
  } else {
    app.setNotFoundHandler((req, reply) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return reply.code(404).send({ error: 'Not found' });
      if (/^\/(api|trpc|uploads|assets|tiles)\//.test(req.url)) return reply.code(404).send({ error: 'Not found' });
      return reply.code(503).type('text/plain').send('The web app is not built: run npm run build');
    });
  }

  // The locator alone for other sites' pages, and the script that puts it there.
  await app.register(embedPlugin, { db: handle.db, csp: headers['content-security-policy'], hasWeb, webRoot });

  // While closing, answers in flight tell keep-alive clients to hang up, so close() is not
  // left waiting for their idle connections.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  // UPDATE_INTERVAL: the site applies its replication feeds itself, one process or node at a time.
  const stopUpdates = config.updateIntervalMs
    ? startUpdateTimer(handle.db, services.replication, config.updateIntervalMs, app.log)
    : null;

  app.addHook('onClose', async () => {
    stopUpdates?.();
    await services.searchStats.flush();
    await services.outbound.close();
    await keyCounts.close();
    await handle.close();
  });
  return app;
}

/**
 * What Node's HTTP parser refuses (headers too large, a broken request line, an unknown method)
 * never reaches Fastify's routing: it is answered here, on the raw socket, in the contract's shape
 * with the security headers, and the connection is closed.
 */
function answerClientError(
  error: NodeJS.ErrnoException,
  socket: import('node:net').Socket,
  headers: Readonly<Record<string, string>>,
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'The request headers are too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long']
        : [400, 'Bad Request', 'The request is not valid HTTP'];
  const body = JSON.stringify({ error: message });
  const lines = Object.entries({
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${lines}\r\n\r\n${body}`);
}
