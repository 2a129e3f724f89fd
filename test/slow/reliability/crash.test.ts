// Crash battery (issue 12, point 1): a server under write load (contact messages, visits,
// settings saves, new plans, uploads in flight) with an import running beside it, killed with
// SIGKILL at a random moment and restarted on the same data, round after round. Figures:
// acknowledged writes lost, writes stored twice, integrity check failures, upload temporaries
// left after a restart, and places index mismatches. Durability: SQLite in WAL mode with
// synchronous=FULL (db/index.ts), PostgreSQL with fsync and synchronous_commit on (the defaults).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '../../../db/sqlite-driver.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../../db/index.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { FolderMediaStore } from '../../../src/media/store.js';
import { makePng } from '../e2e/harness.js';
import { ADMIN_PASSWORD, SHARED_DATA } from '../../helpers.js';
import { freshDatabase, TEST_DIALECT, type TestDatabase } from '../../support/databases.js';
import { ROOT, startServer, type ServerProcess } from '../../support/server-process.js';
import { batterySize, recordFigure } from './figures.js';

const KILLS = batterySize(20, 200);
const MONACO = join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf');
const PNG = makePng(200, 200, [200, 30, 30]);

let dir: string;
let database: TestDatabase;
let handle: DbHandle;
let uploads: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crash-'));
  uploads = join(dir, 'uploads');
  database = await freshDatabase(dir);
}, 60_000);

afterAll(async () => {
  await handle?.close();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const headers = (cookie?: string) => ({
  'content-type': 'application/json',
  'sec-fetch-site': 'same-origin',
  ...(cookie ? { cookie } : {}),
});

/** Places rows and what a freshly started process would search disagreeing (its grid). */
async function indexMismatches(db: DbHandle): Promise<number> {
  const places = (
    await sql<{
      id: number;
      lat: number;
      lon: number;
      categories: number;
    }>`select id, lat, lon, categories from places`.execute(db.db)
  ).rows;
  const expected = new Set(places.map((p) => `${p.id}/${p.lat}/${p.lon}/${Number(p.categories)}`));
  const fresh = createPlaceStore(db);
  const actual = new Set(
    [...(await fresh.feed.reads()).grid.places()].map((p) => `${p.id}/${p.lat}/${p.lon}/${p.categories}`),
  );
  let mismatches = 0;
  for (const key of expected) if (!actual.has(key)) mismatches++;
  for (const key of actual) if (!expected.has(key)) mismatches++;
  return mismatches;
}

/** 0 when the database's own check finds nothing wrong. */
async function integrityFailures(db: DbHandle): Promise<number> {
  if (db.dialect === 'sqlite') {
    const check = new Database(database.url.slice('sqlite:'.length), { readonly: true });
    try {
      const result = check.prepare('pragma integrity_check').pluck().all() as string[];
      return result.length === 1 && result[0] === 'ok' ? 0 : result.length;
    } finally {
      check.close();
    }
  }
  // PostgreSQL: amcheck over every B-tree index of the site's tables.
  await sql`create extension if not exists amcheck`.execute(db.db);
  const indexes = (
    await sql<{
      oid: number;
    }>`select c.oid from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam
    where a.amname = 'btree' and c.relnamespace = 'public'::regnamespace`.execute(db.db)
  ).rows;
  let failures = 0;
  for (const { oid } of indexes) {
    try {
      await sql`select bt_index_check(${oid}::regclass, true)`.execute(db.db);
    } catch {
      failures++;
    }
  }
  return failures;
}

describe('crash', () => {
  it(
    `${KILLS} SIGKILLs under write load lose no acknowledged write`,
    async () => {
      const ackedMessages = new Set<string>();
      const ackedPlans = new Set<string>();
      let ackedVisits = 0;
      let lastAckedTitle = -1;
      const figures = { lost: 0, twice: 0, integrity: 0, temporaries: 0, mismatches: 0, visitsLost: 0 };
      let counter = 0;

      // One more start than kills: the last round's writes are checked too.
      for (let round = 0; round <= KILLS; round++) {
        const server: ServerProcess = await startServer({
          DATABASE_URL: database.url,
          UPLOAD_DIR: uploads,
          MEDIA_STORE: 'folder',
        });
        handle ??= createDb(
          database.url.startsWith('sqlite:')
            ? { kind: 'sqlite', path: database.url.slice(7) }
            : { kind: 'postgres', url: database.url },
        );
        // After the restart: everything acknowledged before is there, once.
        const login = await fetch(`${server.base}/api/admin/login`, {
          method: 'POST',
          headers: headers(),
          body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
        });
        expect(login.status).toBe(200);
        const cookie = login.headers.get('set-cookie')!.split(';')[0];
        const messages = (await (await fetch(`${server.base}/api/messages`, { headers: headers(cookie) })).json()) as {
          subject: string;
        }[];
        const subjects = messages.map((m) => m.subject);
        for (const marker of ackedMessages) if (!subjects.includes(marker)) figures.lost++;
        figures.twice += subjects.length - new Set(subjects).size;
        const plans = ((await (await fetch(`${server.base}/api/plans`)).json()) as { name: string }[]).map(
          (p) => p.name,
        );
        for (const name of ackedPlans) if (!plans.includes(name)) figures.lost++;
        figures.twice += plans.length - new Set(plans).size;
        const title = Number(
          ((await (await fetch(`${server.base}/api/settings`)).json()) as { site_title: string }).site_title.replace(
            'title ',
            '',
          ),
        );
        if (lastAckedTitle >= 0 && !(title >= lastAckedTitle)) figures.lost++;
        const visits = (
          (await (await fetch(`${server.base}/api/visits`, { headers: headers(cookie) })).json()) as {
            total_visits: number;
          }
        ).total_visits;
        if (visits < ackedVisits) figures.visitsLost += ackedVisits - visits;
        figures.integrity += await integrityFailures(handle);
        figures.mismatches += await indexMismatches(handle);
        figures.temporaries += existsSync(uploads)
          ? readdirSync(uploads).filter((n) => n.startsWith('.incoming-')).length
          : 0;
        if (round === KILLS) {
          await server.stop();
          break;
        }

        // Load: writers in a loop, and an import in its own process, until the kill.
        let killed = false;
        const importer = spawn(process.execPath, ['--import', 'tsx', 'scripts/import.ts', MONACO], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: database.url },
          stdio: 'ignore',
        });
        const writer = async (kind: number) => {
          while (!killed) {
            const n = ++counter;
            try {
              if (kind === 0) {
                const subject = `crash ${n}`;
                const r = await fetch(`${server.base}/api/contact`, {
                  method: 'POST',
                  headers: headers(),
                  body: JSON.stringify({ name: 'Crash', email: 'c@example.org', subject, body: 'x' }),
                });
                if (r.status === 200) ackedMessages.add(subject);
              } else if (kind === 1) {
                const r = await fetch(`${server.base}/api/visit`, { method: 'POST', headers: headers() });
                if (r.status === 200) ackedVisits++;
              } else if (kind === 2) {
                const r = await fetch(`${server.base}/api/settings`, {
                  method: 'POST',
                  headers: headers(cookie),
                  body: JSON.stringify({ site_title: `title ${n}` }),
                });
                if (r.status === 200) lastAckedTitle = Math.max(lastAckedTitle, n);
              } else if (kind === 3) {
                const name = `plan ${n}`;
                const r = await fetch(`${server.base}/api/plans`, {
                  method: 'POST',
                  headers: headers(cookie),
                  body: JSON.stringify({
                    name,
                    price: 1,
                    type: 'basic',
                    description: 'x',
                    link: 'https://example.org/',
                  }),
                });
                if (r.status === 200) ackedPlans.add(name);
              } else {
                const form = new FormData();
                form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'x.png');
                await fetch(`${server.base}/api/uploads`, {
                  method: 'POST',
                  headers: { cookie, 'sec-fetch-site': 'same-origin' },
                  body: form,
                });
              }
            } catch {
              // the server died under this request: not acknowledged
            }
          }
        };
        const writers = [0, 0, 1, 1, 2, 3, 4].map(writer);
        await new Promise((r) => setTimeout(r, 150 + Math.random() * 900));
        server.child.kill('SIGKILL');
        importer.kill('SIGKILL');
        killed = true;
        await Promise.all([server.exited, writers]);
      }

      const size = `${KILLS} kills under write load`;
      recordFigure({
        battery: 'crash',
        size,
        figure: 'acknowledged writes lost',
        value: figures.lost + figures.visitsLost,
        limit: 0,
      });
      recordFigure({ battery: 'crash', size, figure: 'writes stored twice', value: figures.twice, limit: 0 });
      recordFigure({
        battery: 'crash',
        size,
        figure: `${TEST_DIALECT === 'sqlite' ? 'integrity_check' : 'amcheck'} failures`,
        value: figures.integrity,
        limit: 0,
      });
      recordFigure({
        battery: 'crash',
        size,
        figure: 'upload temporaries left after a restart',
        value: figures.temporaries,
        limit: 0,
      });
      recordFigure({ battery: 'crash', size, figure: 'places index mismatches', value: figures.mismatches, limit: 0 });
      expect(figures).toEqual({ lost: 0, twice: 0, integrity: 0, temporaries: 0, mismatches: 0, visitsLost: 0 });
      // The load was real.
      expect(ackedMessages.size).toBeGreaterThan(KILLS);
      expect(ackedVisits).toBeGreaterThan(KILLS);
    },
    batterySize(900_000, 4 * 3_600_000),
  );

  it('a restart removes the temporaries of uploads whose process died, and only those', async () => {
    const folder = join(dir, 'sweep');
    mkdirSync(folder);
    const dead = `.incoming-${hostname()}-999999-0a`;
    const alive = `.incoming-${hostname()}-${process.pid}-0b`;
    const elsewhere = `.incoming-another-host-1-0c`;
    for (const name of [dead, alive, elsewhere, 'AAAAAAAAAAAAAAAAAAAAAA.png']) writeFileSync(join(folder, name), 'x');
    expect(await new FolderMediaStore(folder).sweep()).toBe(1);
    expect(readdirSync(folder).sort()).toEqual([alive, elsewhere, 'AAAAAAAAAAAAAAAAAAAAAA.png'].sort());
  });
});
