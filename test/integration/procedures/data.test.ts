// The admin data page's procedures (issue 9, points 5 and 6) on both engines: sources and their
// freshness, an update and an import from a URL run as jobs the page polls, removing a source,
// and own places one by one and as CSV; own places answered by the public API with source "own".
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importInputs, ImportError } from '../../../src/places/sources/import/index.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { parseOwnPlacesCsv } from '../../../src/places/sources/own-places.js';
import { adminSession, buildTestApp, callerFor, expectTRPCError, SHARED_DATA, type TestApp } from '../../helpers.js';
import { ROOT } from '../../support/server-process.js';
import { startFeed, type FakeFeed } from '../../support/fake-feed.js';

const MONACO = join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf');
const GEOFABRIK = 'http://download.geofabrik.de/europe/monaco-updates';

let t: TestApp;
let files: Server;
let filesBase: string;
/** a server on another loopback address, which OUTBOUND_ALLOW does not name */
let other: Server;
let otherBase: string;
const otherHits: string[] = [];
let feed: FakeFeed;
let feedDir: string;

const admin = async () => callerFor(t, { session: await adminSession(t) });

/** Polls a job until it is no longer running. */
async function finished(jobId: string) {
  const caller = await admin();
  for (let i = 0; i < 300; i++) {
    const job = await caller.data.job({ id: jobId });
    if (job.state !== 'running') return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the job did not finish');
}

beforeAll(async () => {
  feedDir = mkdtempSync(join(tmpdir(), 'data-feed-'));
  feed = await startFeed(feedDir);
  // The test's download server stands for a private mirror the operator allowed.
  t = await buildTestApp({
    env: { REPLICATION_URL: feed.url, OUTBOUND_ALLOW: '127.0.0.1' },
    imported: { extracts: [MONACO] },
  });
  // The extract served over HTTP, as a download would be.
  const monaco = readFileSync(MONACO);
  other = createServer((request, response) => {
    otherHits.push(request.url ?? '');
    response.end(monaco);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
  otherBase = `http://127.0.0.2:${(other.address() as { port: number }).port}`;
  files = createServer((request, response) => {
    if (request.url === '/monaco.osm.pbf') return response.end(monaco);
    if (request.url === '/elsewhere.osm.pbf') {
      response.writeHead(302, { location: `${otherBase}/monaco.osm.pbf` });
      return response.end();
    }
    response.statusCode = 404;
    response.end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesBase = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
}, 120_000);

afterAll(async () => {
  files?.close();
  other?.close();
  await feed?.close();
  await t?.close();
  rmSync(feedDir, { recursive: true, force: true });
});

describe('sources', () => {
  it('lists every source with its freshness, places per category, and the totals', async () => {
    const { sources, totals } = await (await admin()).data.sources();
    expect(sources.map((s) => s.name)).toEqual(['live', 'own', GEOFABRIK]);
    expect(sources[2]).toMatchObject({
      kind: 'osm',
      sequence: 2947,
      dataTimestamp: '2021-04-21T20:21:46Z',
      places: 825,
      replicationUrl: GEOFABRIK,
    });
    expect(totals.places).toBe(825);
    expect(totals.perCategory.restaurant).toBe(sources[2].perCategory.restaurant);
  });

  it('is for administrators only', async () => {
    await expectTRPCError((await callerFor(t)).data.sources(), 'UNAUTHORIZED');
    await expectTRPCError((await callerFor(t)).data.own.list(), 'UNAUTHORIZED');
  });

  it('updates a source now as a job, with progress and the result', async () => {
    // The feed from REPLICATION_URL (not the header's): entered at the data's timestamp.
    for (let sequence = 2940; sequence < 2948; sequence++) {
      feed.write(
        sequence,
        '<osmChange version="0.6"/>',
        new Date(Date.UTC(2021, 3, 21 + sequence - 2947, 20, 21, 46)).toISOString().replace('.000Z', 'Z'),
      );
    }
    feed.write(
      2948,
      `<?xml version="1.0"?><osmChange version="0.6"><modify><node id="267901435" version="11" lat="43.7327806" lon="7.4252031"><tag k="amenity" v="restaurant"/><tag k="name" v="Stars (admin)"/></node></modify></osmChange>`,
      '2021-04-22T20:21:46Z',
    );
    feed.announce(2948, '2021-04-22T20:21:46Z');
    const caller = await admin();
    const { job } = await caller.data.update({ source: GEOFABRIK });
    const done = await finished(job);
    expect(done).toMatchObject({
      state: 'done',
      kind: 'update',
      error: null,
      result: { from: 2947, to: 2948, sequences: 1, modified: 1, timestamp: '2021-04-22T20:21:46Z' },
    });
    expect(done.progress).toMatchObject({ sequence: 2948, first: 2948, last: 2948 });
    expect((await caller.data.sources()).sources[2]).toMatchObject({
      sequence: 2948,
      dataTimestamp: '2021-04-22T20:21:46Z',
    });
    await expectTRPCError(caller.data.update({ source: 'nowhere' }), 'NOT_FOUND');
    await expectTRPCError(caller.data.job({ id: '1b4e28ba-2fa1-11d2-883f-0016d3cca427' }), 'NOT_FOUND');
  });

  it('imports from an http(s) URL as a job; anything else is refused', async () => {
    const caller = await admin();
    await expectTRPCError(
      caller.data.importUrl({ url: 'ftp://example.org/x.osm.pbf' }),
      'BAD_REQUEST',
      /url: must be an http\(s\) URL/,
    );
    await expectTRPCError(
      caller.data.importUrl({ url: 'file:///etc/passwd' }),
      'BAD_REQUEST',
      /url: must be an http\(s\) URL/,
    );
    const { job } = await caller.data.importUrl({ url: `${filesBase}/monaco.osm.pbf`, source: 'monaco-copy' });
    const done = await finished(job);
    expect(done).toMatchObject({ state: 'done', result: { source: 'monaco-copy', places: 825 } });
    const missing = await finished((await caller.data.importUrl({ url: `${filesBase}/gone.osm.pbf` })).job);
    expect(missing).toMatchObject({ state: 'failed', error: expect.stringMatching(/cannot download \(HTTP 404/) });
  });

  it('refuses a private or local address, and a redirect to one, fetching nothing from it', async () => {
    const caller = await admin();
    for (const url of [
      `${otherBase}/monaco.osm.pbf`,
      'http://[::1]:9/x.osm.pbf',
      'http://2130706434/x',
      'http://0/x',
      'http://10.0.0.1/x',
    ]) {
      await expectTRPCError(
        caller.data.importUrl({ url }),
        'BAD_REQUEST',
        /^url: \S+ is a private or local address \(\w+\)/,
      );
    }
    const redirected = await finished((await caller.data.importUrl({ url: `${filesBase}/elsewhere.osm.pbf` })).job);
    expect(redirected).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/cannot download \(127\.0\.0\.2 is a private or local address \(loopback\)/),
    });
    expect(otherHits).toEqual([]);
    expect((await caller.data.sources()).sources.map((s) => s.name)).not.toContain('elsewhere.osm.pbf');
  });

  it('caps the size of a download', async () => {
    const error = await importInputs(createPlaceStore(t.handle), [`${filesBase}/monaco.osm.pbf`], {
      maxDownloadBytes: 1000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as Error).message).toMatch(/larger than/);
  });

  it('removes a source after the page confirmed it; the live and own ones stay', async () => {
    const caller = await admin();
    expect((await caller.data.removeSource({ source: 'monaco-copy' })).removed).toBe(825);
    expect((await caller.data.sources()).sources.map((s) => s.name)).not.toContain('monaco-copy');
    await expectTRPCError(caller.data.removeSource({ source: 'live' }), 'BAD_REQUEST', /cannot be removed/);
    await expectTRPCError(caller.data.removeSource({ source: 'monaco-copy' }), 'NOT_FOUND');
  });
});

describe('own places', () => {
  it('are added, validated, edited and deleted, and found by the public API with source "own"', async () => {
    const caller = await admin();
    await expectTRPCError(
      caller.data.own.save({
        name: 'Ours',
        category: 'bakery',
        lat: 43.73,
        lon: 7.42,
        opening_hours: 'Mo-Fr 25:00-26:00',
      }),
      'BAD_REQUEST',
      /^opening_hours: /,
    );
    await expectTRPCError(
      caller.data.own.save({ name: '', category: 'bakery', lat: 43.73, lon: 7.42 }),
      'BAD_REQUEST',
      /^name: is required/,
    );
    await expectTRPCError(
      caller.data.own.save({ name: 'x', category: 'spaceport', lat: 43.73, lon: 7.42 }),
      'BAD_REQUEST',
      /^category: /,
    );
    await expectTRPCError(
      caller.data.own.save({ name: 'x', category: 'bakery', lat: 'north', lon: 7.42 }),
      'BAD_REQUEST',
      /^lat: must be a number/,
    );
    await expectTRPCError(
      caller.data.own.save({ name: 'x', category: 'bakery', lat: 43, lon: 7, website: 'javascript:alert(1)' }),
      'BAD_REQUEST',
      /^website: /,
    );
    expect(await caller.data.own.list()).toEqual([]);
    expect(await caller.data.own.checkHours({ value: 'Mo-Fr 09:00-18:00; Sa 10:00-14:00' })).toEqual({
      valid: true,
      problem: null,
    });
    expect(await caller.data.own.checkHours({ value: 'Mo-Fr 9-' })).toMatchObject({
      valid: false,
      problem: expect.stringMatching(/^is not valid: /),
    });

    const { place } = await caller.data.own.save({
      name: 'Boulangerie Nous',
      category: 'bakery',
      lat: '43.7301',
      lon: 7.4201,
      address: '1 Rue Grimaldi',
      phone: '+377 93 00 00 00',
      website: 'https://example.org/',
      opening_hours: 'Mo-Sa 07:00-19:00',
    });
    expect(place).toMatchObject({
      name: 'Boulangerie Nous',
      category: 'bakery',
      lat: 43.7301,
      lon: 7.4201,
      opening_hours: 'Mo-Sa 07:00-19:00',
    });
    const search = await t.request({
      method: 'GET',
      url: '/api/places?active_categories=bakery&lat=43.73&lon=7.42&radius=500',
    });
    const found = search.json().results.find((r: { id: string }) => r.id === `own/${place.id}`);
    expect(found).toMatchObject({
      name: 'Boulangerie Nous',
      source: 'own',
      address: '1 Rue Grimaldi',
      phone_number: '+377 93 00 00 00',
      category: 'bakery',
    });
    const one = await t.request({ method: 'GET', url: `/api/places/own/${place.id}` });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: `own/${place.id}`, source: 'own', timezone: 'Europe/Monaco' });
    expect(one.json().hours.days).toHaveLength(7);

    await caller.data.own.save({
      id: place.id,
      name: 'Boucherie Nous',
      category: 'butcher',
      lat: 43.7302,
      lon: 7.4201,
    });
    expect(await caller.data.own.list()).toMatchObject([
      { id: place.id, name: 'Boucherie Nous', category: 'butcher', address: null },
    ]);
    await expectTRPCError(
      caller.data.own.save({ id: 999_999, name: 'x', category: 'bakery', lat: 1, lon: 1 }),
      'NOT_FOUND',
    );
    await caller.data.own.delete({ id: place.id });
    expect(await caller.data.own.list()).toEqual([]);
    expect((await t.request({ method: 'GET', url: `/api/places/own/${place.id}` })).statusCode).toBe(404);
    await expectTRPCError(caller.data.own.delete({ id: place.id }), 'NOT_FOUND');
  });

  const CSV = [
    '\uFEFFname,category,lat,lon,address,phone,website,opening_hours',
    'Café Léa,restaurant,43.731,7.421,"Quai Antoine 1er, 12",,https://lea.example/,Mo-Su 08:00-20:00',
    '"Chez ""Nous""",bakery,43.732,7.422,,+377 1,,',
    '"Multi\r\nline",pharmacy,43.733,7.423,,,,',
    "'=SUM(1),bakery,43.734,7.424,,,,",
    '',
  ].join('\r\n');

  it('import as CSV (added, or replacing), all or nothing with problems by line, and export again', async () => {
    const caller = await admin();
    expect(await caller.data.own.importCsv({ csv: CSV, mode: 'add' })).toMatchObject({ imported: 4, removed: 0 });
    const names = (await caller.data.own.list()).map((p) => p.name);
    expect(names).toEqual(['Café Léa', 'Chez "Nous"', 'Multi\r\nline', '=SUM(1)']);

    const bad = [
      'name,category,lat,lon,address,phone,website,opening_hours',
      'Good,bakery,43.7,7.4,,,,',
      ',bakery,43.7,7.4,,,,',
      'Bad hours,bakery,43.7,7.4,,,,Mo-Fr 99:00',
      'Far,bakery,91,7.4,,,,',
      'Short,bakery,43.7',
    ].join('\n');
    await expectTRPCError(
      caller.data.own.importCsv({ csv: bad, mode: 'replace' }),
      'BAD_REQUEST',
      /^Nothing was imported\. line 3: name is required; line 4: opening_hours is not valid: .+; line 5: lat must be between -90 and 90; line 6: has 3 fields; the header has 8$/,
    );
    await expectTRPCError(
      caller.data.own.importCsv({ csv: 'name,lat\nx,1', mode: 'add' }),
      'BAD_REQUEST',
      /line 1: the header row must be/,
    );
    expect((await caller.data.own.list()).map((p) => p.name)).toEqual(names); // nothing half-imported

    const { csv } = await caller.data.own.exportCsv();
    expect(csv.split('\r\n')[0]).toBe('name,category,lat,lon,address,phone,website,opening_hours');
    expect(csv).toContain('"Chez ""Nous"""');
    expect(csv).toContain("'=SUM(1)"); // a formula never reaches a spreadsheet as one
    // the export is a file the import takes back, the same places
    expect(parseOwnPlacesCsv(csv)).toEqual(parseOwnPlacesCsv(CSV));
    expect(await caller.data.own.importCsv({ csv, mode: 'replace' })).toMatchObject({ imported: 4, removed: 4 });
    expect((await caller.data.own.list()).map((p) => p.name)).toEqual(names);
  });

  it('npm run import takes the same CSV from the command line', () => {
    const file = join(t.dir, 'places.csv');
    writeFileSync(file, CSV);
    const ok = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/import.ts', file], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: t.config.database.kind === 'sqlite' ? `sqlite:${t.config.database.path}` : t.config.database.url,
      },
      encoding: 'utf8',
    });
    expect(ok.stdout + ok.stderr).toContain(`${file}: 4 own places added`);
    expect(ok.status).toBe(0);
    writeFileSync(file, 'name,category,lat,lon,address,phone,website,opening_hours\nNo category,,1,1,,,,\n');
    const bad = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/import.ts', file], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: t.config.database.kind === 'sqlite' ? `sqlite:${t.config.database.path}` : t.config.database.url,
      },
      encoding: 'utf8',
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('line 2: category is required');
  }, 60_000);
});
