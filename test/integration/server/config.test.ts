import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_OVERPASS_URL, loadConfig } from '../../../src/config.js';
import { SERVER_ARGS } from '../../support/server-process.js';

describe('config', () => {
  it('has the defaults of CONTRACT.md', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      database: { kind: 'sqlite', path: 'data/app.db' },
      uploadDir: 'data/uploads',
      adminUsername: 'admin',
      adminPassword: null,
      overpassUrl: DEFAULT_OVERPASS_URL,
      publicOrigins: ['http://localhost:3000'],
      secure: false,
      trustProxy: { kind: 'addresses', list: ['loopback'] },
      rateLimit: true,
      logLevel: 'info',
      databasePool: 10,
      webConcurrency: 1,
      mediaStore: 'folder',
      replicationUrl: null,
      updateIntervalMs: null,
      tilesFile: 'data/tiles.mbtiles',
    });
    expect(Object.isFrozen(config)).toBe(true);
    // on PostgreSQL, uploads live in the database by default: every node serves them
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).mediaStore).toBe('database');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@localhost:5432/db',
      UPLOAD_DIR: '/srv/uploads',
      ADMIN_USERNAME: 'root.admin',
      ADMIN_PASSWORD: 'a long enough password',
      OVERPASS_URL: 'off',
      PUBLIC_ORIGIN: 'https://places.example.org, https://www.places.example.org',
      TRUST_PROXY: 'on',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      DATABASE_POOL: '25',
      WEB_CONCURRENCY: '3',
      MEDIA_STORE: 'folder',
      REPLICATION_URL: 'https://download.geofabrik.de/europe/monaco-updates',
      UPDATE_INTERVAL: '15m',
      TILES_FILE: '/srv/map/site.mbtiles',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      database: { kind: 'postgres', url: 'postgres://u:p@localhost:5432/db' },
      uploadDir: '/srv/uploads',
      adminUsername: 'root.admin',
      adminPassword: 'a long enough password',
      overpassUrl: null,
      publicOrigins: ['https://places.example.org', 'https://www.places.example.org'],
      secure: true,
      trustProxy: { kind: 'all' },
      rateLimit: false,
      logLevel: 'warn',
      databasePool: 25,
      webConcurrency: 3,
      mediaStore: 'folder',
      replicationUrl: 'https://download.geofabrik.de/europe/monaco-updates',
      updateIntervalMs: 15 * 60_000,
      tilesFile: '/srv/map/site.mbtiles',
    });
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ kind: 'hops', hops: 2 });
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toEqual({ kind: 'none' });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,::1' }).trustProxy).toEqual({
      kind: 'addresses',
      list: ['10.0.0.0/8', '192.168.1.5', '::1'],
    });
    expect(loadConfig({ WEB_CONCURRENCY: 'auto' }).webConcurrency).toBe(availableParallelism());
    expect(loadConfig({ UPDATE_INTERVAL: '1h' }).updateIntervalMs).toBe(3_600_000);
    expect(loadConfig({ UPDATE_INTERVAL: '1d' }).updateIntervalMs).toBe(86_400_000);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['ADMIN_USERNAME', 'A'],
    ['ADMIN_PASSWORD', 'short'],
    ['OVERPASS_URL', 'ftp://x'],
    ['PUBLIC_ORIGIN', 'localhost:3000'],
    ['PUBLIC_ORIGIN', 'https://x.org/path'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '10.0.0.0/40'],
    ['TRUST_PROXY', '300.1.1.1'],
    ['RATE_LIMIT', 'sometimes'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_POOL', '0'],
    ['WEB_CONCURRENCY', 'many'],
    ['WEB_CONCURRENCY', '0'],
    ['MEDIA_STORE', 's3'],
    ['REPLICATION_URL', 'file:///srv/feed'],
    ['UPDATE_INTERVAL', 'hourly'],
    ['UPDATE_INTERVAL', '30s'],
    ['TILES_FILE', 'data/tiles.pmtiles'],
  ])('refuses %s=%s with a line naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name}: invalid value; expected`));
  });

  it('stops the start-up with one line naming the variable', () => {
    const result = spawnSync(process.execPath, SERVER_ARGS, {
      env: { ...process.env, PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT: invalid value; expected a port number/);
  });
});
