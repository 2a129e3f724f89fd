// npm run tiles' build with the real tilemaker, osmium, osmcoastline and ogr2ogr (Debian's,
// installed by .ci/run) on real extracts: Monaco and Andorra in one map (a decoded tile from each,
// and a low zoom holding both), the sea from Monaco's own coastline (its harbour sea, its rock
// land) and from Vancouver's (False Creek and Burrard Inlet), closed along their boxes into rings
// osmcoastline takes without a warning; Vancouver 2015, whose ways name nodes the file lacks;
// ready-made water polygons; a failed build that leaves the served file alone; what is said when
// a tool is missing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile, type VectorTileLayer } from '@mapbox/vector-tile';
import Pbf from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTiles, readCoastlineWays, writeCoastlineFile, type BuildSummary } from '../../../src/map/build.js';
import {
  assembleCoastline,
  landRings,
  signedArea,
  type Box,
  type Point,
  type Ring,
} from '../../../src/map/coastline.js';
import { openMbtiles, type MbtilesReader } from '../../../src/map/mbtiles.js';
import { SHARED_DATA } from '../../helpers.js';

const MONACO = join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf');
const ANDORRA = join(SHARED_DATA, 'andorra-2021-04-14.osm.pbf');
const VANCOUVER = join(SHARED_DATA, 'vancouver_canada-2015.osm.pbf');
const MONACO_BOX: Box = { west: 7.409205, south: 43.72335, east: 7.448637, north: 43.75169 };
const VANCOUVER_BOX: Box = { west: -123.29, south: 49.195, east: -123.02, north: 49.32 };

/** The tile at zoom z holding a point, in XYZ order, and where in it the point falls (0..1). */
function tileOf([lon, lat]: Point, z: number) {
  const x = ((lon + 180) / 360) * 2 ** z;
  const rad = (lat * Math.PI) / 180;
  const y = ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * 2 ** z;
  return { x: Math.floor(x), y: Math.floor(y), fx: x - Math.floor(x), fy: y - Math.floor(y) };
}

function decode(reader: MbtilesReader, z: number, x: number, y: number): VectorTile {
  const data = reader.tile(z, x, y);
  expect(data, `tile ${z}/${x}/${y}`).toBeDefined();
  return new VectorTile(new Pbf(gunzipSync(data!)));
}

const features = (layer: VectorTileLayer | undefined) =>
  layer ? Array.from({ length: layer.length }, (_, i) => layer.feature(i)) : [];

/** Whether the zoom 14 tile's ocean polygons cover a point (even-odd over each feature's rings). */
function isOcean(reader: MbtilesReader, point: Point): boolean {
  const { x, y, fx, fy } = tileOf(point, 14);
  const ocean = features(decode(reader, 14, x, y).layers.water).filter(
    (feature) => feature.properties.class === 'ocean',
  );
  return ocean.some((feature) => {
    const [px, py] = [fx * feature.extent, fy * feature.extent];
    let inside = false;
    for (const ring of feature.loadGeometry()) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        if (
          ring[i].y > py !== ring[j].y > py &&
          px < ((ring[j].x - ring[i].x) * (py - ring[i].y)) / (ring[j].y - ring[i].y) + ring[i].x
        )
          inside = !inside;
      }
    }
    return inside;
  });
}

/** Monaco's harbours and open sea are sea; the rock, Monte-Carlo and Fontvieille are land. */
function expectMonacoSea(reader: MbtilesReader) {
  expect(isOcean(reader, [7.4265, 43.735])).toBe(true); // Port Hercule
  expect(isOcean(reader, [7.44, 43.73])).toBe(true); // the open sea
  expect(isOcean(reader, [7.44, 43.744])).toBe(true); // off Larvotto
  expect(isOcean(reader, [7.4185, 43.7305])).toBe(true); // the port of Fontvieille
  expect(isOcean(reader, [7.423, 43.731])).toBe(false); // the rock, Monaco-Ville
  expect(isOcean(reader, [7.427, 43.74])).toBe(false); // Monte-Carlo
  expect(isOcean(reader, [7.416, 43.729])).toBe(false); // Fontvieille
}

/** Whether two segments cross at a point inside both (touching ends excluded). */
function cross(a: Point, b: Point, c: Point, d: Point): boolean {
  const side = (p: Point, q: Point, r: Point) =>
    Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  return side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0;
}

/** What is wrong with land rings as osmcoastline takes them, or null: each closed, counter-clockwise, none crossing. */
function ringsProblem(rings: Ring[]): string | null {
  if (rings.some((ring) => ring.length < 4 || ring[0][0] !== ring.at(-1)![0] || ring[0][1] !== ring.at(-1)![1]))
    return 'a ring is not closed';
  if (rings.some((ring) => signedArea(ring) <= 0)) return 'a ring runs the wrong way';
  const segments = rings.flatMap((ring) => ring.slice(1).map((point, i): [Point, Point] => [ring[i], point]));
  for (let i = 0; i < segments.length; i++) {
    for (let j = i + 1; j < segments.length; j++)
      if (cross(...segments[i], ...segments[j])) return `segments ${i} and ${j} cross`;
  }
  return null;
}

let dir: string;
let both: BuildSummary;
const phases: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tiles-build-'));
  both = await buildTiles({
    inputs: [MONACO, ANDORRA],
    output: join(dir, 'both.mbtiles'),
    progress: ({ phase }) => phases.push(phase),
  });
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run tiles', () => {
  it('builds Monaco and Andorra into one tiles file with the OpenMapTiles layers, and leaves no temporary file', () => {
    expect(both.tiles).toBeGreaterThan(300);
    expect(both.bytes).toBeGreaterThan(1_000_000);
    expect(both.repaired).toBe(false);
    expect(both.layers).toEqual(
      expect.arrayContaining([
        'water',
        'landuse',
        'landcover',
        'park',
        'transportation',
        'transportation_name',
        'building',
        'boundary',
        'place',
      ]),
    );
    expect(phases).toEqual(
      expect.arrayContaining(['merging 2 extracts', 'drawing the sea from the coastline', 'writing tiles']),
    );
    expect(readdirSync(dir)).toEqual(['both.mbtiles']);
    // Andorra has no coast; Monaco's closes into the sea (with its islet as a hole). Left out: the
    // tip of a breakwater cut 10 m from the south edge, whose way to it runs round the back of the coast.
    expect(both.sea).toBe('coastline');
    expect(both.seaPolygons).toBeGreaterThanOrEqual(1);
    expect(both.droppedCoastlines).toBe(1);
    // What both extracts cover (their header boxes): the maps open on it.
    expect(both.bounds).toEqual([1.412368, 42.4276, 7.448637, 43.75169]);
    const reader = openMbtiles(join(dir, 'both.mbtiles'));
    try {
      const metadata = reader.metadata();
      expect(metadata).toMatchObject({
        minzoom: '0',
        maxzoom: '14',
        format: 'pbf',
        bounds: '1.412368,42.4276,7.448637,43.75169',
      });
      const [lon, lat, zoom] = metadata.center.split(',').map(Number);
      expect(lon).toBeCloseTo(4.4305, 3);
      expect(lat).toBeCloseTo(43.0896, 3);
      expect(zoom).toBe(6);
      // The metadata of the profile named an example.com address: the site's TileJSON says where tiles are.
      expect(metadata.json).not.toMatch(/example\.com/);
    } finally {
      reader.close();
    }
  });

  it('writes tiles of both regions, with names in the site languages, and low zooms that hold both', () => {
    const reader = openMbtiles(join(dir, 'both.mbtiles'));
    try {
      // Monaco-Ville and the port, at zoom 14
      const monaco = decode(reader, 14, 8529, 5974);
      expect(Object.keys(monaco.layers)).toEqual(
        expect.arrayContaining(['transportation', 'building', 'water', 'place']),
      );
      expect(features(monaco.layers.transportation).map((f) => f.properties.class)).toEqual(
        expect.arrayContaining(['primary', 'minor']),
      );
      // name:latin always; a language's own name where OSM has one that differs
      expect(features(monaco.layers.place).map((f) => f.properties)).toContainEqual(
        expect.objectContaining({ class: 'city', 'name:latin': 'Monaco', 'name:es': 'Mónaco', 'name:pt': 'Mónaco' }),
      );
      // Andorra la Vella, at zoom 14
      const { x, y } = tileOf([1.5218, 42.5063], 14);
      const andorra = decode(reader, 14, x, y);
      expect(features(andorra.layers.building).length).toBeGreaterThan(50);
      expect(features(andorra.layers.water).map((f) => f.properties.class)).not.toContain('ocean');
      // Zoom 5: one tile holds both countries, and Monaco's sea.
      const [a, m] = [tileOf([1.5218, 42.5063], 5), tileOf([7.4246, 43.7384], 5)];
      expect([a.x, a.y]).toEqual([m.x, m.y]);
      const low = decode(reader, 5, a.x, a.y);
      const countries = features(low.layers.place).filter((f) => f.properties.class === 'country');
      expect(countries.map((f) => f.properties.iso_a2).sort()).toEqual(['AD', 'MC']);
      expect(features(low.layers.water).map((f) => f.properties.class)).toContain('ocean');
    } finally {
      reader.close();
    }
  });

  it("draws Monaco's sea from its own coastline: the harbour and the open sea are sea, the rock and the town are not", () => {
    const reader = openMbtiles(join(dir, 'both.mbtiles'));
    try {
      expectMonacoSea(reader);
    } finally {
      reader.close();
    }
  });

  it('draws the sea of two coastal extracts, each closed along its own box, into one map', async () => {
    // Monaco cut in two at 7.428 (through Port Hercule's east side), each half's box in its header.
    const halves = [
      ['west', '7.409205,43.72335,7.428,43.75169'],
      ['east', '7.428,43.72335,7.448637,43.75169'],
    ].map(([name, box]) => {
      const file = join(dir, `${name}.osm.pbf`);
      const cut = spawnSync('osmium', ['extract', '--set-bounds', '-b', box, MONACO, '-o', file], {
        encoding: 'utf8',
      });
      expect(cut.status, cut.stderr).toBe(0);
      return file;
    });
    const summary = await buildTiles({ inputs: halves, output: join(dir, 'halves.mbtiles') });
    expect(summary.sea).toBe('coastline');
    expect(summary.seaPolygons).toBeGreaterThanOrEqual(2);
    expect(summary.bounds).toEqual([7.409205, 43.72335, 7.448637, 43.75169]);
    const reader = openMbtiles(join(dir, 'halves.mbtiles'));
    try {
      expectMonacoSea(reader);
    } finally {
      reader.close();
    }
    for (const file of halves) rmSync(file);
  }, 120_000);

  it('closes the coasts of Monaco and Vancouver into land rings that osmcoastline takes without a warning', async () => {
    for (const [extract, box, left] of [
      [MONACO, MONACO_BOX, 1],
      [VANCOUVER, VANCOUVER_BOX, 0],
    ] as const) {
      const { rings, dropped } = landRings(assembleCoastline(await readCoastlineWays('osmium', extract, dir)), box);
      expect(dropped).toBe(left);
      expect(rings.length).toBeGreaterThan(0);
      expect(ringsProblem(rings)).toBeNull();
      const coastFile = join(dir, 'coastline.opl');
      writeCoastlineFile(coastFile, rings);
      const osmcoastline = spawnSync(
        'osmcoastline',
        ['-p', 'water', '-g', 'ESRI Shapefile', '-c', '0', '-f', '-o', join(dir, 'osmcoastline'), coastFile],
        { encoding: 'utf8' },
      );
      // 0: no warning, no error (1 and 2 would be osmcoastline's complaints about the rings)
      expect(osmcoastline.status, osmcoastline.stderr).toBe(0);
      rmSync(join(dir, 'osmcoastline'), { recursive: true });
      rmSync(coastFile);
    }
    // Monaco's islet is a ring of its own inside the box.
    const monaco = landRings(assembleCoastline(await readCoastlineWays('osmium', MONACO, dir)), MONACO_BOX);
    const inside = ([x, y]: Point) =>
      x > MONACO_BOX.west && x < MONACO_BOX.east && y > MONACO_BOX.south && y < MONACO_BOX.north;
    expect(monaco.rings.some((ring) => ring.every(inside))).toBe(true);
  });

  it('builds Vancouver 2015 without the references to nodes it lacks, with False Creek and Burrard Inlet as sea', async () => {
    const summary = await buildTiles({ inputs: [VANCOUVER], output: join(dir, 'vancouver.mbtiles') });
    expect(summary.repaired).toBe(true);
    expect(summary.tiles).toBeGreaterThan(100);
    expect(summary.layers).toContain('transportation');
    expect(summary.sea).toBe('coastline');
    expect(summary.bounds).toEqual([-123.29, 49.195, -123.02, 49.32]);
    const reader = openMbtiles(join(dir, 'vancouver.mbtiles'));
    try {
      expect(isOcean(reader, [-123.125, 49.2715])).toBe(true); // False Creek
      expect(isOcean(reader, [-123.1, 49.295])).toBe(true); // Burrard Inlet
      expect(isOcean(reader, [-123.16, 49.285])).toBe(true); // English Bay
      expect(isOcean(reader, [-123.145, 49.302])).toBe(false); // Stanley Park
      expect(isOcean(reader, [-123.12, 49.283])).toBe(false); // downtown
      expect(isOcean(reader, [-123.135, 49.268])).toBe(false); // Granville Island
    } finally {
      reader.close();
    }
  }, 180_000);

  it('draws the sea from ready-made water polygons instead, given a coastline folder', async () => {
    const coastline = mkdtempSync(join(tmpdir(), 'coastline-'));
    try {
      // A square of sea off Monaco, made a shapefile by ogr2ogr
      const square = [
        [7.43, 43.7],
        [7.5, 43.7],
        [7.5, 43.735],
        [7.43, 43.735],
        [7.43, 43.7],
      ];
      const geojson = join(coastline, 'sea.geojson');
      writeFileSync(geojson, JSON.stringify({ type: 'Polygon', coordinates: [square] }));
      const made = spawnSync('ogr2ogr', [join(coastline, 'water_polygons.shp'), geojson], { encoding: 'utf8' });
      expect(made.status, made.stderr).toBe(0);
      const summary = await buildTiles({ inputs: [MONACO], output: join(dir, 'coast.mbtiles'), coastline });
      expect(summary.sea).toBe('folder');
      expect(summary.seaPolygons).toBe(0);
      const reader = openMbtiles(join(dir, 'coast.mbtiles'));
      try {
        expect(isOcean(reader, [7.44, 43.725])).toBe(true);
        // Only what the folder says: the sea off Larvotto is outside that square.
        expect(isOcean(reader, [7.44, 43.744])).toBe(false);
      } finally {
        reader.close();
      }
    } finally {
      rmSync(coastline, { recursive: true, force: true });
    }
  }, 120_000);

  it('leaves the served file as it was when a build fails, with one line saying why', async () => {
    const served = join(dir, 'served.mbtiles');
    writeFileSync(served, 'the tiles being served');
    const broken = join(dir, 'broken.osm.pbf');
    writeFileSync(broken, 'not a pbf at all');
    for (const inputs of [[broken], [MONACO, broken]]) {
      const error = await buildTiles({ inputs, output: served }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(
        `${broken}: osmium finds no data in it: is it an empty extract, or no .osm.pbf at all?`,
      );
      expect((error as Error).message).not.toMatch(/\n|terminate called/);
    }
    expect(readFileSync(served, 'utf8')).toBe('the tiles being served');
    expect(readdirSync(dir).filter((name) => name.startsWith('.tiles-build-'))).toEqual([]);
    rmSync(broken);
  });

  it('says how to install tilemaker or osmium when one is missing, and refuses what it cannot read', async () => {
    await expect(
      buildTiles({ inputs: [MONACO], output: join(dir, 'x.mbtiles'), tilemaker: 'tilemaker-not-installed' }),
    ).rejects.toThrow('tilemaker is not installed: sudo apt-get install tilemaker osmium-tool');
    await expect(
      buildTiles({ inputs: [MONACO], output: join(dir, 'x.mbtiles'), osmium: 'osmium-not-installed' }),
    ).rejects.toThrow('osmium is not installed: sudo apt-get install tilemaker osmium-tool');
    await expect(
      buildTiles({ inputs: [MONACO], output: join(dir, 'x.mbtiles'), osmcoastline: 'osmcoastline-not-installed' }),
    ).rejects.toThrow(
      'osmcoastline is not installed: sudo apt-get install tilemaker osmium-tool osmcoastline gdal-bin',
    );
    await expect(
      buildTiles({ inputs: [MONACO], output: join(dir, 'x.mbtiles'), ogr2ogr: 'ogr2ogr-not-installed' }),
    ).rejects.toThrow('ogr2ogr is not installed: sudo apt-get install tilemaker osmium-tool osmcoastline gdal-bin');
    await expect(
      buildTiles({ inputs: [MONACO, join(dir, 'none.osm.pbf')], output: join(dir, 'x.mbtiles') }),
    ).rejects.toThrow(/none\.osm\.pbf: no such file/);
    writeFileSync(join(dir, 'monaco.osm'), '<osm version="0.6"/>');
    await expect(buildTiles({ inputs: [join(dir, 'monaco.osm')], output: join(dir, 'x.mbtiles') })).rejects.toThrow(
      /reads \.osm\.pbf extracts only/,
    );
    rmSync(join(dir, 'monaco.osm'));
    await expect(buildTiles({ inputs: [], output: join(dir, 'x.mbtiles') })).rejects.toThrow('no extract given');
    await expect(buildTiles({ inputs: [MONACO], output: join(dir, 'x.mbtiles'), coastline: dir })).rejects.toThrow(
      /no water_polygons\.shp there; download/,
    );
    expect(existsSync(join(dir, 'x.mbtiles'))).toBe(false);
  });
});
