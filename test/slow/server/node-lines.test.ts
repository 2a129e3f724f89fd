// The built server on the Node.js line running this test (issue 29): CI runs it on Node 20, 22
// and 24 (scripts/ci-node-lines.sh). better-sqlite3 12 aborts on Node 24 when a statement is
// collected, at exit or under writes; this starts the server 50 times on one small SQLite file,
// with writes each time, and wants every exit on SIGTERM clean (code 0, not a signal). On Node 20,
// whose driver never aborted, 10 starts show the same.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import SQLite, { sqliteDriverPackage } from '../../../db/sqlite-driver.js';
import { ADMIN_PASSWORD } from '../../helpers.js';
import { ROOT, startServer } from '../../support/server-process.js';

const major = Number(process.versions.node.split('.')[0]);
const RUNS = major >= 22 ? 50 : 10;
const MESSAGES_PER_RUN = 2;
const dir = mkdtempSync(join(tmpdir(), 'node-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe(`the built server on Node.js ${process.versions.node}`, () => {
  it(`loads better-sqlite3 ${major >= 22 ? 13 : 12}, the driver that does not crash on this line`, () => {
    const { version } = JSON.parse(
      readFileSync(join(ROOT, 'node_modules', sqliteDriverPackage, 'package.json'), 'utf8'),
    ) as { version: string };
    expect(Number(version.split('.')[0])).toBe(major >= 22 ? 13 : 12);
    const sqlite = new SQLite(':memory:');
    expect(sqlite.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    sqlite.close();
  });

  it(`serves reads and writes and exits 0 on SIGTERM, ${RUNS} times in a row`, { timeout: 240_000 }, async () => {
    const db = join(dir, 'app.db');
    const env = { DATABASE_URL: `sqlite:${db}`, UPLOAD_DIR: join(dir, 'uploads') };
    for (let run = 1; run <= RUNS; run++) {
      const server = await startServer(env);
      const post = (path: string, body: unknown, cookie = '') =>
        fetch(`${server.base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify(body),
        });
      for (let i = 0; i < MESSAGES_PER_RUN; i++) {
        const contact = await post('/api/contact', {
          name: 'Ana',
          email: 'ana@example.org',
          subject: `Run ${run}`,
          body: `Message ${i}`,
        });
        expect(contact.status, server.output()).toBe(200);
      }
      const login = await post('/api/admin/login', { username: 'admin', password: ADMIN_PASSWORD });
      expect(login.status, server.output()).toBe(200);
      const cookie = login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      // Every message of the runs before survived their exits; this run's are there too.
      const messages = await fetch(`${server.base}/api/messages`, { headers: { cookie } });
      expect(messages.status).toBe(200);
      expect(await messages.json()).toHaveLength(run * MESSAGES_PER_RUN);
      expect((await post('/api/admin/logout', {}, cookie)).status).toBe(200);

      const code = await server.stop();
      expect({ run, code, signal: server.child.signalCode, output: server.output() }).toEqual({
        run,
        code: 0,
        signal: null,
        output: '',
      });
    }
    const check = new SQLite(db, { readonly: true });
    expect(check.prepare('select count(*) as n from messages').get()).toEqual({ n: RUNS * MESSAGES_PER_RUN });
    check.close();
  });
});
