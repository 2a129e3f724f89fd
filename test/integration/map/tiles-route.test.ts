// GET /tiles/{z}/{x}/{y}.pbf and /tiles.json over a small .mbtiles made here: TMS rows flipped,
// gzip sent as stored, ETag and 304, 204 for a missing tile, 400 outside the pyramid, and a
// rebuilt file served without a restart.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import SQLite from '../../../db/sqlite-driver.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers.js';

let t: TestApp;
let file: string;

/** An .mbtiles with one gzipped tile per [z, x, y] (XYZ), whose content names its address. */
function writeMbtiles(path: string, tiles: [number, number, number][], name = 'test tiles'): void {
  const db = new SQLite(path);
  db.exec(
    'create table metadata (name text, value text); create table tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)',
  );
  const meta = db.prepare('insert into metadata values (?, ?)');
  for (const [key, value] of Object.entries({
    name,
    minzoom: '0',
    maxzoom: '14',
    bounds: '7.40,43.72,7.44,43.75',
    center: '7.42,43.73,14',
    json: JSON.stringify({ vector_layers: [{ id: 'water', fields: {} }] }),
  }))
    meta.run(key, value);
  const insert = db.prepare('insert into tiles values (?, ?, ?, ?)');
  for (const [z, x, y] of tiles) insert.run(z, x, 2 ** z - 1 - y, gzipSync(`tile ${z}/${x}/${y} of ${name}`));
  db.close();
}

beforeEach(async () => {
  t = await buildTestApp();
  file = t.config.tilesFile;
});
afterEach(() => t.close());

const get = (url: string, headers: Record<string, string> = { 'accept-encoding': 'gzip, br' }) =>
  t.app.inject({ method: 'GET', url, headers });

describe('the tiles routes', () => {
  it('say plainly that no tiles are built', async () => {
    // The pages ask for the TileJSON to choose their base map: no content, no error.
    const tileJson = await get('/tiles.json');
    expect(tileJson.statusCode).toBe(204);
    expect(tileJson.body).toBe('');
    const tile = await get('/tiles/0/0/0.pbf');
    expect(tile.statusCode).toBe(404);
    expect(tile.json()).toEqual({ error: 'The map tiles are not built (npm run tiles)' });
  });

  it('serve a tile from its TMS row, gzip as stored, with long caching and an ETag', async () => {
    writeMbtiles(file, [
      [14, 8508, 5975],
      [1, 0, 0],
    ]);
    const response = await get('/tiles/14/8508/5975.pbf');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    expect(response.headers.vary).toBe('Accept-Encoding');
    // inject does not unpack: the body is the stored gzip
    expect(response.rawPayload.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(Buffer.from(response.rawPayload).equals(gzipSync('tile 14/8508/5975 of test tiles'))).toBe(true);
    // z1: XYZ row 0 is TMS row 1; the other row has no tile
    expect((await get('/tiles/1/0/0.pbf')).statusCode).toBe(200);
    expect((await get('/tiles/1/0/1.pbf')).statusCode).toBe(204);

    const etag = response.headers.etag as string;
    expect(etag).toMatch(/^".+-14-8508-5975"$/);
    const again = await get('/tiles/14/8508/5975.pbf', { 'if-none-match': etag, 'accept-encoding': 'gzip' });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('unpack the tile for a client that takes no gzip', async () => {
    writeMbtiles(file, [[2, 1, 1]]);
    const response = await get('/tiles/2/1/1.pbf', {});
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('tile 2/1/1 of test tiles');
  });

  it('answer 204 with no body for a missing tile and 400 outside the pyramid', async () => {
    writeMbtiles(file, [[0, 0, 0]]);
    const missing = await get('/tiles/14/0/0.pbf');
    expect(missing.statusCode).toBe(204);
    expect(missing.body).toBe('');
    for (const url of [
      '/tiles/1/2/0.pbf',
      '/tiles/1/0/2.pbf',
      '/tiles/25/0/0.pbf',
      '/tiles/a/0/0.pbf',
      '/tiles/1/0/0.png',
      '/tiles/1/-1/0.pbf',
      '/tiles/0/0/0.pbf.gz',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error).toMatch(/outside the map/);
    }
    expect((await get('/tiles/1/0')).statusCode).toBe(404);
  });

  it('treat a file that is no .mbtiles as no tiles, and serve it once it is replaced by one', async () => {
    writeFileSync(file, 'half a copied file');
    expect((await get('/tiles.json')).statusCode).toBe(204);
    expect((await get('/tiles/0/0/0.pbf')).statusCode).toBe(404);
    const rebuilt = join(t.dir, 'rebuilt.mbtiles');
    writeMbtiles(rebuilt, [[0, 0, 0]]);
    renameSync(rebuilt, file);
    t.clock.advance(1_500);
    expect((await get('/tiles/0/0/0.pbf')).statusCode).toBe(200);
  });

  it('describe the tiles in a TileJSON', async () => {
    writeMbtiles(file, [[0, 0, 0]]);
    const response = await get('/tiles.json');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      tilejson: '3.0.0',
      name: 'test tiles',
      description: '',
      version: '1.0.0',
      attribution: '© OpenMapTiles © OpenStreetMap contributors',
      scheme: 'xyz',
      tiles: [`${t.config.publicOrigins[0]}/tiles/{z}/{x}/{y}.pbf`],
      minzoom: 0,
      maxzoom: 14,
      bounds: [7.4, 43.72, 7.44, 43.75],
      center: [7.42, 43.73, 14],
      vector_layers: [{ id: 'water', fields: {} }],
    });
  });

  it('serve a rebuilt file without a restart, with new ETags', async () => {
    writeMbtiles(file, [[3, 4, 2]], 'first build');
    const first = await get('/tiles/3/4/2.pbf');
    expect(first.statusCode).toBe(200);
    // A rebuild writes a new file beside it and renames it into place (npm run tiles).
    const rebuilt = join(t.dir, 'rebuilt.mbtiles');
    writeMbtiles(rebuilt, [[3, 4, 2]], 'second build');
    renameSync(rebuilt, file);
    t.clock.advance(1_500); // the file is looked at again at most once a second
    const second = await get('/tiles/3/4/2.pbf', {});
    expect(second.body).toBe('tile 3/4/2 of second build');
    expect(second.headers.etag).not.toBe(first.headers.etag);
    expect((await get('/tiles.json')).json().name).toBe('second build');
  });

  it('need no new Content-Security-Policy source for any base map', async () => {
    const csp = async () => String((await get('/tiles.json')).headers['content-security-policy']);
    const before = await csp();
    const cookie = await t.login();
    const saved = await t.request({
      method: 'POST',
      url: '/api/settings',
      cookie,
      payload: {
        map_base: 'provider',
        map_provider_url: 'https://tiles.example.org/{z}/{x}/{y}.png',
        map_provider_attribution: '© Example',
      },
    });
    expect(saved.statusCode).toBe(200);
    // own tiles: fetched from 'self'; a provider's: images, which img-src already takes over https
    expect(await csp()).toBe(before);
    expect(before).toContain("connect-src 'self';");
    expect(before).toMatch(/img-src [^;]*https:/);
    expect(before).not.toContain('*');
  });
});
