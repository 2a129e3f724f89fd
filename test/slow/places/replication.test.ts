// `npm run update` end to end: the Monaco extract imported (its header names Geofabrik's feed at
// sequence 2947), then a feed on loopback in the real layout with change files written against
// real Monaco elements. The answers of GET /api/places before and after prove each change.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../../db/index.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import type { ChangePosition } from '../../../src/places/search/change-feed.js';
import type { PlaceStore } from '../../../src/places/store/types.js';
import { Replication } from '../../../src/places/sources/replication/index.js';
import { OutboundClient, parseOutboundAllow } from '../../../src/net/outbound.js';
import { buildTestApp, SHARED_DATA, type TestApp } from '../../helpers.js';
import type { TestDatabase } from '../../support/databases.js';
import { importedDatabase } from '../../support/templates.js';
import { ROOT, startServer } from '../../support/server-process.js';
import { startFeed, type FakeFeed } from '../../support/fake-feed.js';
import { caughtUp } from '../../support/places.js';

const MONACO = join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf');
const GEOFABRIK = 'http://download.geofabrik.de/europe/monaco-updates';
const UA = 'nearby-place-finder/0.1 (+http://localhost:3000)';
const stamp = (day: number) => new Date(Date.UTC(2021, 3, 21 + day, 20, 21, 46)).toISOString().replace('.000Z', 'Z');

const osc = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<osmChange version="0.6" generator="test">\n${body}\n</osmChange>\n`;
const tags = (t: Record<string, string>) =>
  Object.entries(t)
    .map(([k, v]) => `<tag k="${k}" v="${v}"/>`)
    .join('');
const node = (id: number, version: number, lat: number, lon: number, t: Record<string, string> = {}) =>
  `<node id="${id}" version="${version}" timestamp="2021-04-22T10:00:00Z" lat="${lat}" lon="${lon}">${tags(t)}</node>`;

// Le Virage is a way (a building outline) whose nodes move in sequence 2950; the way is not in that file.
const VIRAGE_NODES: [number, number, number][] = [
  [1738382599, 43.7367165, 7.4218556],
  [1738382602, 43.736769, 7.421828],
  [1738382603, 43.7367814, 7.4218568],
  [1738382604, 43.7367933, 7.4218961],
  [1738382606, 43.7368035, 7.4219356],
  [1738382607, 43.7368088, 7.4219732],
  [1738382601, 43.7367563, 7.4220007],
];
const NORTH = 0.002;

/** The feed's sequences after the extract's 2947. */
const SEQUENCES: Record<number, string> = {
  // a pharmacy deleted; a restaurant renamed
  2948: osc(`<delete>${node(280489587, 5, 43.743628, 7.4284058)}</delete>
<modify>${node(267901435, 11, 43.7327806, 7.4252031, { amenity: 'restaurant', name: 'Stars and Bars' })}</modify>`),
  // a restaurant retagged out of every category; a pharmacy created, and an address point beside it
  2949: osc(`<modify>${node(268166909, 5, 43.7409657, 7.4252627, { name: 'Terrazino', building: 'yes' })}</modify>
<create>${node(9100000001, 1, 43.7401, 7.4251, { amenity: 'pharmacy', name: 'Pharmacie Nouvelle' })}
${node(9100000002, 1, 43.74012, 7.42512, { 'addr:street': 'Rue Nouvelle', 'addr:housenumber': '3' })}</create>`),
  // the nodes of a restaurant's outline moved north
  2950: osc(`<modify>${VIRAGE_NODES.map(([id, lat, lon]) => node(id, 2, lat + NORTH, lon)).join('\n')}</modify>`),
  // an older version than the one held: ignored
  2951: osc(
    `<modify>${node(321647302, 6, 43.7338202, 7.4221485, { amenity: 'restaurant', name: 'Old Brasserie' })}</modify>`,
  ),
  // a pharmacy gets a name
  2952: osc(
    `<modify>${node(954714337, 6, 43.7355109, 7.421026, { amenity: 'pharmacy', name: 'Pharmacie du Port' })}</modify>`,
  ),
};

interface Found {
  name: string;
  lat: number;
  lon: number;
}

let dir: string;
let database: TestDatabase;
let handle: DbHandle;
let index: PlaceStore;
let t: TestApp;
let feed: FakeFeed;

/**
 * What the app's search finds: after the update of `applied` (a run in this process), once the
 * app's reads hold its last change file; else (the command, another program) after every commit.
 */
async function places(applied?: { position: ChangePosition | null }): Promise<Map<string, Found>> {
  if (!applied) await caughtUp(t.handle);
  // a store on the app's handle: on PostgreSQL it reads the app's copy of the places
  else if (applied.position) await createPlaceStore(t.handle).feed.caughtUp(applied.position);
  const response = await t.request({
    method: 'GET',
    url: '/api/places?active_categories=pharmacy,restaurant&lat=43.738&lon=7.424&radius=5000&limit=500',
  });
  expect(response.statusCode).toBe(200);
  const found = new Map<string, Found>();
  for (const place of response.json().results as (Found & { id: string })[])
    found.set(place.id, { name: place.name, lat: place.lat, lon: place.lon });
  return found;
}

function publish(upTo: number): void {
  for (let sequence = 2940; sequence <= upTo; sequence++) {
    feed.write(sequence, SEQUENCES[sequence] ?? osc(''), stamp(sequence - 2947));
  }
  feed.announce(upTo, stamp(upTo - 2947));
}

// A feed stored with the source is the data's word, fetched through the outbound guard: the
// loopback feed is a private mirror the operator allowed (OUTBOUND_ALLOW=127.0.0.1).
const mirrorAllowed = new OutboundClient({ allow: parseOutboundAllow('127.0.0.1')! });
const replication = (feedOptions = {}, guard = mirrorAllowed) =>
  new Replication(index, handle.db, {
    url: null,
    userAgent: UA,
    guardedFetch: guard.fetch,
    feed: { baseBackoffMs: 10, ...feedOptions },
  });

function runUpdate(args: string[], env: Record<string, string> = {}, { terminal = false } = {}) {
  const command = [process.execPath, '--import', 'tsx', 'scripts/update.ts', ...args];
  // script(1) gives the command a terminal, as an operator's shell would.
  const [program, ...argv] = terminal
    ? ['script', '-qfec', command.map((a) => `'${a}'`).join(' '), '/dev/null']
    : command;
  const child = spawn(program!, argv, {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: database.url, OUTBOUND_ALLOW: '127.0.0.1', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'replication-'));
  database = await importedDatabase(dir, { extracts: [MONACO] });
  handle = createDb(
    database.url.startsWith('sqlite:')
      ? { kind: 'sqlite', path: database.url.slice(7) }
      : { kind: 'postgres', url: database.url },
  );
  index = createPlaceStore(handle);
  t = await buildTestApp({ env: { DATABASE_URL: database.url } });
  feed = await startFeed(join(dir, 'feed'));
}, 120_000);

afterAll(async () => {
  await mirrorAllowed.close();
  await feed?.close();
  await t?.close();
  await handle?.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run update against a replication feed', () => {
  it('starts from the header of the imported extract', async () => {
    const source = await index.getSource(GEOFABRIK);
    expect(source).toMatchObject({
      kind: 'osm',
      replicationUrl: GEOFABRIK,
      sequence: 2947,
      dataTimestamp: '2021-04-21T20:21:46Z',
    });
  });

  it('applies every sequence after the stored one, in order, and stores where it stopped', async () => {
    const before = await places();
    expect(before.get('node/280489587')?.name).toBe('Pharmacie des Moulins');
    expect(before.get('node/267901435')?.name).toBe('Stars ’n’ Bars');
    expect(before.has('node/268166909')).toBe(true);
    expect(before.has('node/9100000001')).toBe(false);
    const virage = before.get('way/161883155')!;
    expect(virage.name).toBe('Le Virage');

    publish(2951);
    // The local feed stands in for Geofabrik's (a mirror): the start is found from the data's timestamp.
    const [summary] = await replication().update({ url: feed.url, source: GEOFABRIK });
    expect(summary).toMatchObject({
      from: 2947,
      to: 2951,
      sequences: 4,
      created: 1,
      deleted: 2,
      skippedOlder: 1,
      timestamp: stamp(4),
    });
    expect(summary.modified).toBeGreaterThanOrEqual(2);

    const after = await places(summary);
    expect(after.has('node/280489587')).toBe(false); // deleted
    expect(after.get('node/267901435')?.name).toBe('Stars and Bars'); // renamed
    expect(after.has('node/268166909')).toBe(false); // in no category any more
    expect(after.get('node/9100000001')).toMatchObject({ name: 'Pharmacie Nouvelle', lat: 43.7401, lon: 7.4251 }); // created
    // with the street of the address point created beside it (never its number)
    expect(await index.getByOsmId('node', 9100000001)).toMatchObject({
      address: 'Rue Nouvelle, 98000 Monaco',
      addressSource: 'nearby',
    });
    // the outline that followed its nodes was worked out again where it is now
    expect((await index.getByOsmId('way', 161883155))?.address).toBeTruthy();
    expect(after.get('way/161883155')!.lat).toBeCloseTo(virage.lat + NORTH, 6); // followed its nodes
    expect(after.get('way/161883155')!.lon).toBeCloseTo(virage.lon, 6);
    expect(after.get('node/321647302')?.name).toBe('Brasserie de Monaco'); // the older version ignored
    expect(await index.getSource(GEOFABRIK)).toMatchObject({
      sequence: 2951,
      dataTimestamp: stamp(4),
      replicationUrl: feed.url,
    });

    // Downloads came one at a time, in order, each naming the site.
    const downloads = feed.requests.filter((r) => r.path.endsWith('.osc.gz')).map((r) => r.path);
    expect(downloads).toEqual(['000/002/948.osc.gz', '000/002/949.osc.gz', '000/002/950.osc.gz', '000/002/951.osc.gz']);
    expect(feed.maxConcurrent).toBe(1);
    expect(new Set(feed.requests.map((r) => r.userAgent))).toEqual(new Set([UA]));
  });

  it('does not follow a feed the data names to a private address unless OUTBOUND_ALLOW names it', async () => {
    const nothingAllowed = new OutboundClient({ allow: parseOutboundAllow('')! });
    feed.requests.length = 0;
    try {
      await expect(replication({}, nothingAllowed).update({ source: GEOFABRIK })).rejects.toThrow(
        /127\.0\.0\.1 is a private or local address \(loopback\)/,
      );
      expect(feed.requests).toEqual([]);
    } finally {
      await nothingAllowed.close();
    }
    const refused = runUpdate(['--source', GEOFABRIK], { OUTBOUND_ALLOW: '' });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toMatch(/Update failed: .*private or local address/);
    expect(feed.requests).toEqual([]);
  }, 60_000);

  it('a second run with nothing new changes nothing', async () => {
    const before = await places();
    feed.requests.length = 0;
    const [summary] = await replication().update({ source: GEOFABRIK });
    expect(summary).toMatchObject({ from: 2951, to: 2951, sequences: 0, created: 0, modified: 0, deleted: 0 });
    expect(feed.requests.map((r) => r.path)).toEqual(['state.txt']);
    expect(await places(summary)).toEqual(before);
  });

  it('a truncated file changes nothing and says why; the next run resumes; 429 and 503 are waited out', async () => {
    publish(2952);
    const before = await places();
    feed.script.push(
      { path: '952.osc.gz', reply: { truncate: true } },
      { path: '952.osc.gz', reply: { truncate: true } },
    );
    await expect(replication({ maxRetries: 1 }).update({ source: GEOFABRIK })).rejects.toThrow(/952/);
    expect(await places()).toEqual(before);
    expect((await index.getSource(GEOFABRIK))!.sequence).toBe(2951);

    feed.requests.length = 0;
    feed.script.push(
      { path: 'state.txt', reply: { status: 429, retryAfter: '0' } },
      { path: '952.osc.gz', reply: { status: 503 } },
    );
    const [summary] = await replication().update({ source: GEOFABRIK });
    expect(summary).toMatchObject({ from: 2951, to: 2952, sequences: 1, modified: 1 });
    expect(feed.requests.map((r) => r.status)).toEqual([429, 200, 503, 200]);
    expect((await places(summary)).get('node/954714337')?.name).toBe('Pharmacie du Port');
  });
});

describe('the command', () => {
  it('prints a summary, and is resumable after a kill in the middle of an update', async () => {
    // Ten more sequences, each renaming the same restaurant; the feed answers slowly.
    for (let s = 2953; s <= 2962; s++) {
      SEQUENCES[s] = osc(
        `<modify>${node(267901435, 11 + s - 2952, 43.7327806, 7.4252031, { amenity: 'restaurant', name: `Stars ${s}` })}</modify>`,
      );
    }
    publish(2962);
    feed.delayMs = 150;
    const killed = runUpdate(['--source', GEOFABRIK]);
    // Kill it once a few sequences are stored, while it is fetching the next.
    for (let i = 0; i < 400 && ((await index.getSource(GEOFABRIK))!.sequence ?? 0) < 2955; i++)
      await new Promise((r) => setTimeout(r, 50));
    killed.child.kill('SIGKILL');
    await killed.exited;
    const stopped = (await index.getSource(GEOFABRIK))!.sequence!;
    expect(stopped).toBeGreaterThanOrEqual(2955);
    expect(stopped).toBeLessThan(2962);
    // What is stored is exactly the sequence applied: the place carries that sequence's name.
    expect((await places()).get('node/267901435')?.name).toBe(`Stars ${stopped}`);

    feed.delayMs = 5;
    const resumed = runUpdate([]);
    expect(await resumed.exited).toBe(0);
    expect(resumed.output()).toContain(`applied ${2962 - stopped} change file`);
    expect(resumed.output()).toContain(`sequences ${stopped + 1} to 2962`);
    expect(resumed.output()).toContain(`data as of ${stamp(15)}`);
    expect((await places()).get('node/267901435')?.name).toBe('Stars 2962');

    const again = runUpdate([]);
    expect(await again.exited).toBe(0);
    expect(again.output()).toContain('up to date at sequence 2962');
  }, 120_000);

  it('shows its progress on a terminal, on one line written over', async () => {
    for (let s = 2963; s <= 2965; s++) {
      SEQUENCES[s] = osc(
        `<modify>${node(267901435, 11 + s - 2952, 43.7327806, 7.4252031, { amenity: 'restaurant', name: `Stars ${s}` })}</modify>`,
      );
    }
    publish(2965);
    const update = runUpdate([], {}, { terminal: true });
    expect(await update.exited).toBe(0);
    for (let s = 2963; s <= 2965; s++)
      expect(update.output()).toContain(`\r${GEOFABRIK}: sequence ${s} (${s - 2962} of 3)\x1b[K`);
    expect(update.output()).toContain('applied 3 change files (sequences 2963 to 2965)');
    // Without a terminal (a log file, cron), the summary only.
    publish(2965);
    const logged = runUpdate([]);
    expect(await logged.exited).toBe(0);
    expect(logged.output()).not.toContain('\r');
  }, 60_000);

  it('says plainly what is wrong', async () => {
    const bad = runUpdate(['--url', 'ftp://example.org/feed', '--source', GEOFABRIK]);
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toMatch(/Update failed: a replication feed must be an http\(s\) URL/);
    const unknown = runUpdate(['--source', 'nowhere']);
    expect(await unknown.exited).toBe(1);
    expect(unknown.output()).toContain('no OpenStreetMap source named "nowhere"');
    const option = runUpdate(['--frobnicate']);
    expect(await option.exited).toBe(2);
  }, 60_000);
});

describe('UPDATE_INTERVAL', () => {
  it('two server processes on one database apply each sequence once between them', async () => {
    SEQUENCES[2966] = osc(
      `<modify>${node(267901435, 30, 43.7327806, 7.4252031, { amenity: 'restaurant', name: 'Stars by the timer' })}</modify>`,
    );
    publish(2966);
    feed.requests.length = 0;
    const server = await startServer({
      DATABASE_URL: database.url,
      WEB_CONCURRENCY: '2',
      UPDATE_INTERVAL: '1h',
      REPLICATION_URL: feed.url,
    });
    try {
      for (let i = 0; i < 300 && (await index.getSource(GEOFABRIK))!.sequence !== 2966; i++)
        await new Promise((r) => setTimeout(r, 100));
      expect((await index.getSource(GEOFABRIK))!.sequence).toBe(2966);
      // Give the other process its tick too: it must find the turn taken.
      await new Promise((r) => setTimeout(r, 1500));
      expect(feed.requests.filter((r) => r.path.endsWith('966.osc.gz'))).toHaveLength(1);
      expect(feed.requests.filter((r) => r.path === 'state.txt')).toHaveLength(1);
      const answer = await fetch(
        `${server.base}/api/places?active_categories=restaurant&lat=43.7327806&lon=7.4252031&radius=50`,
      );
      expect((await answer.json()).results.map((p: { name: string }) => p.name)).toContain('Stars by the timer');
    } finally {
      await server.stop();
    }
  }, 90_000);
});
