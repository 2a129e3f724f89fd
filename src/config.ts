// Environment -> one typed, frozen config. A bad value stops start-up with one line that names
// the variable and what it accepts (docs/operating/configuration.md).
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseOutboundAllow, type OutboundAllow } from './net/outbound.js';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';

export const DEFAULT_OVERPASS_URL = 'https://overpass-api.de/api/interpreter';

export type DatabaseUrl = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  database: DatabaseUrl;
  uploadDir: string;
  adminUsername: string;
  adminPassword: string | null;
  /** null when the live source is off */
  overpassUrl: string | null;
  /** The site's own origins; the first one builds absolute links. */
  publicOrigins: string[];
  /** Whether the site is served over https (cookies get Secure). */
  secure: boolean;
  /** whose X-Forwarded-For to believe (src/trust-proxy.ts) */
  trustProxy: TrustProxy;
  rateLimit: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Folder for files the server writes beside the database (initial admin password). */
  dataDir: string;
  /** PostgreSQL connections per process */
  databasePool: number;
  /** server processes on the one port */
  webConcurrency: number;
  /** where uploaded media live */
  mediaStore: 'folder' | 'database';
  /** REPLICATION_URL: the OSM replication feed to follow when the imported data names none */
  replicationUrl: string | null;
  /** UPDATE_INTERVAL in ms: how often the server applies replication updates itself; null when off */
  updateIntervalMs: number | null;
  /** TILES_FILE: the site's own map tiles (.mbtiles), built by `npm run tiles`, served at /tiles */
  tilesFile: string;
  /** CORS_ORIGINS: which other sites' pages may read the public API without a key */
  corsOrigins: '*' | 'off' | readonly string[];
  /** OUTBOUND_ALLOW: private hosts and ranges that URLs from the admin or from imported data may reach */
  outboundAllow: OutboundAllow;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function fail(name: string, accepts: string): never {
  throw new ConfigError(`${name}: invalid value; expected ${accepts}`);
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `15m`, `1h`, `1d` → ms; undefined when unreadable or under a minute (no feed publishes faster). */
function parseInterval(text: string): number | undefined {
  const match = /^(\d{1,5})\s*(m|min|h|d)$/.exec(text);
  if (!match) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2][0]];
  return ms >= 60_000 ? ms : undefined;
}

/** The User-Agent the site's requests to outside services carry (Overpass, replication feeds). */
export function siteUserAgent(config: Pick<Config, 'publicOrigins'>): string {
  return `nearby-place-finder/0.1 (+${config.publicOrigins[0]})`;
}

function httpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

export function parseDatabaseUrl(value: string): DatabaseUrl | null {
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    return path ? { kind: 'sqlite', path } : null;
  }
  if (/^postgres(ql)?:\/\/.+/.test(value)) return { kind: 'postgres', url: value };
  return null;
}

/** Reads `.env` (when present) without overriding variables already set. */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const get = (name: string) => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };

  const portText = get('PORT') ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 1 || port > 65535) fail('PORT', 'a port number from 1 to 65535');

  const host = get('HOST') ?? '127.0.0.1';
  if (/\s/.test(host)) fail('HOST', 'a host name or IP address to listen on');

  const database = parseDatabaseUrl(get('DATABASE_URL') ?? 'sqlite:data/app.db');
  if (!database) fail('DATABASE_URL', 'sqlite:<path> or postgres://user:pass@host:port/db');

  const adminUsername = get('ADMIN_USERNAME') ?? 'admin';
  if (!/^[a-z0-9._-]{3,32}$/.test(adminUsername)) {
    fail('ADMIN_USERNAME', '3 to 32 characters of a-z 0-9 . _ -');
  }
  const adminPassword = env.ADMIN_PASSWORD ? env.ADMIN_PASSWORD : null;
  if (adminPassword !== null && (adminPassword.length < 12 || adminPassword.length > 128)) {
    fail('ADMIN_PASSWORD', 'a password of 12 to 128 characters');
  }

  const overpassText = get('OVERPASS_URL') ?? DEFAULT_OVERPASS_URL;
  const overpassUrl = overpassText === 'off' ? null : (httpUrl(overpassText)?.toString() ?? null);
  if (overpassText !== 'off' && !overpassUrl) fail('OVERPASS_URL', "an http(s) URL or 'off'");

  const originText = get('PUBLIC_ORIGIN') ?? `http://localhost:${port}`;
  const publicOrigins = originText.split(',').map((part) => {
    const url = httpUrl(part.trim());
    if (!url || url.pathname !== '/' || url.search || url.hash) {
      fail('PUBLIC_ORIGIN', 'comma-separated origins such as https://example.org');
    }
    return url.origin;
  });

  const trustProxy = parseTrustProxy(get('TRUST_PROXY'));
  if (!trustProxy)
    fail(
      'TRUST_PROXY',
      'off, on, a hop count from 1 to 99, or comma-separated proxy addresses and CIDR ranges (or loopback)',
    );

  const rateText = (get('RATE_LIMIT') ?? 'on').toLowerCase();
  if (rateText !== 'on' && rateText !== 'off') fail('RATE_LIMIT', "'on' or 'off'");

  const logLevel = (get('LOG_LEVEL') ?? 'info').toLowerCase() as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) fail('LOG_LEVEL', LOG_LEVELS.join(', '));

  const poolText = get('DATABASE_POOL') ?? '10';
  const databasePool = Number(poolText);
  if (!/^\d+$/.test(poolText) || databasePool < 1 || databasePool > 1000)
    fail('DATABASE_POOL', 'a number of connections from 1 to 1000');

  const concurrencyText = (get('WEB_CONCURRENCY') ?? '1').toLowerCase();
  const webConcurrency = concurrencyText === 'auto' ? availableParallelism() : Number(concurrencyText);
  if (concurrencyText !== 'auto' && (!/^\d+$/.test(concurrencyText) || webConcurrency < 1 || webConcurrency > 256)) {
    fail('WEB_CONCURRENCY', "a number of processes from 1 to 256, or 'auto'");
  }

  const mediaText = (get('MEDIA_STORE') ?? (database.kind === 'postgres' ? 'database' : 'folder')).toLowerCase();
  if (mediaText !== 'folder' && mediaText !== 'database') fail('MEDIA_STORE', "'folder' or 'database'");

  const replicationText = get('REPLICATION_URL');
  const replicationUrl = replicationText === undefined ? null : (httpUrl(replicationText)?.toString() ?? null);
  if (replicationText !== undefined && !replicationUrl)
    fail('REPLICATION_URL', 'the http(s) base URL of an OSM replication feed');

  const intervalText = (get('UPDATE_INTERVAL') ?? 'off').toLowerCase();
  const updateIntervalMs = intervalText === 'off' ? null : parseInterval(intervalText);
  if (updateIntervalMs === undefined)
    fail('UPDATE_INTERVAL', "'off' or a duration of at least a minute such as 15m, 1h or 1d");

  const tilesFile = get('TILES_FILE') ?? 'data/tiles.mbtiles';
  if (!/\.mbtiles$/.test(tilesFile)) fail('TILES_FILE', 'the path of an .mbtiles file (built by npm run tiles)');

  const corsText = get('CORS_ORIGINS') ?? '*';
  const corsOrigins =
    corsText === '*' || corsText.toLowerCase() === 'off'
      ? (corsText.toLowerCase() as '*' | 'off')
      : corsText.split(',').map((part) => {
          const url = httpUrl(part.trim());
          if (!url || url.pathname !== '/' || url.search || url.hash || url.username)
            fail('CORS_ORIGINS', "'*', 'off', or comma-separated origins such as https://example.org");
          return url.origin;
        });

  const outboundAllow = parseOutboundAllow(get('OUTBOUND_ALLOW'));
  if (!outboundAllow)
    fail('OUTBOUND_ALLOW', 'comma-separated host names, IP addresses and CIDR ranges such as mirror.lan,10.0.0.0/8');

  return Object.freeze({
    port,
    host,
    database,
    uploadDir: get('UPLOAD_DIR') ?? 'data/uploads',
    adminUsername,
    adminPassword,
    overpassUrl,
    publicOrigins,
    secure: publicOrigins[0].startsWith('https:'),
    trustProxy,
    rateLimit: rateText === 'on',
    logLevel,
    dataDir: 'data',
    databasePool,
    webConcurrency,
    mediaStore: mediaText as Config['mediaStore'],
    replicationUrl,
    updateIntervalMs,
    tilesFile,
    corsOrigins,
    outboundAllow,
  });
}
