// npm run move-db (issue 8, point 7): an SQLite site with data (settings, users, plans, ads with
// uploaded media, messages, visits, the Monaco extract's places) is moved by the real command
// into an empty PostgreSQL database; an app on the target then answers the same through the API.
// Also: a non-empty target is refused and left as it was, a failure leaves the target without
// data, and a source that is not SQLite is refused.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from '../../../db/sqlite-driver.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, buildTestApp, SHARED_DATA, type TestApp } from '../../helpers.js';
import { emptyPostgresDatabase, type TestDatabase } from '../../support/databases.js';
import { importedDatabase } from '../../support/templates.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const OTHER_PASSWORD = 'a second admin, long enough';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `npm run move-db` (its script, as npm would) with this environment; at most 90 s. */
function moveDb(args: string[], env: Record<string, string>): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/move-db.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += String(c)));
    child.stderr.on('data', (c) => (stderr += String(c)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`move-db did not finish in 90 s: ${stdout}${stderr}`));
    }, 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

async function rows<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** A multipart/form-data body with fields and one file, as a browser's FormData sends it. */
function multipart(fields: Record<string, string>, file: { filename: string; type: string; data: Buffer }) {
  const boundary = `----move${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from('\r\n'),
  );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Places searches at a few Monaco points, as the public page asks them. */
const SEARCHES = [
  '/api/places?lat=43.7384&lon=7.4246&active_categories=restaurant&active_categories=pharmacy&lang=fr',
  '/api/places?lat=43.7311&lon=7.4197&active_categories=amenity&radius=2000&limit=50',
  '/api/places?lat=43.7496&lon=7.4372&active_categories=bank&active_categories=atm&active_categories=bakery',
  '/api/places?lat=43.7402&lon=7.4270&active_categories=shop&active_categories=tourism&radius=500&lang=es',
];

/** Everything a visitor and an admin can read, as JSON text per path. */
async function snapshot(t: TestApp, cookie: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const url of [
    '/api/settings',
    '/api/plans',
    '/api/ads',
    '/api/messages',
    '/api/visits',
    '/api/visits/daily',
    '/api/admin/credentials',
    ...SEARCHES,
  ]) {
    const response = await t.request({ method: 'GET', url, cookie });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    out[url] = response.json();
  }
  return out;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'move-db-test-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run move-db', () => {
  let sqliteUrl: string;
  let uploads: string;
  let before: Record<string, unknown>;
  let mediaUrls: string[];
  let lastCopiedPlanId: number;
  let image: Buffer;

  // ---- The SQLite site, built through the API, then closed (as a move expects).
  beforeAll(async () => {
    const site = join(dir, 'site');
    uploads = join(site, 'uploads');
    mkdirSync(uploads, { recursive: true });
    // the site's places, as `npm run import` of Monaco wrote them (a copy of the run's import)
    sqliteUrl = (await importedDatabase(site, { extracts: [join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf')] }, 'sqlite'))
      .url;
    const source = await buildTestApp({ env: { DATABASE_URL: sqliteUrl, UPLOAD_DIR: uploads } });
    try {
      const cookie = await source.login();
      const settings = await source.request({
        method: 'POST',
        url: '/api/settings',
        cookie,
        payload: {
          site_title: 'Monaco nearby',
          primary_color: '#123456',
          default_city: 'Monaco',
          contact_email: 'hello@example.org',
          languages: ['en', 'fr'],
        },
      });
      expect(settings.statusCode, settings.body).toBe(200);
      const planIds: number[] = [];
      for (const [name, price, type, description] of [
        ['Basic', 0, 'basic', 'Free listing'],
        ['Pro', 19.99, 'pro', { features: ['Logo', 'Top of the list'], languages: ['en', 'fr'] }],
        ['Premium', 49.5, 'premium', 'Everything'],
        ['Gone', 1, 'basic', 'deleted before the move'],
      ] as const) {
        const response = await source.request({
          method: 'POST',
          url: '/api/plans',
          cookie,
          payload: { name, price, type, description, link: 'https://example.org/buy' },
        });
        expect(response.statusCode, response.body).toBe(200);
        planIds.push(response.json().id);
      }
      // The highest id is deleted: the target must not hand it out again.
      expect((await source.request({ method: 'DELETE', url: `/api/plans?id=${planIds[3]}`, cookie })).statusCode).toBe(
        200,
      );
      lastCopiedPlanId = planIds[3];

      // An image larger than two media chunks (a PNG header, then bytes), a small one, a video.
      // (the bytes go in an ancillary chunk before IEND: uploads must be whole, well-formed images)
      const png = readFileSync(join(FIXTURES, 'tiny.png'));
      const filler = randomBytes(1_200_000);
      const head = Buffer.alloc(8);
      head.writeUInt32BE(filler.length, 0);
      head.write('zeRo', 4, 'latin1');
      image = Buffer.concat([
        png.subarray(0, png.length - 12),
        head,
        filler,
        Buffer.alloc(4),
        png.subarray(png.length - 12),
      ]);
      const ad = await source.request({
        method: 'POST',
        url: '/api/ads',
        cookie,
        ...multipart(
          { type: 'carousel', title: 'Big', link: 'https://example.org/a', interval: '4000' },
          { filename: 'big.png', type: 'image/png', data: image },
        ),
      });
      expect(ad.statusCode, ad.body).toBe(200);
      const small = await source.request({
        method: 'POST',
        url: '/api/ads',
        cookie,
        ...multipart(
          { type: 'static', title: 'Small', link: 'https://example.org/b' },
          { filename: 'a.gif', type: 'image/gif', data: readFileSync(join(FIXTURES, 'tiny.gif')) },
        ),
      });
      expect(small.statusCode, small.body).toBe(200);
      const video = await source.request({
        method: 'POST',
        url: '/api/background_videos',
        cookie,
        ...multipart(
          { title: 'Harbour', enabled: '1' },
          { filename: 'v.mp4', type: 'video/mp4', data: readFileSync(join(FIXTURES, 'tiny.mp4')) },
        ),
      });
      expect(video.statusCode, video.body).toBe(200);

      for (let i = 0; i < 3; i++) {
        const sent = await source.request({
          method: 'POST',
          url: '/api/contact',
          payload: {
            name: `Visitor ${i}`,
            email: `v${i}@example.org`,
            subject: `Question ${i}`,
            body: `Line one\nline two\ttabbed \\ backslash ${i} é`,
          },
        });
        expect(sent.statusCode, sent.body).toBe(200);
      }
      expect(
        (await source.request({ method: 'PUT', url: '/api/messages', cookie, payload: { id: 1, status: 'read' } }))
          .statusCode,
      ).toBe(200);
      for (let i = 0; i < 5; i++)
        expect((await source.request({ method: 'POST', url: '/api/visit' })).statusCode).toBe(200);
      const other = await source.request({
        method: 'POST',
        url: '/api/admin/credentials',
        cookie,
        payload: { username: 'editor', password: OTHER_PASSWORD },
      });
      expect(other.statusCode, other.body).toBe(200);

      before = await snapshot(source, cookie);
      mediaUrls = [...new Set(JSON.stringify(before['/api/ads']).match(/\/uploads\/[A-Za-z0-9_-]{22}\.[a-z0-9]+/g))];
      expect(mediaUrls).toHaveLength(3);
      expect((before[SEARCHES[0]] as { results: unknown[] }).results.length).toBeGreaterThan(0);
    } finally {
      await source.close();
    }
  }, 120_000);

  /** Logs in on the moved site and checks that it answers as the SQLite site did. */
  async function checkMovedSite(moved: TestApp): Promise<void> {
    expect(moved.handle.dialect).toBe('postgres');
    const cookie = await moved.login('admin', ADMIN_PASSWORD);
    await moved.login('editor', OTHER_PASSWORD);
    const wrong = await moved.request({
      method: 'POST',
      url: '/api/admin/login',
      payload: { username: 'admin', password: 'not the password at all' },
    });
    expect(wrong.statusCode).toBe(401);

    const after = await snapshot(moved, cookie);
    for (const [url, answer] of Object.entries(before)) expect(after[url], url).toEqual(answer);

    for (const url of mediaUrls) {
      const served = await moved.request({ method: 'GET', url });
      expect(served.statusCode, url).toBe(200);
      const original = readFileSync(join(uploads, url.slice('/uploads/'.length)));
      expect(served.rawPayload.equals(original), url).toBe(true);
    }

    const plan = await moved.request({
      method: 'POST',
      url: '/api/plans',
      cookie,
      payload: { name: 'New', price: 5, type: 'pro', description: 'after the move', link: 'https://example.org/new' },
    });
    expect(plan.statusCode, plan.body).toBe(200);
    expect(plan.json().id).toBeGreaterThan(lastCopiedPlanId);
    const message = await moved.request({
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'After', email: 'a@example.org', subject: 'Hi', body: 'new' },
    });
    expect(message.json().id).toBe(4);
  }

  it('moves the site into an empty PostgreSQL database, media into the database store; the moved site answers the same', async () => {
    const target = await emptyPostgresDatabase();
    try {
      const run = await moveDb(['--to', target.url], { DATABASE_URL: sqliteUrl, UPLOAD_DIR: uploads });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^Moved .*app\.db .* in [\d.]+ s, checked:/);
      expect(run.stdout).toMatch(/^places\s+(\d+)\s+\1\s+same rows; next id \d+$/m);
      expect(run.stdout).toMatch(/^settings\s+(\d+)\s+\1\s+same rows, compared one by one$/m);
      expect(run.stdout).toMatch(/^admin_users\s+2\s+2\s+same rows, compared one by one; next id 3$/m);
      expect(run.stdout).toMatch(/^place searches\s+100\s+100\s+same places, same distances$/m);
      expect(run.stdout).toMatch(/^media files\s+3\s+3\s+same bytes, in the database store$/m);
      expect(run.stdout).toMatch(/^sessions\s+\d+\s+-\s+not copied/m);
      process.stdout.write(
        `move-db, Monaco site: ${(run.ms / 1000).toFixed(1)} s for the whole command; ${run.stdout.match(/ in ([\d.]+ s)/)![1]} for the move\n`,
      );

      // The bytes are in the database store, in 512 KiB chunks.
      const name = mediaUrls.find((u) => u.endsWith('.png'))!.slice('/uploads/'.length);
      const chunks = await rows<{ seq: number; data: Buffer }>(
        target.url,
        `select seq, data from media_chunks where name = '${name}' order by seq`,
      );
      expect(chunks.map((c) => c.data.length)).toEqual([524_288, 524_288, image.length - 2 * 524_288]);
      expect(Buffer.concat(chunks.map((c) => c.data)).equals(image)).toBe(true);

      // The site on PostgreSQL, with an empty upload folder: media come from the database.
      const moved = await buildTestApp({ env: { DATABASE_URL: target.url, UPLOAD_DIR: join(dir, 'no-uploads') } });
      try {
        await checkMovedSite(moved);
      } finally {
        await moved.close();
      }

      // Once moved, the target holds a site: a second move is refused.
      const again = await moveDb(['--to', target.url], { DATABASE_URL: sqliteUrl, UPLOAD_DIR: uploads });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/is not empty: it already holds a site: .*admin_users \(2 rows\)/);
    } finally {
      await target.drop();
    }
  }, 120_000);

  it('with --media-store folder, leaves the media in UPLOAD_DIR for a site on MEDIA_STORE=folder', async () => {
    const target = await emptyPostgresDatabase();
    try {
      const run = await moveDb(['--to', target.url, '--media-store', 'folder'], {
        DATABASE_URL: sqliteUrl,
        UPLOAD_DIR: uploads,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^media files\s+3\s+-\s+left in .*uploads \(MEDIA_STORE=folder\)$/m);
      expect(run.stdout).toMatch(/MEDIA_STORE=folder and UPLOAD_DIR=/);
      expect(await rows(target.url, 'select name from media')).toEqual([]);
      const moved = await buildTestApp({
        env: { DATABASE_URL: target.url, MEDIA_STORE: 'folder', UPLOAD_DIR: uploads },
      });
      try {
        await checkMovedSite(moved);
      } finally {
        await moved.close();
      }
    } finally {
      await target.drop();
    }
  }, 120_000);
});

describe('move-db refusals and failures', () => {
  let target: TestDatabase;
  let sqliteUrl: string;

  beforeAll(async () => {
    const site = join(dir, 'small');
    sqliteUrl = `sqlite:${join(site, 'app.db')}`;
    const source = await buildTestApp({ env: { DATABASE_URL: sqliteUrl, UPLOAD_DIR: join(site, 'uploads') } });
    const cookie = await source.login();
    await source.request({
      method: 'POST',
      url: '/api/plans',
      cookie,
      payload: { name: 'Basic', price: 0, type: 'basic', description: 'x', link: 'https://example.org' },
    });
    await source.close();
  });

  it('refuses a target with tables of its own, names them and leaves it untouched', async () => {
    target = await emptyPostgresDatabase();
    try {
      await rows(
        target.url,
        'create table invoices (id int primary key, total numeric); insert into invoices values (1, 9.5)',
      );
      const run = await moveDb(['--to', target.url], { DATABASE_URL: sqliteUrl });
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(
        /the target .* is not empty: it has 1 table that this site did not create: invoices\. Nothing was changed/,
      );
      const tables = await rows<{ tablename: string }>(
        target.url,
        "select tablename from pg_tables where schemaname = 'public' and tablename <> 'spatial_ref_sys' order by 1",
      );
      expect(tables.map((t) => t.tablename)).toEqual(['invoices']);
      expect(await rows(target.url, 'select id, total::text from invoices')).toEqual([{ id: 1, total: '9.5' }]);
    } finally {
      await target.drop();
    }
  }, 60_000);

  it('commits nothing when a row cannot be copied, and the same target takes the fixed site', async () => {
    target = await emptyPostgresDatabase();
    try {
      // A NUL character: SQLite stores it, PostgreSQL's text cannot. Written after the plans.
      const path = sqliteUrl.slice('sqlite:'.length);
      const db = new SQLite(path);
      db.prepare(
        "insert into messages (name, email, subject, body, status) values ('N', 'n@example.org', 's', ?, 'unread')",
      ).run('bad\0byte');
      db.close();
      const failed = await moveDb(['--to', target.url], { DATABASE_URL: sqliteUrl });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(
        /failed, nothing was committed to .*: messages\.body: a text value holds a NUL character/,
      );
      const counts = await rows<{ plans: number; users: number; messages: number }>(
        target.url,
        'select (select count(*) from plans)::int as plans, (select count(*) from admin_users)::int as users, (select count(*) from messages)::int as messages',
      );
      expect(counts).toEqual([{ plans: 0, users: 0, messages: 0 }]);

      const fix = new SQLite(path);
      fix.prepare("delete from messages where body like 'bad%'").run();
      fix.close();
      const run = await moveDb(['--to', target.url], { DATABASE_URL: sqliteUrl });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^plans\s+1\s+1\s+same rows; next id 2$/m);
      expect(run.stdout).toMatch(/^media files\s+0\s+0/m);
    } finally {
      await target.drop();
    }
  }, 90_000);

  it('refuses a source that is not SQLite, and asks for --to', async () => {
    const run = await moveDb(['--to', 'postgres://postgres@127.0.0.1:1/none'], {
      DATABASE_URL: 'postgres://app@db.example.org:5432/site',
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'move-db: the site in force (DATABASE_URL) is already on PostgreSQL (db.example.org:5432/site); move-db copies an SQLite site (DATABASE_URL=sqlite:<file>) into PostgreSQL',
    );
    const missing = await moveDb([], { DATABASE_URL: sqliteUrl });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/give the target with --to/);
    const help = await moveDb(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run move-db -- --to <postgres:/);
    expect(help.stdout).toMatch(/Not copied: sessions/);
  }, 60_000);
});
