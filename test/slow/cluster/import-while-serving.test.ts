// Issue 8, point 4: an import (`npm run import`, its own process) runs while a server process
// answers searches on the same database, on both engines: every search answers, and sees the
// index before the import or after it, never a part of it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../support/databases.js';
import { ROOT, startServer, type ServerProcess } from '../../support/server-process.js';
import { SHARED_DATA } from '../../helpers.js';

const MONACO = join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf');
const ANDORRA = join(SHARED_DATA, 'andorra-2021-04-14.osm.pbf');
// Andorra la Vella: Monaco's places are 500 km away, so only the Andorra import changes this answer.
const SEARCH =
  '/api/places?active_categories=restaurant&active_categories=bank&lat=42.5078&lon=1.5342&radius=50000&limit=500';

function runImport(databaseUrl: string, files: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/import.ts', ...files], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('an import while the site serves', () => {
  let dir: string;
  let database: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'import-serving-'));
    database = await freshDatabase(dir);
    expect((await runImport(database.url, [MONACO])).code).toBe(0);
    server = await startServer({ DATABASE_URL: database.url, UPLOAD_DIR: join(dir, 'uploads') });
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every search answers, with the old index or the new one', async () => {
    const before = await (await fetch(server.base + SEARCH)).json();
    expect(before.results).toEqual([]);

    const importing = runImport(database.url, [ANDORRA]);
    const seen = new Set<number>();
    let done = false;
    void importing.then(() => (done = true));
    let searches = 0;
    while (!done) {
      const response = await fetch(server.base + SEARCH, { signal: AbortSignal.timeout(10_000) }).catch(
        (error: unknown) => {
          // The server's own words say why it stopped answering (a run on Node 22 once saw ECONNREFUSED).
          throw new Error(
            `search ${searches + 1} failed (${String(error)}); server exit ${server.child.exitCode ?? server.child.signalCode}: ${server.output()}`,
          );
        },
      );
      expect(response.status).toBe(200);
      seen.add((await response.json()).results.length);
      searches++;
    }
    expect((await importing).code).toBe(0);
    // On PostgreSQL the server's copy of the places takes the import in at its notification.
    let after = 0;
    for (
      const until = Date.now() + 5000;
      after === 0 && Date.now() < until;
      await new Promise((resolve) => setTimeout(resolve, 20))
    ) {
      after = (await (await fetch(server.base + SEARCH)).json()).results.length;
    }
    expect(after).toBeGreaterThan(0);
    // all or nothing: no answer saw a part of the import
    expect([...seen].every((n) => n === 0 || n === after)).toBe(true);
    expect(searches).toBeGreaterThan(3);
  });
});
