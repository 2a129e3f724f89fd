// Issue 3, point 2: import of .osm.pbf, .osm XML, Overpass JSON and GeoJSON into the index.
import { spawnSync } from 'node:child_process';
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importInputs, ImportError, formatSummary } from '../../src/places/import/index.js';
import { pbfSource } from '../../src/places/import/pbf.js';
import { TerminalProgress } from '../../src/places/import/progress.js';
import type { OsmElement } from '../../src/places/import/types.js';
import { PlaceWriter } from '../../src/places/import/writer.js';
import { toPlace } from '../../src/places/osm.js';
import { PlaceStore } from '../../src/places/store.js';
import { categoriesInMask, maskOf } from '../../src/places/categories.js';
import { CATEGORY_IDS } from '../../src/places/category-ids.js';
import { EXTRACTS, rtreeCount, snapshot, tempDb, type TempDb } from './support.js';

const ROOT = join(import.meta.dirname, '..', '..');

async function readAll(path: string): Promise<OsmElement[]> {
  const elements: OsmElement[] = [];
  await pbfSource(path).scan((e) => elements.push(e), { nodes: true, ways: true, relations: true });
  return elements;
}

const xmlEscape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;');

function toOsmXml(elements: OsmElement[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="test">'];
  for (const e of elements) {
    const tags = Object.entries(e.tags ?? {}).map(([k, v]) => `  <tag k="${xmlEscape(k)}" v="${xmlEscape(v)}"/>`);
    if (e.type === 'node') lines.push(`<node id="${e.id}" lat="${e.lat}" lon="${e.lon}" version="1">`, ...tags, '</node>');
    if (e.type === 'way') lines.push(`<way id="${e.id}" version="1">`, ...(e.refs ?? []).map((r) => `  <nd ref="${r}"/>`), ...tags, '</way>');
    if (e.type === 'relation') {
      lines.push(`<relation id="${e.id}" version="1">`, ...(e.members ?? []).map((m) => `  <member type="${m.type}" ref="${m.ref}" role=""/>`), ...tags, '</relation>');
    }
  }
  lines.push('</osm>');
  return lines.join('\n');
}

/** Overpass JSON as `out body;` gives it, deliberately with relations and ways before their nodes. */
function toOverpassJson(elements: OsmElement[]): string {
  const order = { relation: 0, way: 1, node: 2 };
  const sorted = [...elements].sort((a, b) => order[a.type] - order[b.type]);
  return JSON.stringify({
    version: 0.6,
    generator: 'test',
    elements: sorted.map((e) =>
      e.type === 'node'
        ? { type: 'node', id: e.id, lat: e.lat, lon: e.lon, ...(e.tags ? { tags: e.tags } : {}) }
        : e.type === 'way'
          ? { type: 'way', id: e.id, nodes: e.refs, ...(e.tags ? { tags: e.tags } : {}) }
          : { type: 'relation', id: e.id, members: e.members!.map((m) => ({ type: m.type, ref: m.ref, role: '' })), ...(e.tags ? { tags: e.tags } : {}) },
    ),
  });
}

/** Every place is in the big tree and in the trees of exactly its categories, at its position. */
function expectTreesConsistent(db: TempDb): void {
  const sqlite = db.handle.sqlite;
  const places = sqlite.prepare('select id, lat, lon, categories from places order by id').all() as { id: number; lat: number; lon: number; categories: number }[];
  const big = sqlite.prepare('select id, categories from places_rtree order by id').all();
  expect(big).toEqual(places.map((p) => ({ id: p.id, categories: p.categories })));
  for (const category of CATEGORY_IDS) {
    const tree = sqlite.prepare(`select id, min_lat, min_lon from places_rtree_${category} order by id`).all() as { id: number; min_lat: number; min_lon: number }[];
    const members = places.filter((p) => categoriesInMask(p.categories).includes(category));
    expect(tree.map((r) => r.id), category).toEqual(members.map((p) => p.id));
    tree.forEach((r, i) => {
      expect(Math.abs(r.min_lat - members[i].lat)).toBeLessThan(1e-4);
      expect(Math.abs(r.min_lon - members[i].lon)).toBeLessThan(1e-4);
    });
  }
}

/** What an import should give, whatever the format. */
function placeRows(db: TempDb) {
  return db.handle.sqlite
    .prepare(
      `select osm_type, osm_id, lat, lon, categories, name, names, address, phone, website, opening_hours, wheelchair, country, timezone, t.tags
       from places p join place_tags t on t.id = p.id order by osm_type, osm_id`,
    )
    .all();
}

describe('importing the Vancouver .osm.pbf', () => {
  let db: TempDb;
  let store: PlaceStore;
  let summary: Awaited<ReturnType<typeof importInputs>>;

  beforeAll(async () => {
    db = await tempDb();
    summary = await importInputs(db.handle.sqlite, [EXTRACTS.vancouver], { now: Date.parse('2026-01-01T00:00:00Z') });
    store = new PlaceStore(db.handle.sqlite);
  });
  afterAll(() => db.close());

  it('reads every element and keeps only the places in a category', () => {
    expect(summary.elements).toBe(373_464); // SOURCE.md's count
    expect(summary.places).toBeGreaterThan(4500);
    expect(summary.added).toBe(store.count());
    expect(rtreeCount(db.handle)).toBe(store.count());
    expect(summary.perCategory.restaurant).toBeGreaterThan(500);
    const types = db.handle.sqlite.prepare('select osm_type, count(*) as n from places group by osm_type').all() as { osm_type: string; n: number }[];
    expect(types.map((t) => t.osm_type).sort()).toEqual(['node', 'relation', 'way']);
  });

  it('puts ways and relations at the centre of their extent', () => {
    // UBC's campus multipolygon: its centre is on the campus, west of the city
    const ubc = store.getByOsmId('relation', 1424987)!;
    expect(ubc.lat).toBeGreaterThan(49.24);
    expect(ubc.lat).toBeLessThan(49.28);
    expect(ubc.lon).toBeGreaterThan(-123.27);
    expect(ubc.lon).toBeLessThan(-123.22);
    const fishHouse = store.getByOsmId('way', 49547895)!;
    expect(fishHouse.name).toBe('The Fish House');
    expect(fishHouse.lat).toBeCloseTo(49.2923, 3); // in Stanley Park
    expect(fishHouse.lon).toBeCloseTo(-123.1465, 3);
  });

  it('takes the address, phone (or contact:phone), website, hours and wheelchair access', () => {
    const londonDrugs = store.getByOsmId('node', 799580956)!;
    expect(londonDrugs).toMatchObject({
      name: 'London Drugs',
      phone: '+1 604 448 4828',
      wheelchair: 'yes',
      country: 'CA',
      timezone: 'America/Vancouver',
      source: 'import',
      fetchedAt: Date.parse('2026-01-01T00:00:00Z'),
    });
    expect(londonDrugs.address).toMatch(/Kingsway, Vancouver V5R 5L1$/);
    expect(londonDrugs.openingHours).toMatch(/^Mo-Sa 09:00-22:00/);
    const bmo = store.getByOsmId('node', 780962634)!;
    expect(bmo.phone).toMatch(/^604/); // from contact:phone
    expect(bmo.website).toMatch(/^https:\/\/locator\.bmo\.com/);
    const bikes = store.getByOsmId('node', 582801864)!;
    expect(bikes.address).toBe('3283 Main Street, Vancouver V5V 3M6');
    const unnamedLibrary = store.getByOsmId('node', 249407303)!;
    expect(unnamedLibrary.name).toBeNull();
    expect(unnamedLibrary.address).toBeNull();
  });
});

describe('the other formats feed the same writer', () => {
  let dir: TempDb;
  let fromPbf: unknown[];
  let monaco: OsmElement[];

  beforeAll(async () => {
    dir = await tempDb();
    await importInputs(dir.handle.sqlite, [EXTRACTS.monaco]);
    fromPbf = placeRows(dir);
    monaco = await readAll(EXTRACTS.monaco);
  });
  afterAll(() => dir.close());

  it('an .osm XML file gives exactly the places of the same data as .osm.pbf', async () => {
    const file = join(dir.dir, 'monaco.osm');
    writeFileSync(file, toOsmXml(monaco));
    const db = await tempDb();
    try {
      const summary = await importInputs(db.handle.sqlite, [file]);
      expect(summary.inputs[0].format).toBe('xml');
      expect(summary.elements).toBe(29_772);
      expect(placeRows(db)).toEqual(fromPbf);
    } finally {
      await db.close();
    }
  });

  it('Overpass JSON (relations and ways before their nodes) gives the same places too', async () => {
    const file = join(dir.dir, 'monaco.json');
    writeFileSync(file, toOverpassJson(monaco));
    const db = await tempDb();
    try {
      const summary = await importInputs(db.handle.sqlite, [file]);
      expect(summary.inputs[0]).toMatchObject({ format: 'json', passes: 1 });
      expect(placeRows(db)).toEqual(fromPbf);
    } finally {
      await db.close();
    }
  });

  it('Overpass JSON from `out center` and XML with <center> need no node at all', async () => {
    const file = join(dir.dir, 'center.json');
    writeFileSync(file, JSON.stringify({ elements: [{ type: 'way', id: 23715051, center: { lat: 43.7308, lon: 7.4253 }, tags: { tourism: 'museum', name: 'Musée Océanographique' } }] }));
    const xml = join(dir.dir, 'center.osm');
    writeFileSync(xml, '<osm version="0.6"><relation id="7"><center lat="43.74" lon="7.42"/><tag k="amenity" v="cinema"/></relation></osm>');
    const db = await tempDb();
    try {
      await importInputs(db.handle.sqlite, [file, xml]);
      const store = new PlaceStore(db.handle.sqlite);
      expect(store.getByOsmId('way', 23715051)).toMatchObject({ lat: 43.7308, lon: 7.4253, name: 'Musée Océanographique' });
      expect(store.getByOsmId('relation', 7)).toMatchObject({ lat: 43.74, lon: 7.42 });
    } finally {
      await db.close();
    }
  });

  it('GeoJSON: the DC file (OSM_ID, flat tags, ways as centroids) and the other id styles', async () => {
    const db = await tempDb();
    try {
      const other = join(dir.dir, 'other.geojson');
      writeFileSync(
        other,
        JSON.stringify({
          type: 'FeatureCollection',
          features: [
            { type: 'Feature', properties: { '@id': 'node/11', amenity: 'pharmacy', name: 'At-id' }, geometry: { type: 'Point', coordinates: [1.5, 42.5] } },
            { type: 'Feature', id: 'way/12', properties: { shop: 'bakery' }, geometry: { type: 'Polygon', coordinates: [[[1, 42], [1.2, 42], [1.2, 42.2], [1, 42]]] } },
            { type: 'Feature', properties: { type: 'node', id: 13, tags: { amenity: 'bank' } }, geometry: { type: 'Point', coordinates: [1.1, 42.1] } },
            { type: 'Feature', properties: { amenity: 'bank' }, geometry: { type: 'Point', coordinates: [1.1, 42.1] } }, // no id: skipped
          ],
        }),
      );
      const summary = await importInputs(db.handle.sqlite, [EXTRACTS.dc, other]);
      expect(summary.inputs[0]).toMatchObject({ format: 'json', elements: 7230 });
      const store = new PlaceStore(db.handle.sqlite);
      expect(store.getByOsmId('node', 306011599)).toMatchObject({ name: 'DC Fire Department Engine Company No. 1', lat: 38.90554, lon: -77.04968, country: 'US', timezone: 'America/New_York' });
      expect(store.getByOsmId('way', 66409135)!.name).toBe('DC Fire Department Engine Co. 23'); // a POI_AREA
      expect(store.getByOsmId('node', 11)!.name).toBe('At-id');
      expect(store.getByOsmId('way', 12)).toMatchObject({ lat: 42.1, lon: 1.1 });
      expect(store.getByOsmId('node', 13)).not.toBeNull();
      const tags = JSON.parse(db.handle.sqlite.prepare('select t.tags from places p join place_tags t on t.id = p.id where osm_id = 306011599').pluck().get() as string);
      expect(tags).toEqual({ amenity: 'fire_station', name: 'DC Fire Department Engine Company No. 1' });
    } finally {
      await db.close();
    }
  });
});

describe('re-importing', () => {
  it('replaces each place by OSM type and id, and removes places that left every category', async () => {
    const db = await tempDb();
    try {
      const first = await importInputs(db.handle.sqlite, [EXTRACTS.monaco]);
      const count = first.added;
      const again = await importInputs(db.handle.sqlite, [EXTRACTS.monaco]);
      expect(again).toMatchObject({ added: 0, replaced: count, removed: 0 });
      const store = new PlaceStore(db.handle.sqlite);
      expect(store.count()).toBe(count);
      expect(rtreeCount(db.handle)).toBe(count);
      expectTreesConsistent(db);

      // a newer edit: one restaurant renamed and moved, one pharmacy closed (tags gone)
      const before = store.getByOsmId('node', 267901435)!;
      const edit = join(db.dir, 'edit.osm');
      writeFileSync(
        edit,
        `<osm version="0.6">
          <node id="267901435" lat="43.7400" lon="7.4300"><tag k="amenity" v="restaurant"/><tag k="name" v="Stars and Bars"/></node>
          <node id="280489587" lat="43.7390" lon="7.4270"><tag k="disused:amenity" v="pharmacy"/></node>
        </osm>`,
      );
      const update = await importInputs(db.handle.sqlite, [edit]);
      expect(update).toMatchObject({ added: 0, replaced: 1, removed: 1 });
      const after = store.getByOsmId('node', 267901435)!;
      expect(after).toMatchObject({ id: before.id, name: 'Stars and Bars', lat: 43.74, lon: 7.43 });
      expect(store.getByOsmId('node', 280489587)).toBeNull();
      expect(store.count()).toBe(count - 1);
      expect(rtreeCount(db.handle)).toBe(count - 1);
      // the R*Trees follow the move: the big one and the restaurants' own
      expect(store.nearest(43.74, 7.43, 0.01, maskOf(['restaurant']), 10).map((n) => n.place.id)).toEqual([before.id]);
      expect(store.nearest(43.74, 7.43, 0.01, maskOf(['amenity']), 10).map((n) => n.place.id)).toEqual([before.id]);
      expectTreesConsistent(db);
    } finally {
      await db.close();
    }
  });
});

describe('an input that cannot be read', () => {
  let db: TempDb;
  let before: unknown[];

  beforeAll(async () => {
    db = await tempDb();
    await importInputs(db.handle.sqlite, [EXTRACTS.andorra]);
    before = snapshot(db.handle);
    const pbf = readFileSync(EXTRACTS.monaco);
    writeFileSync(join(db.dir, 'truncated.osm.pbf'), pbf.subarray(0, 200_000));
    writeFileSync(join(db.dir, 'empty.osm.pbf'), '');
    writeFileSync(join(db.dir, 'garbage.bin'), Buffer.from('this is not OpenStreetMap data at all'));
    writeFileSync(join(db.dir, 'broken.json'), '{"elements": [{"type": "node", "id": 1, ');
    writeFileSync(join(db.dir, 'other.json'), '{"hello": "world"}');
    writeFileSync(join(db.dir, 'cut.osm'), '<osm version="0.6"><node id="1" lat="42.5" lon="1.5"><tag k="amenity" v="bank"/></node><node id="2"');
    writeFileSync(join(db.dir, 'data.osm.gz'), Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]));
  });
  afterAll(() => db.close());

  it.each([
    ['missing.osm.pbf', /missing\.osm\.pbf: cannot open \(ENOENT\)/],
    ['truncated.osm.pbf', /truncated\.osm\.pbf: the file ends in the middle of a block; it is truncated/],
    ['empty.osm.pbf', /empty\.osm\.pbf: the file is empty/],
    ['garbage.bin', /garbage\.bin: not a format this importer reads/],
    ['broken.json', /broken\.json: not valid JSON/],
    ['other.json', /other\.json: neither Overpass JSON .* nor a GeoJSON FeatureCollection/],
    ['cut.osm', /cut\.osm: line 1: /],
    ['data.osm.gz', /data\.osm\.gz: is gzip-compressed; decompress it first/],
  ])('%s: a clear error, and the index as it was', async (name, message) => {
    const error = await importInputs(db.handle.sqlite, [join(db.dir, name)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toMatch(message);
    expect(snapshot(db.handle)).toEqual(before);
  });

  it('a good file before a bad one in the same run is not written either', async () => {
    const error = await importInputs(db.handle.sqlite, [EXTRACTS.monaco, join(db.dir, 'truncated.osm.pbf')]).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/truncated/);
    expect(snapshot(db.handle)).toEqual(before);
    expect(db.handle.sqlite.prepare("select count(*) from temp.sqlite_master where name like 'place_%'").pluck().get()).toBe(0);
  });
});

describe('while an import is being read', () => {
  it('the database stays writable: staging does not lock it', async () => {
    const db = await tempDb();
    try {
      const writer = new PlaceWriter(db.handle.sqlite, 0);
      for (let i = 1; i <= 6000; i++) writer.add(toPlace('node', i, 42.5, 1.5, { amenity: 'bank' })!); // past one staged batch
      const other = new SQLite(db.path, { timeout: 0 });
      try {
        other.prepare("insert into settings (key, value) values ('while_importing', '1')").run();
      } finally {
        other.close();
      }
      expect(writer.commit()).toMatchObject({ added: 6000 });
    } finally {
      await db.close();
    }
  });
});

describe('URLs as input', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/monaco-latest.osm.pbf') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        createReadStream(EXTRACTS.monaco).pipe(res);
      } else {
        res.writeHead(404);
        res.end('not here');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('downloads and imports the same places as the file', async () => {
    const db = await tempDb();
    const fromFile = await tempDb();
    try {
      const summary = await importInputs(db.handle.sqlite, [`${base}/monaco-latest.osm.pbf`]);
      expect(summary.inputs[0]).toMatchObject({ label: `${base}/monaco-latest.osm.pbf`, format: 'pbf', elements: 29_772 });
      await importInputs(fromFile.handle.sqlite, [EXTRACTS.monaco]);
      expect(placeRows(db)).toEqual(placeRows(fromFile));
    } finally {
      await db.close();
      await fromFile.close();
    }
  });

  it('a URL that fails names the HTTP status and writes nothing', async () => {
    const db = await tempDb();
    try {
      await expect(importInputs(db.handle.sqlite, [`${base}/nothing.osm.pbf`])).rejects.toThrow(/nothing\.osm\.pbf: cannot download \(HTTP 404/);
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      await expect(importInputs(db.handle.sqlite, [`http://127.0.0.1:${port}/x.osm.pbf`])).rejects.toThrow(/cannot download \(ECONNREFUSED\)/);
      expect(new PlaceStore(db.handle.sqlite).count()).toBe(0);
      expect(rtreeCount(db.handle)).toBe(0);
    } finally {
      await db.close();
    }
  });
});

describe('progress and summary', () => {
  it('draws a bar with passes and percentages on a terminal', async () => {
    const written: string[] = [];
    const stream = { write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream;
    const db = await tempDb();
    try {
      await importInputs(db.handle.sqlite, [EXTRACTS.monaco], { progress: new TerminalProgress(stream) });
    } finally {
      await db.close();
    }
    const text = written.join('');
    expect(text).toMatch(/\[#{30}\] 100%  pass 1\/3  .*monaco-2021-04-21\.osm\.pbf/);
    expect(text).toMatch(/pass 3\/3/);
  });

  it('the summary names elements, places per category, time and memory', () => {
    const text = formatSummary(
      { inputs: [{ label: 'x.osm.pbf', format: 'pbf', elements: 1000, places: 10, passes: 3 }], elements: 1000, places: 10, withoutGeometry: 1, perCategory: { restaurant: 7 }, seconds: 0.5, added: 9, replaced: 1, removed: 0 },
      150 * 1024 * 1024,
    );
    expect(text).toContain('x.osm.pbf (pbf): 1,000 elements read, 10 places kept, 3 passes');
    expect(text).toContain('Index: 9 added, 1 replaced, 0 removed; 1 skipped without coordinates');
    expect(text).toMatch(/restaurant\s+7/);
    expect(text).toMatch(/wifi\s+0/);
    expect(text).toContain('Done in 0.50 s (2,000 elements/s), peak memory 150 MB');
  });
});

describe('npm run import (scripts/import.ts)', () => {
  const run = (args: string[], env: Record<string, string>, nodeArgs: string[] = []) =>
    spawnSync(process.execPath, [...nodeArgs, '--import', 'tsx', 'scripts/import.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('--help explains the command', () => {
    const result = run(['--help'], {});
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/Usage: npm run import -- \[--json\] <file-or-url>/);
    expect(result.stdout).toMatch(/OpenStreetMap contributors/);
  });

  it('imports Vancouver with the JavaScript heap capped at 48 MB: memory stays bounded', async () => {
    const db = await tempDb();
    try {
      await db.handle.close();
      const result = run(['--json', EXTRACTS.vancouver], { DATABASE_URL: `sqlite:${db.path}` }, ['--max-old-space-size=48']);
      expect(result.stderr).not.toMatch(/heap out of memory/);
      expect(result.status).toBe(0);
      const summary = JSON.parse(result.stdout);
      expect(summary).toMatchObject({ elements: 373_464 });
      expect(summary.places).toBeGreaterThan(4500);
      expect(summary.peakRssBytes).toBeGreaterThan(0);
    } finally {
      await db.close().catch(() => {});
    }
  });

  it('a bad input fails with exit code 1 and says the index was not changed', async () => {
    const db = await tempDb();
    try {
      await db.handle.close();
      const result = run([join(db.dir, 'nope.osm.pbf')], { DATABASE_URL: `sqlite:${db.path}` });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/^Import failed: .*nope\.osm\.pbf: cannot open \(ENOENT\)\. The index was not changed\./m);
    } finally {
      await db.close().catch(() => {});
    }
  });
});
