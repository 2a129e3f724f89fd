// No ceiling on the nodes places use: the ids and locations of the nodes that place ways need
// are held in typed arrays outside the JavaScript heap (src/places/sources/import/node-store.ts), not in
// a Set (which V8 caps at 2^24 entries and which costs ~30 bytes an id on the heap). An extract
// whose few place ways use 3 million distinct nodes (ids above 2^31, as today's) is imported
// with the JavaScript heap capped at 48 MB: a Set of those ids alone would not fit in it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SQLite from '../../../db/sqlite-driver.js';
import { GrowableIds, NodeLocations } from '../../../src/places/sources/import/node-store.js';
import { ImportError } from '../../../src/places/sources/import/types.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const NODES = 3_000_000;
const NODES_PER_WAY = 1_500;
const FIRST_ID = 3_000_000_000;

/** An ordered .osm.pbf of NODES nodes and ways of NODES_PER_WAY of them each, all parks. */
async function parksFile(path: string): Promise<void> {
  const osmium = spawn(
    'osmium',
    ['cat', '-F', 'opl', '-', '-o', path, '--overwrite', '--output-header=sorting=Type_then_ID'],
    { stdio: ['pipe', 'ignore', 'inherit'] },
  );
  const done = new Promise<number | null>((resolve) => osmium.on('close', resolve));
  const write = async (text: string) => {
    if (!osmium.stdin.write(text)) await new Promise((resolve) => osmium.stdin.once('drain', resolve));
  };
  let chunk = '';
  for (let i = 0; i < NODES; i++) {
    chunk += `n${FIRST_ID + i * 3} v1 x${(i % 2000) * 0.0001 + 5} y${Math.floor(i / 2000) * 0.0001 + 40}\n`;
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  for (let w = 0; w < NODES / NODES_PER_WAY; w++) {
    const refs = Array.from({ length: NODES_PER_WAY }, (_, j) => `n${FIRST_ID + (w * NODES_PER_WAY + j) * 3}`);
    chunk += `w${w + 1} v1 Tleisure=park,name=Park%20%${w + 1} N${refs.join(',')}\n`;
    if (chunk.length > 1 << 20) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  osmium.stdin.end();
  expect(await done).toBe(0);
}

describe('an extract whose place ways use millions of distinct nodes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'import-ceiling-'));
    await parksFile(join(dir, 'parks.osm.pbf'));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports with the JavaScript heap capped at 48 MB: the node ids are not on the heap', () => {
    const db = join(dir, 'app.db');
    const result = spawnSync(
      process.execPath,
      ['--max-old-space-size=48', '--import', 'tsx', 'scripts/import.ts', '--json', join(dir, 'parks.osm.pbf')],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: `sqlite:${db}` },
        encoding: 'utf8',
        timeout: 300_000,
      },
    );
    expect(result.stderr).not.toMatch(/heap out of memory|damaged/);
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      elements: NODES + NODES / NODES_PER_WAY,
      places: NODES / NODES_PER_WAY,
      neededNodes: NODES,
    });
    const sqlite = new SQLite(db, { readonly: true });
    try {
      expect(sqlite.prepare('select count(*) from node_locations').pluck().get()).toBe(NODES);
      expect(sqlite.prepare('select count(*) from place_nodes').pluck().get()).toBe(NODES);
      // the first park spans its 1,500 nodes: 2000 to a row, so it is one row's stretch
      const park = sqlite.prepare(`select lat, lon from places where osm_type = 'way' and osm_id = 1`).get() as {
        lat: number;
        lon: number;
      };
      expect(park.lat).toBe(40);
      expect(park.lon).toBeCloseTo(5.07495, 7);
    } finally {
      sqlite.close();
    }
  }, 300_000);

  it('keeps the ids in typed arrays, sorted once, 16 bytes a node with its location', () => {
    const ids = new GrowableIds();
    for (let i = NODES - 1; i >= 0; i--) ids.push(FIRST_ID + i * 3);
    ids.push(FIRST_ID); // a node two ways share is kept once
    const nodes = new NodeLocations(ids.sortedUnique());
    expect(nodes.ids).toBeInstanceOf(Float64Array);
    expect(nodes.lats).toBeInstanceOf(Int32Array);
    expect(nodes.lons).toBeInstanceOf(Int32Array);
    expect(nodes.size).toBe(NODES);
    expect(nodes.ids.byteLength + nodes.lats.byteLength + nodes.lons.byteLength).toBe(16 * NODES);
    // found by binary search, and by a walk along ascending ids
    expect(nodes.slot(FIRST_ID + 3 * 12345, false)).toBe(12345);
    expect(nodes.slot(FIRST_ID + 1, false)).toBe(-1);
    nodes.restart();
    expect([0, 7, 8, NODES - 1].map((i) => nodes.slot(FIRST_ID + 3 * i, true))).toEqual([0, 7, 8, NODES - 1]);
  });

  it('running out of memory says so, and names what was being held', () => {
    const ids = new GrowableIds('node ids');
    const error = (() => {
      try {
        ids.grow(2 ** 42);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toMatch(
      /^not enough memory to hold 4,398,046,511,104 node ids \(33,554,432 MB more\); import a smaller extract or run the import on a machine with more memory$/,
    );
    expect((error as Error).message).not.toMatch(/damaged/);
  });
});
