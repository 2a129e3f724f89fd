import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPostgresVersion, createDb, DatabaseSetupError, migrate, type SqliteHandle } from '../../../db/index.js';
import { migrations } from '../../../db/migrations/index.js';

describe('the SQLite database', () => {
  let dir: string;
  let handle: SqliteHandle;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'db-test-'));
    handle = createDb({ kind: 'sqlite', path: join(dir, 'app.db') }) as SqliteHandle;
  });
  afterEach(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets the pragmas explicitly', () => {
    expect(handle.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(handle.sqlite.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(handle.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(handle.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('records migrations so that a second run does nothing', async () => {
    const first = await migrate(handle);
    expect(first).toEqual(Object.keys(migrations));
    expect(await migrate(handle)).toEqual([]);
    const recorded = await handle.db.selectFrom('schema_migrations').select('name').execute();
    expect(recorded.map((r) => r.name)).toEqual(Object.keys(migrations));
    const tables = handle.sqlite.prepare("select name from sqlite_master where type = 'table'").all() as {
      name: string;
    }[];
    for (const table of [
      'settings',
      'admin_users',
      'sessions',
      'ads',
      'background_videos',
      'carousel',
      'plans',
      'messages',
      'visit_counters',
      'visits_daily',
      'audit_log',
    ]) {
      expect(tables.map((t) => t.name)).toContain(table);
    }
  });

  it('runs each migration in a transaction: a failing one leaves nothing behind', async () => {
    await migrate(handle);
    const broken = {
      '9999_broken': {
        async up(db: any) {
          await db.schema.createTable('half_made').addColumn('id', 'integer').execute();
          await sql`this is not sql`.execute(db);
        },
      },
    };
    await expect(migrate(handle, broken)).rejects.toThrow();
    const table = handle.sqlite.prepare("select name from sqlite_master where name = 'half_made'").get();
    expect(table).toBeUndefined();
    const recorded = await handle.db
      .selectFrom('schema_migrations')
      .select('name')
      .where('name', '=', '9999_broken')
      .execute();
    expect(recorded).toEqual([]);
  });

  it('processes starting together on a new file take turns: each migration runs once', async () => {
    const file = join(dir, 'shared.db');
    // All start migrating at the same moment, once tsx has loaded in each.
    const startAt = Date.now() + 4000;
    const script = `import { createDb, migrate } from './db/index.ts';
      const handle = createDb({ kind: 'sqlite', path: ${JSON.stringify(file)} });
      await new Promise((r) => setTimeout(r, ${startAt} - Date.now()));
      console.log(JSON.stringify(await migrate(handle))); await handle.close();`;
    const runOne = () =>
      new Promise<string[]>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
          cwd: join(import.meta.dirname, '..', '..', '..'),
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (c) => (out += c));
        child.stderr.on('data', (c) => (err += c));
        child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(err))));
      });
    const results = await Promise.all([runOne(), runOne(), runOne()]);
    expect(results.flat().sort()).toEqual(Object.keys(migrations).sort());
  });
});

describe('the PostgreSQL start-up check', () => {
  it('says in one line that a server older than 15 will not do, and takes 15 and newer', () => {
    const where = 'db.example.org:5432/site';
    expect(() => checkPostgresVersion(140011, where)).toThrow(
      new DatabaseSetupError(
        'DATABASE_URL: PostgreSQL at db.example.org:5432/site is version 14; 15 or newer is needed',
      ),
    );
    expect(() => checkPostgresVersion(90624, where)).toThrow(/is version 9; 15 or newer is needed$/);
    expect(() => checkPostgresVersion(150000, where)).not.toThrow();
    expect(() => checkPostgresVersion(170002, where)).not.toThrow();
  });
});
