// A full disk (issue 12, point 2): the site's data folder (the SQLite file, and the uploads
// folder on either engine) on a small tmpfs that a filler file fills up. A contact message, a
// settings save, an upload and an import each answer a clear error (507, or 503 with Retry-After)
// and store nothing; reads keep working; once space returns, writes work again without a restart.
// Needs root (to mount the tmpfs): skipped with a message otherwise, a failure under CI.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importInputs } from '../../../src/places/sources/import/index.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { fixture } from '../../support/media.js';
import { buildTestApp, SHARED_DATA, type TestApp } from '../../helpers.js';
import { TEST_DIALECT } from '../../support/databases.js';
import { recordFigure } from './figures.js';

const canMount = process.getuid?.() === 0;
if (!canMount) {
  const message = 'disk-full battery skipped: it mounts a small tmpfs, which needs root';
  if (process.env.CI) throw new Error(message);
  console.warn(message);
}

// A video (not walked whole like an image) of 2 MiB: it cannot fit on the full disk.
const VIDEO = Buffer.concat([fixture('tiny.mp4'), Buffer.alloc(2 * 1024 * 1024)]);

describe.skipIf(!canMount)('a full disk', () => {
  let dir: string;
  let mountPoint: string;
  let t: TestApp;
  let cookie: string;
  const filler = () => join(mountPoint, 'filler');

  function fill(): void {
    // Fill to the last byte: one big write, then small ones until ENOSPC.
    try {
      writeFileSync(filler(), Buffer.alloc(64 * 1024 * 1024));
    } catch {
      // full
    }
    for (let i = 0; i < 1000; i++) {
      try {
        writeFileSync(join(mountPoint, `crumb-${i}`), Buffer.alloc(4096));
      } catch {
        break;
      }
    }
  }
  function free(): void {
    for (const name of readdirSync(mountPoint))
      if (name === 'filler' || name.startsWith('crumb-')) rmSync(join(mountPoint, name));
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'disk-full-'));
    mountPoint = join(dir, 'data');
    mkdirSync(mountPoint);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint]);
    const env: Record<string, string> = { UPLOAD_DIR: join(mountPoint, 'uploads'), MEDIA_STORE: 'folder' };
    if (TEST_DIALECT === 'sqlite') env.DATABASE_URL = `sqlite:${join(mountPoint, 'app.db')}`;
    t = await buildTestApp({ env });
    cookie = await t.login();
  }, 60_000);

  afterAll(async () => {
    await t?.close().catch(() => {});
    if (mountPoint && existsSync(mountPoint)) execFileSync('umount', ['-l', mountPoint]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses writes clearly, keeps nothing half-written, serves reads, and recovers without a restart', async () => {
    const origin = t.config.publicOrigins[0];
    const contact = (n: number) =>
      t.request({
        method: 'POST',
        url: '/api/contact',
        payload: { name: 'Full Disk', email: 'full@example.org', subject: `s${n}`, body: 'x'.repeat(4_000) },
      });
    const settings = (title: string) =>
      t.request({ method: 'POST', url: '/api/settings', cookie, payload: { site_title: title } });
    const upload = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: { cookie, origin, 'sec-fetch-site': 'same-origin', 'content-type': 'multipart/form-data; boundary=b' },
        payload: Buffer.concat([
          Buffer.from(
            '--b\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n',
          ),
          VIDEO,
          Buffer.from('\r\n--b--\r\n'),
        ]),
      });
    const messages = async () =>
      (await t.request({ method: 'GET', url: '/api/messages', cookie })).json().length as number;

    expect((await contact(0)).statusCode).toBe(200);
    const storedBefore = await messages();
    fill();

    let okButNotStored = 0;
    let otherFailures = 0;
    let readsFailed = 0;
    const statuses: number[] = [];
    const answers = [
      ...(await Promise.all([1, 2, 3].map(contact))),
      await settings('Written on a full disk'),
      await upload(),
    ];
    for (const answer of answers) {
      statuses.push(answer.statusCode);
      if (answer.statusCode === 200 || answer.statusCode === 201) continue;
      if (answer.statusCode === 507)
        expect(answer.json()).toEqual({ error: 'The server is out of storage space: nothing was saved' });
      else if (answer.statusCode === 503) expect(answer.json()).toEqual({ error: expect.any(String) });
      else otherFailures++;
    }
    // What answered 200 must be stored; what did not must not be.
    const storedDuring = await messages();
    const contactsOk = answers.slice(0, 3).filter((a) => a.statusCode === 200).length;
    if (storedDuring !== storedBefore + contactsOk) okButNotStored++;
    const title = (await t.request({ method: 'GET', url: '/api/settings' })).json().site_title;
    if ((answers[3].statusCode === 200) !== (title === 'Written on a full disk')) okButNotStored++;
    // An import of places into the full database fails and changes nothing.
    let importRefused = 0;
    if (TEST_DIALECT === 'sqlite') {
      const before = await createPlaceStore(t.handle).count();
      const error = await importInputs(createPlaceStore(t.handle), [
        join(SHARED_DATA, 'andorra-2021-04-14.osm.pbf'),
      ]).catch((e: unknown) => e);
      if (error instanceof Error) importRefused++;
      if ((await createPlaceStore(t.handle).count()) !== before) okButNotStored++;
    }
    // Reads keep working.
    for (const url of ['/api/settings', '/api/plans', '/api/ads', '/healthz'])
      if ((await t.request({ method: 'GET', url })).statusCode !== 200) readsFailed++;
    // Nothing half-written: no partial upload left in the uploads folder.
    const leftovers = readdirSync(join(mountPoint, 'uploads')).filter(
      (name) => name.startsWith('.') || name.includes('tmp'),
    );

    free();
    const after = [await contact(9), await settings('Written after space returned'), await upload()];
    const recovered = after.every((a) => a.statusCode === 200 || a.statusCode === 201) ? 1 : 0;

    const size = `${TEST_DIALECT === 'sqlite' ? 'database and uploads' : 'uploads'} on a full 24 MB tmpfs`;
    recordFigure({
      battery: 'disk full',
      size,
      figure: 'writes answered 2xx but not stored (or stored but refused)',
      value: okButNotStored,
      limit: 0,
    });
    recordFigure({
      battery: 'disk full',
      size,
      figure: 'failures other than 503/507 {"error"}',
      value: otherFailures,
      limit: 0,
    });
    recordFigure({ battery: 'disk full', size, figure: 'reads failed while full', value: readsFailed, limit: 0 });
    recordFigure({
      battery: 'disk full',
      size,
      figure: 'partial upload files left',
      value: leftovers.length,
      limit: 0,
    });
    recordFigure({
      battery: 'disk full',
      size,
      figure: 'writes work again without a restart (1 = yes)',
      value: recovered,
      limit: 1,
      atLeast: true,
    });
    const afterStatuses = after.map((a) => `${a.statusCode} ${a.body.slice(0, 80)}`);
    const bodies = answers.map((a) => `${a.statusCode} ${a.body.slice(0, 80)}`);
    expect({ bodies, afterStatuses, okButNotStored, otherFailures, readsFailed, leftovers, recovered }).toMatchObject({
      okButNotStored: 0,
      otherFailures: 0,
      readsFailed: 0,
      leftovers: [],
      recovered: 1,
    });
    // The disk was really full: the upload (2 MB) could not have been stored.
    expect(statuses[4]).not.toBe(201);
    if (TEST_DIALECT === 'sqlite') {
      expect(statuses.slice(0, 4).some((s) => s !== 200)).toBe(true);
      expect(importRefused).toBe(1);
    }
  }, 120_000);
});
