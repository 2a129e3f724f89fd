// Uploaded media in both stores (the one in force on this engine, and the other one asked for
// with MEDIA_STORE): served whole and by Range, cached, refused uploads leave nothing, media go
// with their ad, and an upload made through one app instance is served by another.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite } from '../../../db/index.js';
import { MEDIA_CHUNK_SIZE, STALE_UPLOAD_MS } from '../../../src/media/database-store.js';
import { MiB } from '../../../src/media/store.js';
import { buildTestApp, type TestApp } from '../../helpers.js';
import { freshDatabase, TEST_DIALECT } from '../../support/databases.js';
import { fixture, multipart, multipartHead, storedUploads } from '../../support/media.js';

type Store = 'folder' | 'database';
const inForce: Store = TEST_DIALECT === 'postgres' ? 'database' : 'folder';
const other: Store = inForce === 'database' ? 'folder' : 'database';
const STORES: { label: string; store: Store; env: Record<string, string> }[] = [
  { label: `the store in force (${inForce})`, store: inForce, env: {} },
  { label: `MEDIA_STORE=${other}`, store: other, env: { MEDIA_STORE: other } },
];

/** A real MP4 head (so it sniffs as one) and random bytes: three chunks and a part of a fourth. */
const VIDEO = Buffer.concat([fixture('tiny.mp4'), randomBytes(3 * MEDIA_CHUNK_SIZE + 12_345)]);
const C = MEDIA_CHUNK_SIZE;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const nameOf = (url: string) => url.slice('/uploads/'.length);

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/**
 * A multipart upload over a real connection, sent piece by piece: the test decides when (and
 * whether) the body ends, to see what the server does while the bytes are still coming.
 */
function streamingUpload(base: string, cookie: string, file: { filename: string; type: string }) {
  const boundary = `----stream${randomBytes(8).toString('hex')}`;
  const req = httpRequest(`${base}/api/uploads`, {
    method: 'POST',
    headers: { cookie, 'sec-fetch-site': 'same-origin', 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
  });
  req.write(multipartHead(boundary, {}, file));
  return {
    response,
    /** writes without waiting: a server that stopped reading must not block the test */
    write: (data: Buffer) => void req.write(data),
    /** writes and waits until the bytes are handed to the socket */
    send: (data: Buffer) => new Promise<void>((resolve, reject) => req.write(data, (e) => (e ? reject(e) : resolve()))),
    finish: () => req.end(`\r\n--${boundary}--\r\n`),
    abort: () => {
      response.catch(() => {}); // cut off on purpose: no answer is expected any more
      req.destroy();
    },
  };
}

/** Resolves with `promise`, or fails naming `what` after `ms`. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(STORES)('media from $label', ({ store, env }) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await buildTestApp({ env });
    cookie = await t.login();
  });
  afterEach(() => t.close());

  const upload = async (data: Buffer, filename = 'clip.mp4', type = 'video/mp4') => {
    const response = await t.request({
      method: 'POST',
      url: '/api/uploads',
      cookie,
      ...multipart({}, { filename, type, data }),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().url as string;
  };
  const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.request({ method, url, headers });

  it(`keeps uploads in the ${store}`, async () => {
    expect(t.config.mediaStore).toBe(store);
    const url = await upload(VIDEO);
    expect(url).toMatch(/^\/uploads\/[A-Za-z0-9_-]{22}\.mp4$/);
    const rows = await t.handle.db.selectFrom('media').selectAll().execute();
    if (store === 'database') {
      expect(rows).toEqual([
        {
          name: nameOf(url),
          mime: 'video/mp4',
          size: VIDEO.length,
          sha256: sha256(VIDEO),
          complete: 1,
          created_at: t.clock.now(),
        },
      ]);
      const chunks = await t.handle.db
        .selectFrom('media_chunks')
        .select(['seq', (eb) => eb.fn<number>('length', ['data']).as('bytes')])
        .orderBy('seq')
        .execute();
      expect(chunks.map((c) => [c.seq, Number(c.bytes)])).toEqual([
        [0, C],
        [1, C],
        [2, C],
        [3, VIDEO.length - 3 * C],
      ]);
    } else {
      expect(rows).toEqual([]);
    }
    expect(await storedUploads(t)).toEqual([nameOf(url)]);
  });

  it('serves the whole upload with its stored type, caching and security headers', async () => {
    const url = await upload(VIDEO);
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(VIDEO)).toBe(true);
    expect(response.headers).toMatchObject({
      'content-type': 'video/mp4',
      'content-length': String(VIDEO.length),
      'accept-ranges': 'bytes',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(response.headers.etag).toMatch(/^(W\/)?".+"$/);
    if (store === 'database') expect(response.headers.etag).toBe(`"${sha256(VIDEO)}"`);
    expect(Number.isFinite(Date.parse(String(response.headers['last-modified'])))).toBe(true);
  });

  it('answers HEAD with the headers and no body', async () => {
    const url = await upload(VIDEO);
    const head = await get(url, {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.rawPayload.length).toBe(0);
    expect(head.headers).toMatchObject({
      'content-type': 'video/mp4',
      'content-length': String(VIDEO.length),
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    });
    expect(head.headers.etag).toBe((await get(url)).headers.etag);
  });

  it.each([
    ['the first bytes', 'bytes=0-99', 0, 99],
    ['a middle piece', 'bytes=1000-1999', 1000, 1999],
    ['a range across a chunk boundary', `bytes=${C - 10}-${C + 9}`, C - 10, C + 9],
    ['a range across two boundaries', `bytes=${C - 1}-${2 * C}`, C - 1, 2 * C],
    ['one byte at a chunk start', `bytes=${2 * C}-${2 * C}`, 2 * C, 2 * C],
    ['a suffix', 'bytes=-500', VIDEO.length - 500, VIDEO.length - 1],
    ['an open-ended range', `bytes=${3 * C - 5}-`, 3 * C - 5, VIDEO.length - 1],
    [
      'a range past the end, cut to it',
      `bytes=${VIDEO.length - 10}-${VIDEO.length + 1000}`,
      VIDEO.length - 10,
      VIDEO.length - 1,
    ],
  ])('answers %s with 206', async (_what, range, start, end) => {
    const url = await upload(VIDEO);
    const response = await get(url, { range });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes ${start}-${end}/${VIDEO.length}`);
    expect(response.headers['content-length']).toBe(String(end - start + 1));
    expect(response.headers['content-type']).toBe('video/mp4');
    expect(response.rawPayload.equals(VIDEO.subarray(start, end + 1))).toBe(true);
  });

  it('answers a range past the end with 416 and the size', async () => {
    const url = await upload(VIDEO);
    const response = await get(url, { range: `bytes=${VIDEO.length}-` });
    expect(response.statusCode).toBe(416);
    expect(response.headers['content-range']).toBe(`bytes */${VIDEO.length}`);
    expect(response.json()).toEqual({ error: expect.any(String) });
  });

  it('answers 304 to a matching If-None-Match or If-Modified-Since, the body otherwise', async () => {
    const url = await upload(VIDEO);
    const first = await get(url);
    const etag = String(first.headers.etag);
    const cached = await get(url, { 'if-none-match': etag });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    expect(cached.headers.etag).toBe(etag);
    expect((await get(url, { 'if-none-match': `"other", ${etag}` })).statusCode).toBe(304);
    expect((await get(url, { 'if-modified-since': String(first.headers['last-modified']) })).statusCode).toBe(304);
    const changed = await get(url, { 'if-none-match': '"something-else"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(VIDEO)).toBe(true);
  });

  if (store === 'database') {
    it('honours If-Range: the range while the entity tag matches, the whole file otherwise', async () => {
      const url = await upload(VIDEO);
      const etag = String((await get(url)).headers.etag);
      expect((await get(url, { range: 'bytes=0-9', 'if-range': etag })).statusCode).toBe(206);
      const stale = await get(url, { range: 'bytes=0-9', 'if-range': '"an-older-version"' });
      expect(stale.statusCode).toBe(200);
      expect(stale.rawPayload.equals(VIDEO)).toBe(true);
    });
  }

  it('answers 404 with the error shape for an unknown upload, and never serves anything else', async () => {
    for (const url of ['/uploads/AAAAAAAAAAAAAAAAAAAAAA.mp4', '/uploads/AAAAAAAAAAAAAAAAAAAAAA.png']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found' });
    }
    // The folder store says 403 to a path that leaves the folder, the database store 404.
    for (const url of ['/uploads/..%2Fapp.db', '/uploads/.incoming-x']) {
      const response = await get(url);
      expect([403, 404], url).toContain(response.statusCode);
      expect(response.json()).toEqual({ error: expect.any(String) });
    }
  });

  it('refuses a disguised HTML page with 415 and keeps nothing', async () => {
    const page = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const response = await t.request({
      method: 'POST',
      url: '/api/uploads',
      cookie,
      ...multipart({}, { filename: 'a.png', type: 'image/png', data: page }),
    });
    expect(response.statusCode).toBe(415);
    expect(await storedUploads(t)).toEqual([]);
  });

  it('refuses a 6 MiB image with 413 while it is still arriving, and keeps nothing', async () => {
    const base = await listen(t.app);
    const sending = streamingUpload(base, cookie, { filename: 'big.png', type: 'image/png' });
    // Past the 5 MiB cap, but the body never ends: the answer must come before it would.
    sending.write(fixture('tiny.png'));
    for (let sent = 0; sent < 5 * MiB + 256 * 1024; sent += 256 * 1024) sending.write(randomBytes(256 * 1024));
    try {
      const response = await within(15_000, 'answer before the end of the body', sending.response);
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body)).toEqual({ error: 'file: images may be at most 5 MiB' });
      expect(await storedUploads(t)).toEqual([]);
    } finally {
      sending.abort();
    }
    // The server drops the rest of a refused body: it sees the client hang up at once, rather
    // than keeping a paused connection until its request timeout.
    const connections = () =>
      new Promise<number>((resolve, reject) => t.app.server.getConnections((e, n) => (e ? reject(e) : resolve(n))));
    await until('the connection closed', async () => (await connections()) === 0, 5000);
  });

  it('deletes uploads with their ad and their background video', async () => {
    await t.request({
      method: 'POST',
      url: '/api/ads',
      cookie,
      ...multipart({ type: 'static', title: 'A' }, { filename: 'a.png', type: 'image/png', data: fixture('tiny.png') }),
    });
    const url = await upload(VIDEO);
    const video = await t.request({
      method: 'POST',
      url: '/api/background_videos',
      cookie,
      payload: { title: 'Intro', enabled: 1, media_url: url },
    });
    expect(video.statusCode, video.body).toBe(200);
    expect(await storedUploads(t)).toHaveLength(2);

    const ads = (await t.request({ method: 'GET', url: '/api/ads' })).json();
    expect(
      (await t.request({ method: 'DELETE', url: `/api/ads?id=${ads.static[0].id}&type=static`, cookie })).statusCode,
    ).toBe(200);
    expect(await storedUploads(t)).toEqual([nameOf(url)]);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/background_videos?id=${video.json().id}`, cookie })).statusCode,
    ).toBe(200);
    expect(await storedUploads(t)).toEqual([]);
    expect((await get(url)).statusCode).toBe(404);
  });

  it('serves an upload made through one instance from another on the same database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'media-two-'));
    const database = await freshDatabase(dir);
    // A folder store works across instances only on storage they share; the database store
    // needs none (each instance keeps its own, unused, UPLOAD_DIR).
    const shared = {
      ...env,
      DATABASE_URL: database.url,
      ...(store === 'folder' ? { UPLOAD_DIR: join(dir, 'uploads') } : {}),
    };
    const a = await buildTestApp({ env: shared });
    const b = await buildTestApp({ env: shared });
    try {
      const [baseA, baseB] = [await listen(a.app), await listen(b.app)];
      const form = new FormData();
      form.append('file', new Blob([VIDEO], { type: 'video/mp4' }), 'clip.mp4');
      const uploaded = await fetch(`${baseA}/api/uploads`, {
        method: 'POST',
        headers: { cookie: await a.login(), 'sec-fetch-site': 'same-origin' },
        body: form,
      });
      expect(uploaded.status).toBe(201);
      const { url } = (await uploaded.json()) as { url: string };

      const whole = await fetch(`${baseB}${url}`);
      expect(whole.status).toBe(200);
      expect(Buffer.from(await whole.arrayBuffer()).equals(VIDEO)).toBe(true);
      const part = await fetch(`${baseB}${url}`, { headers: { range: `bytes=${C - 100}-${C + 99}` } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(VIDEO.subarray(C - 100, C + 100))).toBe(true);
      expect(whole.headers.get('etag')).toBe((await fetch(`${baseA}${url}`, { method: 'HEAD' })).headers.get('etag'));

      // Deleted through B: gone on A too.
      const cookieB = await b.login();
      const ad = await fetch(`${baseB}/api/ads`, {
        method: 'POST',
        headers: { cookie: cookieB, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'static', media_url: url }),
      });
      const { id } = (await ad.json()) as { id: number };
      expect(
        (
          await fetch(`${baseB}/api/ads?id=${id}&type=static`, {
            method: 'DELETE',
            headers: { cookie: cookieB, 'sec-fetch-site': 'same-origin' },
          })
        ).status,
      ).toBe(200);
      expect((await fetch(`${baseA}${url}`)).status).toBe(404);
    } finally {
      await a.close();
      await b.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  if (store === 'database') {
    it('writes an upload chunk by chunk without holding a transaction open, serving it only once complete', async () => {
      const base = await listen(t.app);
      const sending = streamingUpload(base, cookie, { filename: 'clip.mp4', type: 'video/mp4' });
      try {
        await sending.send(VIDEO.subarray(0, 2 * C + 100));
        const chunks = () => t.handle.db.selectFrom('media_chunks').select('name').execute();
        await until('two chunks written', async () => (await chunks()).length >= 2);
        const [row] = await t.handle.db.selectFrom('media').select(['name', 'complete']).execute();
        expect(row.complete).toBe(0);
        expect((await get(`/uploads/${row.name}`)).statusCode).toBe(404);

        // Other writers are not kept waiting while the client takes its time.
        if (t.handle.dialect === 'sqlite') {
          const other = openSqlite(t.handle.path);
          other.pragma('busy_timeout = 0');
          expect(() => other.exec('begin immediate; rollback')).not.toThrow();
          other.close();
        } else {
          const open = await sql<{
            n: number;
          }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`.execute(
            t.handle.db,
          );
          expect(open.rows[0].n).toBe(0);
        }

        await sending.send(VIDEO.subarray(2 * C + 100));
        sending.finish();
        const response = await within(15_000, 'answer', sending.response);
        expect(response.status, response.body).toBe(201);
        const { url } = JSON.parse(response.body) as { url: string };
        expect(nameOf(url)).toBe(row.name);
        expect((await get(url)).rawPayload.equals(VIDEO)).toBe(true);
      } finally {
        sending.abort();
      }
    });

    it('reads only the chunks a range needs', async () => {
      const url = await upload(VIDEO);
      // Damage the last chunk: ranges that do not touch it are still served in full...
      await t.handle.db.deleteFrom('media_chunks').where('name', '=', nameOf(url)).where('seq', '=', 3).execute();
      for (const [start, end] of [
        [0, 99],
        [C - 10, 2 * C + 10],
        [3 * C - 100, 3 * C - 1],
      ]) {
        const response = await get(url, { range: `bytes=${start}-${end}` });
        expect(response.statusCode).toBe(206);
        expect(response.rawPayload.equals(VIDEO.subarray(start, end + 1))).toBe(true);
      }
      // ...and one that does fails rather than send other bytes: a 500 if nothing was sent yet,
      // else the connection is cut off.
      const tail = await get(url, { range: 'bytes=-10' });
      expect(tail.statusCode).toBe(500);
      expect(tail.json()).toEqual({ error: 'Internal server error' });
      const base = await listen(t.app);
      const whole = await fetch(`${base}${url}`);
      expect(whole.status).toBe(200);
      await expect(whole.arrayBuffer()).rejects.toThrow();
    });

    it('deletes what an upload cut off mid-way wrote', async () => {
      const base = await listen(t.app);
      const sending = streamingUpload(base, cookie, { filename: 'clip.mp4', type: 'video/mp4' });
      await sending.send(VIDEO.subarray(0, 2 * C + 100));
      await until(
        'two chunks written',
        async () => (await t.handle.db.selectFrom('media_chunks').select('name').execute()).length >= 2,
      );
      sending.abort();
      await until('the partial upload deleted', async () => (await storedUploads(t)).length === 0);
    });

    it('sweeps incomplete uploads left behind by a crash, at start-up and before later uploads', async () => {
      const db = t.handle.db;
      const leftover = async (name: string, age: number) => {
        await db
          .insertInto('media')
          .values({ name, mime: 'video/mp4', size: 0, sha256: '', complete: 0, created_at: t.clock.now() - age })
          .execute();
        await db
          .insertInto('media_chunks')
          .values({ name, seq: 0, data: VIDEO.subarray(0, C) })
          .execute();
      };
      const [stale, recent] = ['stale', 'recent'].map(() => `${randomBytes(16).toString('base64url')}.mp4`);
      await leftover(stale, STALE_UPLOAD_MS + 1000);
      await leftover(recent, 1000);
      expect((await get(`/uploads/${stale}`)).statusCode).toBe(404);

      // Before the next upload (a minute after the start-up sweep): the stale one goes.
      t.clock.advance(61_000);
      const url = await upload(fixture('tiny.png'), 'a.png', 'image/png');
      expect(await storedUploads(t)).toEqual([recent, nameOf(url)].sort());

      // At start-up: another instance on this database sweeps the now stale one.
      t.clock.advance(STALE_UPLOAD_MS);
      const databaseUrl = t.handle.dialect === 'sqlite' ? `sqlite:${t.handle.path}` : t.handle.url;
      const second = await buildTestApp({ env: { ...env, DATABASE_URL: databaseUrl }, clock: t.clock });
      await second.close();
      expect(await storedUploads(t)).toEqual([nameOf(url)]);
      const served = await get(url);
      expect(served.rawPayload.equals(fixture('tiny.png'))).toBe(true);
    });
  }
});
