// The real commands as processes: the server's clean shutdown, and the backup command.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from '../../../db/sqlite-driver.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, freePort } from '../../helpers.js';
import { LAUNCH_ARGS, LAUNCH_ENV } from '../../../src/launch.js';
import { SERVER_ARGS } from '../../support/server-process.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'process-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function waitFor(url: string, ms = 20_000): Promise<Response> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await fetch(url);
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('the server process', () => {
  it('is what npm start runs: the built bundle, with the start-up settings of src/launch.ts', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const env = Object.entries(LAUNCH_ENV)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
    expect(scripts.start).toBe(`npm run build && ${env} node ${LAUNCH_ARGS.join(' ')} dist/server/main.js`);
    expect(SERVER_ARGS).toEqual(expect.arrayContaining([...LAUNCH_ARGS]));
    expect(scripts.build).toMatch(/&& npm run build:server$/);
    expect(scripts['build:server']).toMatch(/src\/main\.ts .*--outdir=dist\/server\b/);
    expect(SERVER_ARGS.at(-1)).toBe(join(ROOT, 'dist', 'server', 'main.js'));
  });

  it('serves, then on SIGTERM finishes the request in flight and closes the database', async () => {
    const port = await freePort();
    const db = join(dir, 'app.db');
    const child = spawn(process.execPath, SERVER_ARGS, {
      cwd: ROOT,
      // argon2 at its production cost (not the tests' cheap one), so that SIGTERM lands in a login
      env: {
        ...process.env,
        ...LAUNCH_ENV,
        PORT: String(port),
        DATABASE_URL: `sqlite:${db}`,
        ADMIN_PASSWORD,
        UPLOAD_DIR: join(dir, 'uploads'),
        LOG_LEVEL: 'debug',
        TEST_CHEAP_PASSWORD_HASH: undefined,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    const base = `http://127.0.0.1:${port}`;
    expect(await (await waitFor(`${base}/healthz`)).json()).toEqual({ ok: true });
    expect(existsSync(`${db}-wal`)).toBe(true);

    // A login takes tens of milliseconds of argon2: SIGTERM lands while it runs.
    const login = fetch(`${base}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    while (!/"url":"\/api\/admin\/login"[^\n]*incoming request/.test(output))
      await new Promise((r) => setTimeout(r, 1));
    child.kill('SIGTERM');
    const response = await login;
    expect(response.status).toBe(200);
    expect(await exited).toBe(0);
    // A clean close checkpoints the WAL into the database file and removes it.
    expect(existsSync(`${db}-wal`)).toBe(false);
    const check = new SQLite(db, { readonly: true });
    expect(check.prepare('select count(*) as n from sessions').get()).toEqual({ n: 1 });
    check.close();
  });
});

describe('npm run backup', () => {
  it('copies a live database and checks the copy', async () => {
    const db = join(dir, 'app.db');
    const live = new SQLite(db);
    live.pragma('journal_mode = WAL');
    live.exec(
      "create table messages (id integer primary key, body text); insert into messages (body) values ('kept in the WAL')",
    );
    const target = join(dir, 'copy.db');
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', target], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `sqlite:${db}` },
      encoding: 'utf8',
    });
    live.close();
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/checked \(integrity ok; 1 tables: messages 1\)/);
    const copy = new SQLite(target, { readonly: true });
    expect(copy.prepare('select body from messages').get()).toEqual({ body: 'kept in the WAL' });
    copy.close();

    const again = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', target], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `sqlite:${db}` },
      encoding: 'utf8',
    });
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
    const help = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(help.stdout).toMatch(/^Usage: npm run backup -- <file>/);
  });
});
