// Behind a real proxy (issue 27, point 3): Debian's nginx with the project's deploy/nginx.conf in
// front of two server processes on one database (on SQLite each runs WEB_CONCURRENCY=2 workers),
// TRUST_PROXY left unset (nginx on the same machine). Requests come from several loopback
// addresses (127.0.0.x are all this machine's), so nginx sees several visitors.
import { connect, type Socket } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, multipart } from '../../support/media.js';
import { ADMIN_PASSWORD } from '../../helpers.js';
import { freshDatabase, TEST_DIALECT, type TestDatabase } from '../../support/databases.js';
import { startNginx, SERVER_NAME, through, type Nginx, type Reply } from '../../../support/nginx.js';
import { clearOfWindowEdge, refusedWithin } from '../../support/rate-limits.js';
import { ROOT, startServer, type ServerProcess } from '../../support/server-process.js';

const SITE = `https://${SERVER_NAME}`;
/** what a browser on the site's own pages sends with a write */
const SAME_SITE = { origin: SITE, 'sec-fetch-site': 'same-origin' };

describe('nginx in front of two nodes', () => {
  let dir: string;
  let database: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let nginx: Nginx;
  const get = (path: string, from: string, cookie?: string) => through(nginx.port, 'GET', path, { from, cookie });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nginx-'));
    database = await freshDatabase(dir);
    const env = {
      DATABASE_URL: database.url,
      RATE_LIMIT: 'on',
      PUBLIC_ORIGIN: SITE,
      LOG_LEVEL: 'info',
      UPLOAD_DIR: join(dir, 'uploads'),
      DATABASE_POOL: '4',
      ...(TEST_DIALECT === 'sqlite' ? { WEB_CONCURRENCY: '2' } : {}),
    };
    a = await startServer(env, { timeoutMs: 90_000 });
    b = await startServer(env, { timeoutMs: 90_000 });
    nginx = await startNginx(join(dir, 'nginx'), [a.port, b.port]);
  }, 180_000);

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const login = async (from: string): Promise<{ reply: Reply; cookie: string }> => {
    const reply = await through(nginx.port, 'POST', '/api/admin/login', {
      from,
      json: { username: 'admin', password: ADMIN_PASSWORD },
      headers: SAME_SITE,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const sid = [reply.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('sid='))!;
    return { reply, cookie: sid.split(';')[0] };
  };
  /** the access-log lines of a server process for `url`, with the visitor's address */
  const answered = (server: ServerProcess, url: string) =>
    server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{') && line.includes('"request completed"'))
      .map((line) => JSON.parse(line) as { url: string; ip: string; statusCode: number })
      .filter((line) => line.url === url);
  /**
   * The answers to `url` each server logged, once both logs together hold at least `count`: a
   * server logs a request after sending its reply, and its output comes through a pipe, so the
   * reply can be here before the line is.
   */
  const answeredByEach = async (url: string, count: number) => {
    const until = Date.now() + 10_000;
    for (;;) {
      const lines = [a, b].map((server) => answered(server, url));
      if (lines[0].length + lines[1].length >= count || Date.now() > until) return lines;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  it(
    'serves the built files itself, as the build gzipped them, and passes the app’s compressed pages',
    { timeout: 60_000 },
    async () => {
      const page = await through(nginx.port, 'GET', '/fr/', {
        from: '127.0.0.5',
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(page.status).toBe(200);
      expect(page.headers['content-encoding']).toBe('br');
      const html = brotliDecompressSync(page.raw).toString('utf8');
      expect(html).toContain('<html lang="fr"');
      // the largest script the page loads
      const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
      const script = scripts.sort(
        (a, b) => statSync(join(ROOT, 'dist', 'web', b)).size - statSync(join(ROOT, 'dist', 'web', a)).size,
      )[0];
      const asset = await through(nginx.port, 'GET', script, {
        from: '127.0.0.5',
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(asset.status).toBe(200);
      expect(asset.headers['content-encoding']).toBe('gzip');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(gunzipSync(asset.raw).equals(readFileSync(join(ROOT, 'dist', 'web', script)))).toBe(true);
      // a file the build folder does not have is the app's to answer
      expect((await through(nginx.port, 'GET', '/assets/none.js', { from: '127.0.0.5' })).status).toBe(404);
    },
  );

  it('counts each visitor (source address) apart, as the visitor nginx saw', { timeout: 90_000 }, async () => {
    await clearOfWindowEdge();
    // 300 from one visitor and 100 from another: together past 300, each within its own.
    // 20 at a time: a crowd past what a node takes on at once would be shed (the test below).
    const inTwenties = async (count: number, from: string) => {
      const replies: Reply[] = [];
      for (let sent = 0; sent < count; sent += 20)
        replies.push(
          ...(await Promise.all(Array.from({ length: Math.min(20, count - sent) }, () => get('/api/plans', from)))),
        );
      return replies;
    };
    const first = await inTwenties(300, '127.0.0.2');
    const second = await inTwenties(100, '127.0.0.3');
    expect([...first, ...second].filter((r) => r.status !== 200).map((r) => r.status)).toEqual([]);
    const { reply, afterMs } = await refusedWithin(2000, () => get('/api/plans', '127.0.0.2'));
    expect(reply.status, `still answered ${afterMs} ms later`).toBe(429);
    expect((await get('/api/plans', '127.0.0.3')).status).toBe(200);
    // Both nodes answered, and logged the visitor, not nginx.
    for (const lines of await answeredByEach('/api/plans', first.length + second.length))
      expect(new Set(lines.map((l) => l.ip))).toEqual(new Set(['127.0.0.2', '127.0.0.3']));
  });

  it(
    'keeps a session made through one node on the other, with a Secure cookie and HSTS',
    { timeout: 60_000 },
    async () => {
      const { reply, cookie } = await login('127.0.0.4');
      const sid = [reply.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('sid='))!;
      expect(sid).toMatch(/; Secure/i);
      expect(sid).toMatch(/; HttpOnly/i);
      expect(reply.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      const replies = await Promise.all(
        Array.from({ length: 8 }, () => get('/api/admin/credentials', '127.0.0.4', cookie)),
      );
      expect(replies.map((r) => r.status)).toEqual(new Array(8).fill(200));
      for (const lines of await answeredByEach('/api/admin/credentials', replies.length))
        expect(lines.length).toBeGreaterThan(0);
    },
  );

  it('refuses a cross-site write and takes the site’s own', { timeout: 60_000 }, async () => {
    const contact = { name: 'Ada', email: 'ada@example.org', subject: 'Hello', body: 'Through nginx.' };
    const foreign = await through(nginx.port, 'POST', '/api/contact', {
      from: '127.0.0.5',
      json: contact,
      headers: { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(foreign.status).toBe(403);
    const own = await through(nginx.port, 'POST', '/api/contact', {
      from: '127.0.0.5',
      json: contact,
      headers: SAME_SITE,
    });
    expect(own.status).toBe(200);
  });

  it('takes an upload and serves Range reads of it from either node', { timeout: 60_000 }, async () => {
    const { cookie } = await login('127.0.0.6');
    const video = fixture('tiny.mp4');
    const form = multipart({}, { filename: 'clip.mp4', type: 'video/mp4', data: video });
    const upload = await through(nginx.port, 'POST', '/api/uploads', {
      from: '127.0.0.6',
      cookie,
      body: form.payload,
      headers: { ...form.headers, ...SAME_SITE },
    });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const url: string = upload.body.url;
    const reads = await Promise.all(
      Array.from({ length: 6 }, () =>
        through(nginx.port, 'GET', url, { from: '127.0.0.6', headers: { range: 'bytes=100-999' } }),
      ),
    );
    for (const read of reads) {
      expect(read.status).toBe(206);
      expect(read.headers['content-range']).toBe(`bytes 100-999/${video.length}`);
      expect(read.raw.equals(video.subarray(100, 1000))).toBe(true);
    }
    for (const lines of await answeredByEach(url, reads.length)) expect(lines.map((l) => l.statusCode)).toContain(206);
  });

  it('passes a shedding node’s 503 and Retry-After to the visitor', { timeout: 60_000 }, async () => {
    // 140 requests straight at A whose bodies never come: past what each of its processes takes
    // on at once (64; on SQLite A's two workers get 70 each).
    const held: Socket[] = await Promise.all(
      Array.from({ length: 140 }, (_, i) => {
        return new Promise<Socket>((resolve, reject) => {
          const socket = connect(
            { host: '127.0.0.1', port: a.port, localAddress: `127.0.${11 + (i % 2)}.${Math.floor(i / 2) + 1}` },
            () => {
              socket.write(
                `POST /api/visit HTTP/1.1\r\nHost: ${SERVER_NAME}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
              );
              resolve(socket);
            },
          );
          socket.on('error', reject);
        });
      }),
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) => get('/api/settings', `127.0.14.${i + 1}`)),
      );
      const shed = replies.filter((r) => r.status === 503);
      expect(shed.length, `statuses: ${replies.map((r) => r.status)}`).toBeGreaterThan(0);
      for (const reply of shed) {
        expect(reply.headers['retry-after']).toBe('2');
        expect(reply.body).toEqual({ error: 'Service temporarily unavailable' });
      }
      expect(replies.filter((r) => r.status !== 503).map((r) => r.status)).toEqual(
        new Array(20 - shed.length).fill(200),
      );
    } finally {
      for (const socket of held) socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await Promise.all(Array.from({ length: 10 }, (_, i) => get('/api/settings', `127.0.12.${i + 1}`)));
    expect(after.map((r) => r.status)).toEqual(new Array(10).fill(200));
  });

  it('loses no GET when a node stops mid-run: nginx sends it to the other', { timeout: 90_000 }, async () => {
    let running = true;
    const onB = () => answered(b, '/api/settings').length;
    const onBBefore = onB();
    const statuses: number[] = [];
    const failures: string[] = [];
    const streams = Array.from({ length: 8 }, async (_, i) => {
      for (let n = 0; running; n++) {
        const path =
          n % 2
            ? '/api/settings'
            : `/api/places?active_categories=pharmacy&lat=${43.73 + i / 1000}&lon=7.42&radius=1500`;
        await get(path, `127.0.13.${i + 1}`).then(
          (reply) => statuses.push(reply.status),
          (error: Error) => failures.push(error.message),
        );
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = statuses.length;
    expect(onB(), 'B answered its share until it stopped').toBeGreaterThan(onBBefore);
    expect(await b.stop()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    running = false;
    await Promise.all(streams);
    expect(failures).toEqual([]);
    expect(statuses.length - before).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });
});
