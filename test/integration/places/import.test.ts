// Issue 3, point 2: import of .osm.pbf, .osm XML, Overpass JSON and GeoJSON into the index.
import { spawnSync } from 'node:child_process';
import { createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import SQLite from '../../../db/sqlite-driver.js';
import type { SqliteHandle } from '../../../db/index.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importInputs, ImportError, formatSummary } from '../../../src/places/sources/import/index.js';
import { collect, type ContextFeatures } from '../../../src/places/sources/import/collect.js';
import { pbfSource } from '../../../src/places/sources/import/pbf.js';
import { TerminalProgress } from '../../../src/places/sources/import/progress.js';
import type { OsmElement } from '../../../src/places/sources/import/types.js';
import type { PlaceStore } from '../../../src/places/store/index.js';
import { toPlace } from '../../../src/places/model/osm.js';
import { maskOf } from '../../../src/places/model/categories.js';
import { onlyOn } from '../../support/databases.js';
import {
  expectIndexConsistent,
  EXTRACTS,
  indexedCount,
  scanElements,
  snapshot,
  tempDb,
  type TempDb,
} from '../../support/places.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

async function readAll(path: string): Promise<OsmElement[]> {
  const elements: OsmElement[] = [];
  await scanElements(pbfSource(path), (e) => elements.push(e));
  return elements;
}

const xmlEscape = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;');

function toOsmXml(elements: OsmElement[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="test">'];
  for (const e of elements) {
    const tags = Object.entries(e.tags ?? {}).map(([k, v]) => `  <tag k="${xmlEscape(k)}" v="${xmlEscape(v)}"/>`);
    if (e.type === 'node')
      lines.push(`<node id="${e.id}" lat="${e.lat}" lon="${e.lon}" version="1">`, ...tags, '</node>');
    if (e.type === 'way')
      lines.push(
        `<way id="${e.id}" version="1">`,
        ...(e.refs ?? []).map((r) => `  <nd ref="${r}"/>`),
        ...tags,
        '</way>',
      );
    if (e.type === 'relation') {
      lines.push(
        `<relation id="${e.id}" version="1">`,
        ...(e.members ?? []).map((m) => `  <member type="${m.type}" ref="${m.ref}" role=""/>`),
        ...tags,
        '</relation>',
      );
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
          : {
              type: 'relation',
              id: e.id,
              members: e.members!.map((m) => ({ type: m.type, ref: m.ref, role: '' })),
              ...(e.tags ? { tags: e.tags } : {}),
            },
    ),
  });
}

/** What an import should give, whatever the format. */
function placeRows(db: TempDb) {
  return db.rows(
    `select osm_type, osm_id, lat, lon, categories, name, names, address, phone, website, opening_hours, wheelchair, country, timezone, t.tags
     from places p join place_tags t on t.id = p.id order by osm_type, osm_id`,
  );
}

describe('importing the Vancouver .osm.pbf', () => {
  let db: TempDb;
  let store: PlaceStore;
  let summary: Awaited<ReturnType<typeof importInputs>>;

  beforeAll(async () => {
    db = await tempDb();
    summary = await importInputs(db.index, [EXTRACTS.vancouver], { now: Date.parse('2026-01-01T00:00:00Z') });
    store = db.index;
  });
  afterAll(() => db.close());

  it('reads every element and keeps only the places in a category', async () => {
    expect(summary.elements).toBe(373_464); // SOURCE.md's count
    expect(summary.places).toBeGreaterThan(4500);
    expect(summary.added).toBe(await store.count());
    expect(await indexedCount(db)).toBe(await store.count());
    expect(summary.perCategory.restaurant).toBeGreaterThan(500);
    const types = await db.rows<{ osm_type: string; n: number }>(
      'select osm_type, count(*) as n from places group by osm_type',
    );
    expect(types.map((t) => t.osm_type).sort()).toEqual(['node', 'relation', 'way']);
  });

  it('puts ways and relations at the centre of their extent', async () => {
    // UBC's campus multipolygon: its centre is on the campus, west of the city
    const ubc = (await store.getByOsmId('relation', 1424987))!;
    expect(ubc.lat).toBeGreaterThan(49.24);
    expect(ubc.lat).toBeLessThan(49.28);
    expect(ubc.lon).toBeGreaterThan(-123.27);
    expect(ubc.lon).toBeLessThan(-123.22);
    const fishHouse = (await store.getByOsmId('way', 49547895))!;
    expect(fishHouse.name).toBe('The Fish House');
    expect(fishHouse.lat).toBeCloseTo(49.2923, 3); // in Stanley Park
    expect(fishHouse.lon).toBeCloseTo(-123.1465, 3);
  });

  it('takes the address, phone (or contact:phone), website, hours and wheelchair access', async () => {
    const londonDrugs = (await store.getByOsmId('node', 799580956))!;
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
    const bmo = (await store.getByOsmId('node', 780962634))!;
    expect(bmo.phone).toMatch(/^604/); // from contact:phone
    expect(bmo.website).toMatch(/^https:\/\/locator\.bmo\.com/);
    const bikes = (await store.getByOsmId('node', 582801864))!;
    expect(bikes.address).toBe('3283 Main Street, Vancouver V5V 3M6');
    const unnamedLibrary = (await store.getByOsmId('node', 249407303))!;
    expect(unnamedLibrary.name).toBeNull();
    // no address of its own: the street nearby's, marked approximate
    expect(unnamedLibrary).toMatchObject({ address: 'Argyle Street, Vancouver V5P 3Y9', addressSource: 'nearby' });
    expect(londonDrugs.addressSource).toBeNull();
  });
});

describe('the other formats feed the same writer', () => {
  let dir: TempDb;
  let fromPbf: unknown[];
  let monaco: OsmElement[];

  beforeAll(async () => {
    dir = await tempDb({ extracts: [EXTRACTS.monaco] });
    fromPbf = await placeRows(dir);
    monaco = await readAll(EXTRACTS.monaco);
  });
  afterAll(() => dir.close());

  it('an .osm XML file gives exactly the places of the same data as .osm.pbf', async () => {
    const file = join(dir.dir, 'monaco.osm');
    writeFileSync(file, toOsmXml(monaco));
    const db = await tempDb();
    try {
      const summary = await importInputs(db.index, [file]);
      expect(summary.inputs[0].format).toBe('xml');
      expect(summary.elements).toBe(29_772);
      expect(await placeRows(db)).toEqual(fromPbf);
    } finally {
      await db.close();
    }
  });

  it('Overpass JSON (relations and ways before their nodes) gives the same places too', async () => {
    const file = join(dir.dir, 'monaco.json');
    writeFileSync(file, toOverpassJson(monaco));
    const db = await tempDb();
    try {
      const summary = await importInputs(db.index, [file]);
      expect(summary.inputs[0]).toMatchObject({ format: 'json', passes: 3 }); // relations, ways, nodes: from the parsed document
      expect(await placeRows(db)).toEqual(fromPbf);
    } finally {
      await db.close();
    }
  });

  it('Overpass JSON from `out center` and XML with <center> need no node at all', async () => {
    const file = join(dir.dir, 'center.json');
    writeFileSync(
      file,
      JSON.stringify({
        elements: [
          {
            type: 'way',
            id: 23715051,
            center: { lat: 43.7308, lon: 7.4253 },
            tags: { tourism: 'museum', name: 'Musée Océanographique' },
          },
        ],
      }),
    );
    const xml = join(dir.dir, 'center.osm');
    writeFileSync(
      xml,
      '<osm version="0.6"><relation id="7"><center lat="43.74" lon="7.42"/><tag k="amenity" v="cinema"/></relation></osm>',
    );
    const db = await tempDb();
    try {
      await importInputs(db.index, [file, xml]);
      const store = db.index;
      expect(await store.getByOsmId('way', 23715051)).toMatchObject({
        lat: 43.7308,
        lon: 7.4253,
        name: 'Musée Océanographique',
      });
      expect(await store.getByOsmId('relation', 7)).toMatchObject({ lat: 43.74, lon: 7.42 });
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
            {
              type: 'Feature',
              properties: { '@id': 'node/11', amenity: 'pharmacy', name: 'At-id' },
              geometry: { type: 'Point', coordinates: [1.5, 42.5] },
            },
            {
              type: 'Feature',
              id: 'way/12',
              properties: { shop: 'bakery' },
              geometry: {
                type: 'Polygon',
                coordinates: [
                  [
                    [1, 42],
                    [1.2, 42],
                    [1.2, 42.2],
                    [1, 42],
                  ],
                ],
              },
            },
            {
              type: 'Feature',
              properties: { type: 'node', id: 13, tags: { amenity: 'bank' } },
              geometry: { type: 'Point', coordinates: [1.1, 42.1] },
            },
            { type: 'Feature', properties: { amenity: 'bank' }, geometry: { type: 'Point', coordinates: [1.1, 42.1] } }, // no id: skipped
          ],
        }),
      );
      const summary = await importInputs(db.index, [EXTRACTS.dc, other]);
      expect(summary.inputs[0]).toMatchObject({ format: 'json', elements: 7230 });
      const store = db.index;
      expect(await store.getByOsmId('node', 306011599)).toMatchObject({
        name: 'DC Fire Department Engine Company No. 1',
        lat: 38.90554,
        lon: -77.04968,
        country: 'US',
        timezone: 'America/New_York',
      });
      expect((await store.getByOsmId('way', 66409135))!.name).toBe('DC Fire Department Engine Co. 23'); // a POI_AREA
      expect((await store.getByOsmId('node', 11))!.name).toBe('At-id');
      expect(await store.getByOsmId('way', 12)).toMatchObject({ lat: 42.1, lon: 1.1 });
      expect(await store.getByOsmId('node', 13)).not.toBeNull();
      const tags = JSON.parse(
        (
          await db.rows<{ tags: string }>(
            'select t.tags from places p join place_tags t on t.id = p.id where osm_id = 306011599',
          )
        )[0].tags,
      );
      expect(tags).toEqual({ amenity: 'fire_station', name: 'DC Fire Department Engine Company No. 1' });
    } finally {
      await db.close();
    }
  }, 90_000); // the import then derives every place's address
});

describe('re-importing', () => {
  it('replaces each place by OSM type and id, and removes places that left every category', async () => {
    const db = await tempDb();
    try {
      const first = await importInputs(db.index, [EXTRACTS.monaco]);
      const count = first.added;
      const again = await importInputs(db.index, [EXTRACTS.monaco]);
      expect(again).toMatchObject({ added: 0, replaced: count, removed: 0 });
      const store = db.index;
      expect(await store.count()).toBe(count);
      expect(await indexedCount(db)).toBe(count);
      await expectIndexConsistent(db);

      // a newer edit: one restaurant renamed and moved, one pharmacy closed (tags gone)
      const before = (await store.getByOsmId('node', 267901435))!;
      const edit = join(db.dir, 'edit.osm');
      writeFileSync(
        edit,
        `<osm version="0.6">
          <node id="267901435" lat="43.7400" lon="7.4300"><tag k="amenity" v="restaurant"/><tag k="name" v="Stars and Bars"/></node>
          <node id="280489587" lat="43.7390" lon="7.4270"><tag k="disused:amenity" v="pharmacy"/></node>
        </osm>`,
      );
      const update = await importInputs(db.index, [edit]);
      expect(update).toMatchObject({ added: 0, replaced: 1, removed: 1 });
      const after = (await store.getByOsmId('node', 267901435))!;
      expect(after).toMatchObject({ id: before.id, name: 'Stars and Bars', lat: 43.74, lon: 7.43 });
      expect(await store.getByOsmId('node', 280489587)).toBeNull();
      expect(await store.count()).toBe(count - 1);
      expect(await indexedCount(db)).toBe(count - 1);
      // the spatial index follows the move: for the broad category and the restaurants' own
      expect(
        (await (await store.feed.reads()).nearest(43.74, 7.43, 0.01, maskOf(['restaurant']), 10)).map(
          (n) => n.place.id,
        ),
      ).toEqual([before.id]);
      expect(
        (await (await store.feed.reads()).nearest(43.74, 7.43, 0.01, maskOf(['amenity']), 10)).map((n) => n.place.id),
      ).toEqual([before.id]);
      await expectIndexConsistent(db);
    } finally {
      await db.close();
    }
  });
});

describe('an input that cannot be read', () => {
  let db: TempDb;
  let before: unknown[];

  beforeAll(async () => {
    db = await tempDb({ extracts: [EXTRACTS.andorra] });
    before = await snapshot(db);
    const pbf = readFileSync(EXTRACTS.monaco);
    writeFileSync(join(db.dir, 'truncated.osm.pbf'), pbf.subarray(0, 200_000));
    writeFileSync(join(db.dir, 'empty.osm.pbf'), '');
    writeFileSync(join(db.dir, 'garbage.bin'), Buffer.from('this is not OpenStreetMap data at all'));
    writeFileSync(join(db.dir, 'broken.json'), '{"elements": [{"type": "node", "id": 1, ');
    writeFileSync(join(db.dir, 'other.json'), '{"hello": "world"}');
    writeFileSync(
      join(db.dir, 'cut.osm'),
      '<osm version="0.6"><node id="1" lat="42.5" lon="1.5"><tag k="amenity" v="bank"/></node><node id="2"',
    );
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
    const error = await importInputs(db.index, [join(db.dir, name)]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toMatch(message);
    expect(await snapshot(db)).toEqual(before);
  });

  it('a good file before a bad one in the same run is not written either', async () => {
    const error = await importInputs(db.index, [EXTRACTS.monaco, join(db.dir, 'truncated.osm.pbf')]).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/truncated/);
    expect(await snapshot(db)).toEqual(before);
    if (db.handle.dialect === 'sqlite')
      expect(
        db.handle.sqlite.prepare("select count(*) from temp.sqlite_master where name like 'place_%'").pluck().get(),
      ).toBe(0);
  });
});

describe('while an import is being read', () => {
  onlyOn('sqlite', () => {
    it('the database stays writable: staging does not lock it', async () => {
      const db = await tempDb();
      try {
        const writer = db.index.importWriter(0);
        for (let i = 1; i <= 6000; i++) writer.add(toPlace('node', i, 42.5, 1.5, { amenity: 'bank' })!); // past one staged batch
        const other = new SQLite(db.url.slice('sqlite:'.length), { timeout: 0 });
        try {
          other.prepare("insert into settings (key, value) values ('while_importing', '1')").run();
        } finally {
          other.close();
        }
        expect(await writer.commit()).toMatchObject({ added: 6000 });
      } finally {
        await db.close();
      }
    });
  });

  onlyOn('postgres', () => {
    it('the places stay writable: staging takes no lock on them', async () => {
      const db = await tempDb();
      try {
        const writer = db.index.importWriter(0);
        for (let i = 1; i <= 6000; i++) writer.add(toPlace('node', i, 42.5, 1.5, { amenity: 'bank' })!);
        const other = new pg.Client({ connectionString: db.url });
        await other.connect();
        try {
          await other.query("set lock_timeout = '50ms'");
          await other.query(
            `insert into places (osm_type, osm_id, lat, lon, categories, source, fetched_at) values ('node', 99999, 42.5, 1.5, ${maskOf(['bank'])}, 'import', 0)`,
          );
        } finally {
          await other.end();
        }
        expect(await writer.commit()).toMatchObject({ added: 6000 });
      } finally {
        await db.close();
      }
    });
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
    const fromFile = await tempDb({ extracts: [EXTRACTS.monaco] });
    try {
      const summary = await importInputs(db.index, [`${base}/monaco-latest.osm.pbf`]);
      expect(summary.inputs[0]).toMatchObject({
        label: `${base}/monaco-latest.osm.pbf`,
        format: 'pbf',
        elements: 29_772,
      });
      expect(await placeRows(db)).toEqual(await placeRows(fromFile));
    } finally {
      await db.close();
      await fromFile.close();
    }
  });

  it('a URL that fails names the HTTP status and writes nothing', async () => {
    const db = await tempDb();
    try {
      await expect(importInputs(db.index, [`${base}/nothing.osm.pbf`])).rejects.toThrow(
        /nothing\.osm\.pbf: cannot download \(HTTP 404/,
      );
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      await expect(importInputs(db.index, [`http://127.0.0.1:${port}/x.osm.pbf`])).rejects.toThrow(
        /cannot download \(ECONNREFUSED\)/,
      );
      expect(await db.index.count()).toBe(0);
      expect(await indexedCount(db)).toBe(0);
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
      await importInputs(db.index, [EXTRACTS.monaco], { progress: new TerminalProgress(stream) });
    } finally {
      await db.close();
    }
    const text = written.join('');
    expect(text).toMatch(/\[#{30}\] 100% {2}pass 1\/3 {2}.*monaco-2021-04-21\.osm\.pbf/);
    expect(text).toMatch(/pass 3\/3/);
  });

  it('the summary names elements, places per category, time and memory', () => {
    const text = formatSummary(
      {
        inputs: [{ label: 'x.osm.pbf', format: 'pbf', source: 'x.osm.pbf', elements: 1000, places: 10, passes: 3 }],
        elements: 1000,
        places: 10,
        withoutGeometry: 1,
        neededNodes: 0,
        perCategory: { restaurant: 7 },
        seconds: 0.5,
        added: 9,
        replaced: 1,
        removed: 0,
        addresses: { derived: 10, changed: 8, withAddress: 9 },
      },
      150 * 1024 * 1024,
    );
    expect(text).toContain('x.osm.pbf (pbf, source x.osm.pbf): 1,000 elements read, 10 places kept, 3 passes');
    expect(text).toContain('Index: 9 added, 1 replaced, 0 removed; 1 skipped without coordinates');
    expect(text).toContain('Addresses: 9 of 10 places have one (90%)');
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
    expect(result.stdout).toMatch(/Usage: npm run import -- \[--json\] \[--source NAME\] <file-or-url>/);
    expect(result.stdout).toMatch(/\.osc \.osc\.gz/);
    expect(result.stdout).toMatch(/OpenStreetMap contributors/);
  });

  // Both engines pass at 44 MB with tsx's compile cache warm (the address context is derived cell
  // by cell, its features kept in a file); a fresh clone compiles the TypeScript in the same heap:
  // ~10 MB more.
  const heapCap = 54;
  it(`imports Vancouver with the JavaScript heap capped at ${heapCap} MB: memory stays bounded`, async () => {
    const db = await tempDb();
    try {
      await db.handle.close();
      const result = run(['--json', EXTRACTS.vancouver], { DATABASE_URL: db.url }, [`--max-old-space-size=${heapCap}`]);
      expect(result.stderr).not.toMatch(/heap out of memory/);
      expect(result.status).toBe(0);
      const summary = JSON.parse(result.stdout);
      expect(summary).toMatchObject({ elements: 373_464 });
      expect(summary.places).toBeGreaterThan(4500);
      expect(summary.peakRssBytes).toBeGreaterThan(0);
    } finally {
      await db.close().catch(() => {});
    }
  }, 90_000); // the import then derives every place's address

  it('a bad input fails with exit code 1 and says the index was not changed', async () => {
    const db = await tempDb();
    try {
      await db.handle.close();
      const result = run([join(db.dir, 'nope.osm.pbf')], { DATABASE_URL: db.url });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(
        /^Import failed: .*nope\.osm\.pbf: cannot open \(ENOENT\)\. The index was not changed\./m,
      );
    } finally {
      await db.close().catch(() => {});
    }
  });
});

describe('context features gathered in the same passes', () => {
  it('hands over named streets, place nodes and addressed buildings with their geometry, places unchanged', async () => {
    const db = await tempDb();
    try {
      const features: { type: string; id: number; tags: Record<string, string>; parts: Float64Array[] }[] = [];
      const ways: { id: number; tags: Record<string, string>; refs: number[] }[] = [];
      const context: ContextFeatures = {
        keys: new Set(['highway', 'place', 'building']),
        wants: (type, tags) =>
          (type === 'way' && tags.highway !== undefined && tags.name !== undefined) ||
          (type === 'node' && tags.place !== undefined) ||
          (tags.building !== undefined && tags['addr:housenumber'] !== undefined),
        kept: (tags) => tags,
        way: (id, tags, refs) => ways.push({ id, tags, refs }),
        ways: (locate) => {
          for (const way of ways) context.feature('way', way.id, way.tags, [locate(way.refs)], way.refs);
        },
        feature: (type, id, tags, parts) => features.push({ type, id, tags, parts }),
      };
      const writer = db.index.importWriter(0);
      const stats = await collect(pbfSource(EXTRACTS.monaco), writer, { context });
      await writer.commit();
      expect(stats.places).toBe(825); // as without the hook (the stored digests)
      const streets = features.filter((f) => f.type === 'way' && f.tags.highway);
      expect(streets.length).toBeGreaterThan(100);
      for (const street of streets) {
        expect(street.parts).toHaveLength(1);
        const [lat, lon] = street.parts[0];
        expect(lat).toBeGreaterThan(43.7);
        expect(lon).toBeGreaterThan(7.4);
      }
      const monaco = features.find((f) => f.type === 'node' && f.tags.place && f.tags.name === 'Monaco');
      expect(monaco?.parts[0]).toHaveLength(2);
      expect(features.some((f) => f.tags.building && f.tags['addr:housenumber'])).toBe(true);
    } finally {
      await db.close();
    }
  });
});

onlyOn('sqlite', () => {
  describe('a limit of the machine', () => {
    it('a database that cannot grow says the disk is full, not that the file is damaged, and writes nothing', async () => {
      const db = await tempDb();
      try {
        const sqlite = (db.handle as SqliteHandle).sqlite;
        // SQLite's own cap on the file's size: the same error as a full disk
        const pages = sqlite.pragma('page_count', { simple: true }) as number;
        sqlite.pragma(`max_page_count = ${pages + 20}`);
        const error = await importInputs(db.index, [EXTRACTS.vancouver]).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ImportError);
        expect((error as Error).message).toBe(
          'the disk is full (database or disk is full); free some space and import again',
        );
        expect(await db.index.count()).toBe(0);
      } finally {
        await db.close();
      }
    });
  });
});
