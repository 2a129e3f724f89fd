// Upload gauntlet (issue 12, point 5): hostile files and forms through POST /api/uploads, in the
// media store in force (a folder on SQLite, the database on PostgreSQL): polyglots, SVG with
// script, HTML renamed .png, lying names and types, empty files, the size cap plus one byte,
// 1,000 parts, traversal and control characters in names, a client that hangs up mid-upload.
// Figures: files of a refused type stored, names not random, temp files left, 5xx answers.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MiB, SIZE_LIMITS } from '../../../src/media/store.js';
import { fixture, storedUploads } from '../../support/media.js';
import { buildTestApp, type TestApp } from '../../helpers.js';
import { recordFigure } from './figures.js';

let t: TestApp;
let cookie: string;

const PNG = fixture('tiny.png');
const GIF = fixture('tiny.gif');

/** A multipart body with a file part whose name and type are given raw (no escaping: hostile on purpose). */
function form(
  file: { filename: string; type: string; data: Buffer } | null,
  extraParts = 0,
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = 'gauntletboundary';
  const parts: Buffer[] = [];
  for (let i = 0; i < extraParts; i++)
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
        'latin1',
      ),
    );
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** What must be refused, and what may be stored (as its real type only). */
const HOSTILE: [string, { filename: string; type: string; data: Buffer } | null, number, 'refused' | 'stored'][] = [
  [
    'a GIF that is also HTML',
    {
      filename: 'x.gif',
      type: 'image/gif',
      data: Buffer.concat([GIF, Buffer.from('<html><script>alert(1)</script></html>')]),
    },
    0,
    'refused',
  ],
  [
    'a PNG with a page after its end',
    { filename: 'x.png', type: 'image/png', data: Buffer.concat([PNG, Buffer.from('<script>alert(1)</script>')]) },
    0,
    'refused',
  ],
  ['a real GIF', { filename: 'x.gif', type: 'image/gif', data: GIF }, 0, 'stored'],
  [
    'HTML that starts like a GIF',
    {
      filename: 'x.gif',
      type: 'image/gif',
      data: Buffer.from('GIF89a/*<html><script>alert(document.domain)</script>*/=1;'),
    },
    0,
    'refused',
  ],
  [
    'a GIF that is also JavaScript',
    { filename: 'x.js', type: 'application/javascript', data: Buffer.from('GIF89a=1;alert(1)//') },
    0,
    'refused',
  ],
  [
    'SVG with script',
    {
      filename: 'x.svg',
      type: 'image/svg+xml',
      data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    },
    0,
    'refused',
  ],
  [
    'HTML renamed .png',
    { filename: 'x.png', type: 'image/png', data: Buffer.from('<!doctype html><script>alert(1)</script>') },
    0,
    'refused',
  ],
  [
    'a PNG with a wrong extension and type',
    { filename: 'x.exe', type: 'application/x-msdownload', data: PNG },
    0,
    'stored',
  ],
  ['an empty file', { filename: 'empty.png', type: 'image/png', data: Buffer.alloc(0) }, 0, 'refused'],
  ['no file at all', null, 0, 'refused'],
  [
    'an image of the cap plus one byte',
    {
      filename: 'big.png',
      type: 'image/png',
      data: Buffer.concat([PNG, Buffer.alloc(SIZE_LIMITS.image + 1 - PNG.length)]),
    },
    0,
    'refused',
  ],
  ['1,000 parts', { filename: 'x.png', type: 'image/png', data: PNG }, 1000, 'refused'],
  ['a traversal in the name', { filename: '../../../../etc/passwd.png', type: 'image/png', data: PNG }, 0, 'stored'],
  ['a NUL in the name', { filename: 'x\u0000.php.png', type: 'image/png', data: PNG }, 0, 'stored'],
  [
    'control and right-to-left characters in the name',
    { filename: 'x\u0007\u001b[31m\u202Egnp.exe', type: 'image/png', data: PNG },
    0,
    'stored',
  ],
  [
    'a Windows path as the name',
    { filename: 'C:\\Windows\\System32\\evil.png', type: 'image/png', data: PNG },
    0,
    'stored',
  ],
  [
    'a PDF',
    {
      filename: 'x.pdf',
      type: 'application/pdf',
      data: Buffer.from('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF'),
    },
    0,
    'refused',
  ],
  [
    'a ZIP named .png',
    { filename: 'x.png', type: 'image/png', data: Buffer.from('504b0304140000000800', 'hex') },
    0,
    'refused',
  ],
];

const tally = { requests: 0, fiveHundreds: 0, refusedTypeStored: 0, notRandomNames: 0 };

beforeAll(async () => {
  t = await buildTestApp();
  cookie = await t.login();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('upload gauntlet', () => {
  for (const [what, file, extraParts, expected] of HOSTILE) {
    it(`${what}: ${expected}`, async () => {
      const before = await storedUploads(t);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/uploads',
        ...form(file, extraParts),
        headers: {
          ...form(file, extraParts).headers,
          cookie,
          origin: t.config.publicOrigins[0],
          'sec-fetch-site': 'same-origin',
        },
      });
      tally.requests++;
      if (response.statusCode >= 500) tally.fiveHundreds++;
      const after = await storedUploads(t);
      const added = after.filter((name) => !before.includes(name));
      if (expected === 'refused') {
        expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
        expect(response.statusCode).toBeLessThan(500);
        expect(response.json()).toEqual({ error: expect.any(String) });
        if (added.length) tally.refusedTypeStored++;
        expect(added).toEqual([]);
      } else {
        expect(response.statusCode, response.body).toBe(201);
        const { url, type } = response.json();
        // Stored under a random name of our own, with the extension of its real type.
        if (!/^\/uploads\/[A-Za-z0-9_-]{22}\.(png|gif)$/.test(url)) tally.notRandomNames++;
        expect(type).toMatch(/^image\/(png|gif)$/);
        expect(added).toEqual([url.slice('/uploads/'.length)]);
        const served = await t.app.inject({ method: 'GET', url });
        expect(served.headers['content-type']).toBe(type);
        expect(served.headers['x-content-type-options']).toBe('nosniff');
      }
    });
  }

  it('a client that hangs up mid-upload leaves nothing behind', async () => {
    const before = await storedUploads(t);
    const { port } = t.app.server.address() as { port: number };
    const head = `POST /api/uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nSec-Fetch-Site: same-origin\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${3 * MiB}\r\n\r\n`;
    const part = `--b\r\nContent-Disposition: form-data; name="file"; filename="half.png"\r\nContent-Type: image/png\r\n\r\n`;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(head + part);
        socket.write(Buffer.concat([PNG, Buffer.alloc(MiB)]), () => {
          setTimeout(() => {
            socket.destroy();
            resolve();
          }, 200);
        });
      });
      socket.on('error', reject);
    });
    // The server notices the hang-up and cleans up; wait for it.
    let after: string[] = [];
    for (let i = 0; i < 50; i++) {
      after = await storedUploads(t);
      if (after.length === before.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    tally.requests++;
    recordFigure({
      battery: 'upload gauntlet',
      size: 'a client hanging up after 1 MiB of 3',
      figure: 'temporary files or rows left',
      value: after.length - before.length,
      limit: 0,
    });
    expect(after).toEqual(before);
  });

  it('figures', async () => {
    const size = `${tally.requests} hostile uploads`;
    recordFigure({ battery: 'upload gauntlet', size, figure: '5xx answers', value: tally.fiveHundreds, limit: 0 });
    recordFigure({
      battery: 'upload gauntlet',
      size,
      figure: 'files of a refused kind stored',
      value: tally.refusedTypeStored,
      limit: 0,
    });
    recordFigure({
      battery: 'upload gauntlet',
      size,
      figure: 'stored names not random',
      value: tally.notRandomNames,
      limit: 0,
    });
    // Only finished uploads are in the store: no temporaries.
    const names = await storedUploads(t);
    const temporaries = names.filter((name) => !/^[A-Za-z0-9_-]{22}\.(png|gif)$/.test(name));
    recordFigure({
      battery: 'upload gauntlet',
      size,
      figure: 'temporary files left in the store',
      value: temporaries.length,
      limit: 0,
    });
    expect({ ...tally, temporaries }).toEqual({
      requests: HOSTILE.length + 1,
      fiveHundreds: 0,
      refusedTypeStored: 0,
      notRandomNames: 0,
      temporaries: [],
    });
  });
});
