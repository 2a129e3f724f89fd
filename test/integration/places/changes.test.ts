// Change files (issue 9, points 1 and 2) on both engines: osmChange files written against real
// elements of the Monaco extract, applied with applyChange and with `npm run import`. The index's
// answers before and after prove each change; broken files change nothing.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../../db/index.js';
import { maskOf } from '../../../src/places/model/categories.js';
import { applyChange } from '../../../src/places/sources/changes/index.js';
import { ImportError } from '../../../src/places/sources/import/index.js';
import { pbfSource } from '../../../src/places/sources/import/pbf.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import type { PlaceStore, StoredPlace } from '../../../src/places/store/types.js';
import { SHARED_DATA } from '../../helpers.js';
import type { TestDatabase } from '../../support/databases.js';
import { importedDatabase } from '../../support/templates.js';
import { ROOT } from '../../support/server-process.js';
import { scanElements } from '../../support/places.js';

const MONACO = join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf');
const SOURCE = 'http://download.geofabrik.de/europe/monaco-updates';

const osc = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<osmChange version="0.6" generator="test">\n${body}\n</osmChange>\n`;
const tags = (t: Record<string, string>) =>
  Object.entries(t)
    .map(([k, v]) => `<tag k="${k}" v="${v.replace(/&/g, '&amp;')}"/>`)
    .join('');
const node = (id: number, version: number, lat: number, lon: number, t: Record<string, string> = {}) =>
  `<node id="${id}" version="${version}" lat="${lat}" lon="${lon}">${tags(t)}</node>`;
const way = (id: number, version: number, refs: number[], t: Record<string, string>) =>
  `<way id="${id}" version="${version}">${refs.map((r) => `<nd ref="${r}"/>`).join('')}${tags(t)}</way>`;

let dir: string;
let database: TestDatabase;
let handle: DbHandle;
let index: PlaceStore;
/** Node coordinates of the extract, for the nodes the tests move. */
const coords = new Map<number, [number, number]>();

const get = (type: 'node' | 'way' | 'relation', id: number) => index.getByOsmId(type, id);
const everything = async () =>
  (
    await (
      await index.feed.reads()
    ).nearest(
      43.738,
      7.424,
      10,
      maskOf([
        'healthcare',
        'amenity',
        'shop',
        'tourism',
        'education',
        'transport',
        'entertainment',
        'financial',
        'public_service',
        'park',
        'wifi',
        'parking',
        'restaurant',
        'hotel',
      ]),
      100_000,
    )
  )
    .map(
      (n) => `${n.place.osmType}/${n.place.osmId} ${n.place.name} ${n.place.lat} ${n.place.lon} ${n.place.categories}`,
    )
    .sort();
const apply = (xml: string | Buffer, extra: { sequence?: number } = {}) =>
  applyChange(index, typeof xml === 'string' ? Buffer.from(xml) : xml, { source: SOURCE, ...extra });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'changes-'));
  database = await importedDatabase(dir, { extracts: [MONACO] });
  handle = createDb(
    database.url.startsWith('sqlite:')
      ? { kind: 'sqlite', path: database.url.slice(7) }
      : { kind: 'postgres', url: database.url },
  );
  index = createPlaceStore(handle);
  const wanted = new Set([1738382599, 1738382602, 1738382603, 1738382604, 1738382606, 1738382607, 1738382601]);
  await scanElements(
    pbfSource(MONACO),
    (e) => {
      if (e.type === 'node' && (wanted.has(e.id) || palaceNodes.has(e.id))) coords.set(e.id, [e.lat, e.lon]);
    },
    { nodes: true, ways: false, relations: false },
  );
}, 120_000);

afterAll(async () => {
  await handle?.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

// The outer ring of the Prince's Palace (relation 393226, members ways 38545604 and 687577847).
const PALACE_RING = [
  6445480816, 25181687, 7837873558, 1074584607, 7837873568, 7837857858, 1074584982, 6445480826, 1209334998, 1074584898,
  7837873569, 1074584712, 7837873571, 1074584988, 456295837, 619252233, 619252234, 619252235, 619252236, 619252237,
  1074584613, 619252238, 619252240, 1074584660, 1074584833, 1074584560, 619252243, 456295836, 619252225, 619252227,
  1074584585, 619252228, 619252229, 619252230, 619252231, 619252232, 619252224,
];
const PALACE_INNER = [619252259, 619252262, 619252254, 6445480817, 619252256, 7837873572];
const palaceNodes = new Set([...PALACE_RING, ...PALACE_INNER]);

describe('a change file', () => {
  it('has, after the import, the locations of only the nodes that place ways use', async () => {
    const rows = async <T>(query: string) => (await sql.raw<T>(query).execute(handle.db)).rows;
    const used = new Set<number>();
    for (const { refs } of await rows<{ refs: string }>('select refs from way_nodes'))
      for (const ref of JSON.parse(refs) as number[]) used.add(ref);
    const kept = (await rows<{ id: number | string }>('select id from node_locations')).map((row) => Number(row.id));
    let nodes = 0;
    await scanElements(pbfSource(MONACO), () => nodes++, { nodes: true, ways: false, relations: false });
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.filter((id) => !used.has(id))).toEqual([]);
    expect(kept.length).toBe(used.size);
    expect(kept.length).toBeLessThan(nodes / 5); // a fraction of the extract's nodes
  });

  it('creates, modifies and deletes places, in one transaction with the source state', async () => {
    expect((await get('node', 280489587))?.name).toBe('Pharmacie des Moulins');
    const summary = await apply(
      osc(`<delete>${node(280489587, 5, 43.743628, 7.4284058)}</delete>
<modify>${node(267901435, 11, 43.7327806, 7.4252031, { amenity: 'restaurant', name: 'Stars and Bars' })}</modify>
<modify>${node(268166909, 5, 43.7409657, 7.4252627, { name: 'Terrazino', building: 'yes' })}</modify>
<create>${node(9100000001, 1, 43.7401, 7.4251, { amenity: 'pharmacy', name: 'Pharmacie Nouvelle', opening_hours: 'Mo-Fr 09:00-19:00' })}</create>
<modify>${node(954714337, 6, 43.7365, 7.4215, { amenity: 'fast_food', name: 'Café du Port' })}</modify>`),
      { sequence: 2948 },
    );
    expect(summary).toMatchObject({ created: 1, modified: 2, deleted: 2, skippedOlder: 0, unknownLocations: 0 });
    expect(await get('node', 280489587)).toBeNull(); // deleted
    expect((await get('node', 267901435))?.name).toBe('Stars and Bars'); // renamed
    expect(await get('node', 268166909)).toBeNull(); // out of every category
    const created = (await get('node', 9100000001)) as StoredPlace;
    expect(created).toMatchObject({
      name: 'Pharmacie Nouvelle',
      lat: 43.7401,
      lon: 7.4251,
      openingHours: 'Mo-Fr 09:00-19:00',
      timezone: 'Europe/Monaco',
    });
    expect(created.categories & maskOf(['pharmacy'])).not.toBe(0);
    // a pharmacy that became a café: new categories, new position
    const cafe = (await get('node', 954714337)) as StoredPlace;
    expect(cafe).toMatchObject({ name: 'Café du Port', lat: 43.7365, lon: 7.4215 });
    expect(cafe.categories & maskOf(['pharmacy'])).toBe(0);
    expect(
      (await (await index.feed.reads()).nearest(43.7365, 7.4215, 0.01, maskOf(['pharmacy']), 10)).map(
        (n) => n.place.osmId,
      ),
    ).not.toContain(954714337);
    expect(
      (await (await index.feed.reads()).nearest(43.7365, 7.4215, 0.01, maskOf(['restaurant']), 10)).map(
        (n) => n.place.osmId,
      ),
    ).toContain(954714337);
    expect(await index.getSource(SOURCE)).toMatchObject({ sequence: 2948 });
  });

  it('never lets an older version overwrite a newer one; within a file the highest version wins', async () => {
    const summary = await apply(
      osc(`<modify>${node(321647302, 6, 43.7338202, 7.4221485, { amenity: 'restaurant', name: 'Old Brasserie' })}</modify>
<modify>${node(9100000001, 3, 43.7402, 7.4251, { amenity: 'pharmacy', name: 'Pharmacie Nouvelle v3' })}</modify>
<modify>${node(9100000001, 2, 43.7403, 7.4251, { amenity: 'pharmacy', name: 'Pharmacie Nouvelle v2' })}</modify>`),
    );
    expect(summary).toMatchObject({ modified: 1, skippedOlder: 1 });
    expect((await get('node', 321647302))?.name).toBe('Brasserie de Monaco');
    expect((await get('node', 9100000001))?.name).toBe('Pharmacie Nouvelle v3');
    // the same version again changes nothing
    expect(
      await apply(osc(`<modify>${node(9100000001, 3, 43.75, 7.43, { amenity: 'pharmacy', name: 'Other' })}</modify>`)),
    ).toMatchObject({ modified: 0, skippedOlder: 0 });
    expect((await get('node', 9100000001))?.lat).toBe(43.7402);
  });

  it('moves a way when only its nodes move, and recomputes it when its node list changes', async () => {
    const before = (await get('way', 161883155)) as StoredPlace;
    expect(before.name).toBe('Le Virage');
    const moved = [...coords].filter(([id]) => !palaceNodes.has(id));
    expect(moved).toHaveLength(7);
    const summary = await apply(
      osc(`<modify>${moved.map(([id, [lat, lon]]) => node(id, 2, lat + 0.001, lon)).join('\n')}</modify>`),
    );
    expect(summary).toMatchObject({ modified: 1, unknownLocations: 0 });
    const after = (await get('way', 161883155)) as StoredPlace;
    expect(after.lat).toBeCloseTo(before.lat + 0.001, 6);
    expect(after.lon).toBeCloseTo(before.lon, 6);
    // found where it is now, not where it was
    expect(
      (await (await index.feed.reads()).nearest(after.lat, after.lon, 0.005, maskOf(['restaurant']), 50)).map(
        (n) => n.place.osmId,
      ),
    ).toContain(161883155);

    // The way now runs over two of its nodes and a new one, given in the file.
    const [a, b] = moved;
    await apply(
      osc(`<create>${node(9100000002, 1, 43.74, 7.43)}</create>
<modify>${way(161883155, 7, [a[0], b[0], 9100000002, a[0]], { amenity: 'restaurant', name: 'Le Virage', building: 'yes' })}</modify>`),
    );
    const reshaped = (await get('way', 161883155)) as StoredPlace;
    const lats = [a[1][0] + 0.001, b[1][0] + 0.001, 43.74];
    const lons = [a[1][1], b[1][1], 7.43];
    expect(reshaped.lat).toBeCloseTo((Math.min(...lats) + Math.max(...lats)) / 2, 6);
    expect(reshaped.lon).toBeCloseTo((Math.min(...lons) + Math.max(...lons)) / 2, 6);
    // and follows the new node, not the ones it left
    await apply(osc(`<modify>${node(9100000002, 2, 43.741, 7.43)}</modify>`));
    expect(((await get('way', 161883155)) as StoredPlace).lat).toBeCloseTo((Math.min(...lats) + 43.741) / 2, 6);
    const left = moved[3];
    const unchanged = ((await get('way', 161883155)) as StoredPlace).lat;
    expect(await apply(osc(`<modify>${node(left[0], 3, left[1][0] + 0.01, left[1][1])}</modify>`))).toMatchObject({
      modified: 0,
    });
    expect(((await get('way', 161883155)) as StoredPlace).lat).toBe(unchanged);
  });

  it('moves a relation when the nodes of its member way move', async () => {
    const before = (await get('relation', 393226)) as StoredPlace;
    expect(before.name).toBe('Palais Princier de Monaco');
    expect(coords.size).toBe(7 + palaceNodes.size);
    // the outer ring moves east; the inner way (not in the file) stays
    await apply(
      osc(
        `<modify>${PALACE_RING.map((id) => node(id, 9, coords.get(id)![0], coords.get(id)![1] + 0.002)).join('\n')}</modify>`,
      ),
    );
    const points = [
      ...PALACE_RING.map((id) => [coords.get(id)![0], coords.get(id)![1] + 0.002]),
      ...PALACE_INNER.map((id) => coords.get(id)!),
    ];
    const centre = (values: number[]) => (Math.min(...values) + Math.max(...values)) / 2;
    const after = (await get('relation', 393226)) as StoredPlace;
    expect(after.lon).toBeCloseTo(centre(points.map((p) => p[1])), 6);
    expect(after.lat).toBeCloseTo(centre(points.map((p) => p[0])), 6);
    expect(after.lon).toBeGreaterThan(before.lon + 0.0005);
  });

  it('keeps the last good position where a location is unknown, and counts it', async () => {
    const before = (await get('way', 161883155)) as StoredPlace;
    const summary = await apply(
      osc(
        `<modify>${way(161883155, 8, [9100000002, 9199999999], { amenity: 'restaurant', name: 'Le Virage (renamed)' })}</modify>`,
      ),
    );
    expect(summary).toMatchObject({ modified: 1, unknownLocations: 1 });
    const after = (await get('way', 161883155)) as StoredPlace;
    expect(after).toMatchObject({ name: 'Le Virage (renamed)', lat: before.lat, lon: before.lon });
    // a new way none of whose nodes is known is not created, and is counted
    expect(
      await apply(
        osc(
          `<create>${way(9100000003, 1, [9199999998, 9199999997], { amenity: 'pharmacy', name: 'Nowhere' })}</create>`,
        ),
      ),
    ).toMatchObject({
      created: 0,
      unknownLocations: 1,
    });
    expect(await get('way', 9100000003)).toBeNull();
  });

  it("never touches the admin's own places, even under the same number", async () => {
    const {
      places: [own],
    } = await index.writeOwn(
      { upsert: [{ name: 'Our Pharmacy', category: 'pharmacy', lat: 43.736, lon: 7.422 }], remove: [] },
      5_000,
    );
    await apply(osc(`<modify>${node(own.osmId, 99, 43.74, 7.43, { amenity: 'pharmacy', name: 'Not ours' })}</modify>`));
    await apply(osc(`<delete>${node(own.osmId, 100, 43.74, 7.43)}</delete>`));
    expect(await index.getByOsmId('own', own.osmId)).toMatchObject({
      name: 'Our Pharmacy',
      lat: 43.736,
      lon: 7.422,
      source: 'own',
    });
    expect(await get('node', own.osmId)).toBeNull();
  });

  it('reads .osc.gz', async () => {
    await apply(
      gzipSync(
        osc(
          `<modify>${node(267901435, 12, 43.7327806, 7.4252031, { amenity: 'restaurant', name: 'Stars (gz)' })}</modify>`,
        ),
      ),
    );
    expect((await get('node', 267901435))?.name).toBe('Stars (gz)');
  });
});

describe('a broken change file changes nothing and says why', () => {
  const good =
    osc(`<modify>${node(267901435, 50, 43.7327806, 7.4252031, { amenity: 'restaurant', name: 'Never' })}</modify>
<delete>${node(321647302, 50, 0, 0)}</delete>`);
  const cases: [string, Buffer, RegExp][] = [
    ['a truncated .osc.gz', gzipSync(good).subarray(0, 60), /does not decompress|damaged or truncated/],
    ['truncated XML', Buffer.from(good.slice(0, good.length - 40)), /line \d+/],
    ['broken markup', Buffer.from(good.replace('<delete>', '<delete')), /line \d+/],
    ['not an osmChange file', Buffer.from('<?xml version="1.0"?><osm version="0.6"></osm>'), /not an osmChange file/],
    ['an element outside any action', Buffer.from(osc(node(1, 1, 0, 0))), /outside <create>/],
    [
      'a node without coordinates',
      Buffer.from(osc(`<create><node id="5" version="1"/></create>`)),
      /no valid lat\/lon/,
    ],
  ];
  for (const [what, bytes, message] of cases) {
    it(what, async () => {
      const before = await everything();
      const state = await index.getSource(SOURCE);
      const error = await applyChange(index, bytes, { source: SOURCE, sequence: 99999 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImportError);
      expect((error as Error).message).toMatch(message);
      expect(await everything()).toEqual(before);
      expect((await index.getSource(SOURCE))?.sequence).toBe(state?.sequence);
    });
  }
});

describe('npm run import with change files', () => {
  const run = (args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/import.ts', ...args], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: database.url },
      });
      let out = '';
      child.stdout.on('data', (c) => (out += String(c)));
      child.stderr.on('data', (c) => (out += String(c)));
      child.on('exit', (code) => resolve({ code, out }));
    });

  it('applies a file, prints what changed, and refuses a broken one with the index unchanged', async () => {
    const file = join(dir, 'day.osc.gz');
    writeFileSync(
      file,
      gzipSync(
        osc(`<create>${node(9100000010, 1, 43.735, 7.42, { amenity: 'pharmacy', name: 'Pharmacie CLI' })}</create>`),
      ),
    );
    const ok = await run([file]);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain(`${file} (change file, source ${SOURCE}): 1 created, 0 modified, 0 deleted`);
    expect((await get('node', 9100000010))?.name).toBe('Pharmacie CLI');

    const broken = join(dir, 'broken.osc');
    writeFileSync(broken, osc(`<delete>${node(9100000010, 2, 0, 0)}</delete>`).slice(0, -20));
    const bad = await run([broken]);
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/Import failed: .*broken\.osc: line \d+.*The index was not changed\./s);
    expect((await get('node', 9100000010))?.name).toBe('Pharmacie CLI');
  }, 60_000);
});
