// npm run backup on PostgreSQL (issue 8, point 8): pg_dump in custom format, checked by a
// restore into a scratch database (created and dropped by the command), while the site keeps
// writing; the file restores, with the README's command, into another database with the same rows.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, SHARED_DATA, type TestApp } from '../../helpers.js';
import { emptyPostgresDatabase } from '../../support/databases.js';
import { findPostgresBin } from '../../../support/postgres-cluster.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function runProgram(
  program: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += String(c)));
    child.stderr.on('data', (c) => (stderr += String(c)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${program} did not finish in 60 s`));
    }, 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const backup = (file: string, databaseUrl: string) =>
  runProgram(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', file], { DATABASE_URL: databaseUrl });

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Rows per table of ours (not the extensions'), as "table n" lines. */
async function counts(url: string): Promise<string[]> {
  const tables = await query<{ name: string }>(
    url,
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind = 'r' and n.nspname = 'public'
       and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
     order by 1`,
  );
  const out: string[] = [];
  for (const { name } of tables)
    out.push(`${name} ${(await query<{ n: number }>(url, `select count(*)::int as n from "${name}"`))[0].n}`);
  return out;
}

let dir: string;
let t: TestApp;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pg-backup-test-'));
  t = await buildTestApp({ imported: { extracts: [join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf')] } });
  expect(t.handle.dialect).toBe('postgres');
  url = (t.config.database as { url: string }).url;
  const cookie = await t.login();
  await t.request({ method: 'POST', url: '/api/settings', cookie, payload: { site_title: 'Backed up' } });
  for (const name of ['Basic', 'Pro']) {
    await t.request({
      method: 'POST',
      url: '/api/plans',
      cookie,
      payload: { name, price: 10, type: 'pro', description: 'x', link: 'https://example.org' },
    });
  }
  for (let i = 0; i < 3; i++) await t.request({ method: 'POST', url: '/api/visit' });
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm run backup on PostgreSQL', () => {
  it('writes a pg_dump file, checked by a restore, while the site keeps writing; the README command restores it', async () => {
    const file = join(dir, 'site.dump');
    // Writes during the backup: the dump and the counts it is checked against read one snapshot.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const response = await t.request({
          method: 'POST',
          url: '/api/contact',
          payload: { name: 'W', email: 'w@example.org', subject: `during ${written}`, body: 'x' },
        });
        expect(response.statusCode).toBe(200);
        written++;
      }
    })();
    const run = await backup(file, url);
    writing = false;
    await writer;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^Backup written to .*site\.dump \(pg_dump \d+, custom format, [\d.]+ MiB\) and checked \(restored into a scratch database; \d+ tables, the same row counts: .*places \d+/,
    );
    expect(written).toBeGreaterThan(0);
    expect(statSync(file).size).toBeGreaterThan(10_000);
    // The scratch database is gone.
    expect(
      await query(inject('pgAdminUrl'), "select datname from pg_database where datname like '%backup_check%'"),
    ).toEqual([]);

    // What the dump says it holds, then a restore with the README's command into an empty database.
    const dumped = Object.fromEntries(
      run.stdout
        .match(/the same row counts: (.*)\)$/m)![1]
        .split(', ')
        .map((pair) => pair.split(' '))
        .map(([table, n]) => [table, Number(n)]),
    );
    expect(dumped.plans).toBe(2);
    expect(dumped.messages).toBeGreaterThan(0);
    const restored = await emptyPostgresDatabase();
    try {
      const bin = findPostgresBin();
      const pgRestore = bin ? join(bin, 'pg_restore') : 'pg_restore';
      const restore = await runProgram(pgRestore, ['--clean', '--if-exists', '-d', restored.url, file]);
      expect(restore.code, restore.stderr).toBe(0);
      const after = await counts(restored.url);
      expect(after).toEqual(Object.entries(dumped).map(([table, n]) => `${table} ${n}`));
      expect(Number(after.find((line) => line.startsWith('places '))!.split(' ')[1])).toBeGreaterThan(0);
    } finally {
      await restored.drop();
    }
  }, 120_000);

  it('says in one line that a role which may not create databases cannot check its dump, and keeps nothing', async () => {
    const role = `no_createdb_${randomBytes(4).toString('hex')}`;
    const admin = inject('pgAdminUrl');
    await query(admin, `create role ${role} login`);
    try {
      const u = new URL(url);
      u.username = role;
      const file = join(dir, 'refused.dump');
      const run = await backup(file, u.toString());
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr.trim()).toBe(
        `backup: failed, nothing kept: the role ${role} may not create databases, and the dump is checked by restoring it into a scratch database: as a superuser run ALTER ROLE ${role} CREATEDB, or back up as a role that may`,
      );
      expect(existsSync(file)).toBe(false);
    } finally {
      await query(admin, `drop role ${role}`);
    }
  }, 60_000);

  it('refuses a file that exists, and documents the restore in --help', async () => {
    const file = join(dir, 'taken.dump');
    writeFileSync(file, 'an earlier backup');
    const again = await backup(file, url);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
    expect(readFileSync(file, 'utf8')).toBe('an earlier backup');
    const help = await runProgram(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', '--help']);
    expect(help.stdout).toMatch(/pg_restore --clean --if-exists -d <db> <file>/);
  }, 60_000);
});
