// npm run tiles' build with the real tilemaker (Debian's, installed by .ci/run) on real extracts:
// Monaco's layers and a decoded tile; Vancouver 2015, whose ways name nodes the file lacks; a
// failed build that leaves the served file alone; the message when tilemaker is missing.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTiles, type BuildSummary } from '../../../src/map/build.js';
import { openMbtiles } from '../../../src/map/mbtiles.js';
import { SHARED_DATA } from '../../helpers.js';
import { writePolygonShapefile } from './shapefile.js';

const MONACO = join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf');
const VANCOUVER = join(SHARED_DATA, 'vancouver_canada-2015.osm.pbf');

let dir: string;
let monaco: BuildSummary;
const phases: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tiles-build-'));
  monaco = await buildTiles({ input: MONACO, output: join(dir, 'monaco.mbtiles'), progress: ({ phase }) => phases.push(phase) });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run tiles', () => {
  it("builds Monaco's tiles with the OpenMapTiles layers, and leaves no temporary file", () => {
    expect(monaco.tiles).toBeGreaterThan(10);
    expect(monaco.bytes).toBeGreaterThan(100_000);
    expect(monaco.repaired).toBe(false);
    expect(monaco.layers).toEqual(expect.arrayContaining(['water', 'landuse', 'landcover', 'park', 'transportation', 'transportation_name', 'building', 'boundary', 'place']));
    expect(phases).toContain('writing tiles');
    expect(readdirSync(dir)).toEqual(['monaco.mbtiles']);
    const reader = openMbtiles(join(dir, 'monaco.mbtiles'));
    try {
      expect(reader.metadata()).toMatchObject({ minzoom: '0', maxzoom: '14', format: 'pbf' });
      // The metadata of the profile named an example.com address: the site's TileJSON says where tiles are.
      expect(reader.metadata().json).not.toMatch(/example\.com/);
    } finally {
      reader.close();
    }
  });

  it('writes tiles a vector tile reader decodes, with names in the site languages', () => {
    const reader = openMbtiles(join(dir, 'monaco.mbtiles'));
    try {
      // Monaco-Ville and the port, at zoom 14 (XYZ address: the reader flips the TMS row)
      const data = reader.tile(14, 8529, 5974);
      expect(data).toBeDefined();
      const tile = new VectorTile(new Pbf(gunzipSync(data!)));
      expect(Object.keys(tile.layers)).toEqual(expect.arrayContaining(['transportation', 'building', 'water', 'place']));
      const roads = Array.from({ length: tile.layers.transportation.length }, (_, i) => tile.layers.transportation.feature(i).properties.class);
      expect(roads).toEqual(expect.arrayContaining(['primary', 'minor']));
      const places = Array.from({ length: tile.layers.place.length }, (_, i) => tile.layers.place.feature(i).properties);
      // name:latin always; a language's own name where OSM has one that differs
      expect(places).toContainEqual(expect.objectContaining({ class: 'city', 'name:latin': 'Monaco', 'name:es': 'Mónaco', 'name:pt': 'Mónaco' }));
    } finally {
      reader.close();
    }
  });

  it('draws the sea from a coastline folder holding water_polygons.shp', async () => {
    const coastline = mkdtempSync(join(tmpdir(), 'coastline-'));
    try {
      // The sea off Monaco, clockwise (a shapefile's outer ring)
      writePolygonShapefile(coastline, 'water_polygons', [[7.43, 43.735], [7.5, 43.735], [7.5, 43.7], [7.43, 43.7], [7.43, 43.735]]);
      const summary = await buildTiles({ input: MONACO, output: join(dir, 'coast.mbtiles'), coastline });
      const reader = openMbtiles(join(dir, 'coast.mbtiles'));
      try {
        const tile = new VectorTile(new Pbf(gunzipSync(reader.tile(14, 8530, 5974)!)));
        const water = tile.layers.water;
        const classes = Array.from({ length: water.length }, (_, i) => water.feature(i).properties.class);
        expect(classes).toContain('ocean');
      } finally {
        reader.close();
      }
      expect(summary.tiles).toBeGreaterThan(monaco.tiles);
    } finally {
      rmSync(coastline, { recursive: true, force: true });
    }
  }, 120_000);

  it('builds Vancouver 2015 without the node references its ways make to nodes it lacks', async () => {
    const summary = await buildTiles({ input: VANCOUVER, output: join(dir, 'vancouver.mbtiles') });
    expect(summary.repaired).toBe(true);
    expect(summary.tiles).toBeGreaterThan(100);
    expect(summary.layers).toContain('transportation');
  }, 120_000);

  it('leaves the served file as it was when a build fails, with one line saying why', async () => {
    const served = join(dir, 'served.mbtiles');
    writeFileSync(served, 'the tiles being served');
    const broken = join(dir, 'broken.osm.pbf');
    writeFileSync(broken, 'not a pbf at all');
    const error = await buildTiles({ input: broken, output: served }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(`tilemaker wrote no tiles from ${broken}: is it an empty extract, or no .osm.pbf at all?`);
    expect((error as Error).message).not.toMatch(/\n|terminate called/);
    expect(readFileSync(served, 'utf8')).toBe('the tiles being served');
    expect(readdirSync(dir).filter((name) => name.startsWith('.tiles-build-'))).toEqual([]);
    rmSync(broken);
  });

  it('says how to install tilemaker when it is missing, and refuses what it cannot read', async () => {
    await expect(buildTiles({ input: MONACO, output: join(dir, 'x.mbtiles'), tilemaker: 'tilemaker-not-installed' })).rejects.toThrow(
      'tilemaker is not installed: sudo apt-get install tilemaker osmium-tool',
    );
    // No C++ stack: one line on what is wrong with the file and how to get it built.
    await expect(buildTiles({ input: VANCOUVER, output: join(dir, 'x.mbtiles'), osmium: 'osmium-not-installed' })).rejects.toThrow(
      /^the extract's ways use nodes it does not hold \(node \d+, for one\): it was cut without complete ways\. Install osmium-tool .* or download an extract cut with complete ways/,
    );
    await expect(buildTiles({ input: join(dir, 'none.osm.pbf'), output: join(dir, 'x.mbtiles') })).rejects.toThrow(/none\.osm\.pbf: no such file/);
    await expect(buildTiles({ input: MONACO, output: join(dir, 'x.mbtiles'), coastline: dir })).rejects.toThrow(/no water_polygons\.shp there; download/);
    expect(existsSync(join(dir, 'x.mbtiles'))).toBe(false);
  });
});
