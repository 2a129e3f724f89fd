// npm run backup -- <file>: a consistent online copy of the database, checked before success
// is reported. Safe while the server runs. SQLite: SQLite's online backup API, then an
// integrity check. PostgreSQL: pg_dump (custom format), checked by restoring the dump into a
// scratch database and comparing row counts with the data the dump was taken from.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import SQLite from '../db/sqlite-driver.js';
import pg from 'pg';
import { describePostgresUrl } from '../db/index.js';
import { ConfigError, loadConfig, loadDotEnv } from '../src/config.js';

const HELP = `Usage: npm run backup -- <file>

Copies the database named by DATABASE_URL (default sqlite:data/app.db; a .env file may set it)
to <file> while the server may be running, and checks the copy before it says so. The target
must not exist yet; if the check fails, nothing is kept.

  sqlite:      a copy of the database file, checked (integrity check and row counts)
  postgres://  pg_dump --format=custom (the newest pg_dump installed, at least the server's
               version: /usr/lib/postgresql/<version>/bin or PATH), checked by restoring it
               into a scratch database (created and dropped by this command: the role needs
               CREATEDB, and PostGIS must be addable there, e.g. present in template1) and
               comparing the row count of every table with the data the dump was taken from

Restore: PostgreSQL: pg_restore --clean --if-exists -d <db> <file>
         SQLite: stop the server and copy the file back over the database file.`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  if (args.length !== 1) {
    console.error('backup: give exactly one target file (see --help)');
    return 2;
  }
  const target = args[0];
  loadDotEnv();
  const config = loadConfig();
  if (config.database.kind === 'postgres') {
    if (existsSync(target)) {
      console.error(`backup: ${target} already exists; choose a new file`);
      return 1;
    }
    return backupPostgres(config.database.url, target);
  }
  if (!existsSync(config.database.path)) {
    console.error(`backup: no database at ${config.database.path}`);
    return 1;
  }
  if (existsSync(target)) {
    console.error(`backup: ${target} already exists; choose a new file`);
    return 1;
  }

  const source = new SQLite(config.database.path, { readonly: true, fileMustExist: true });
  source.pragma('busy_timeout = 5000');
  try {
    await source.backup(target);
    const copy = new SQLite(target, { readonly: true, fileMustExist: true });
    try {
      const integrity = copy.pragma('integrity_check', { simple: true });
      if (integrity !== 'ok') throw new Error(`integrity check of the copy failed: ${String(integrity)}`);
      const tables = copy
        .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
        .all() as { name: string }[];
      const counts = tables.map(({ name }) => {
        const { n } = copy.prepare(`select count(*) as n from "${name.replace(/"/g, '""')}"`).get() as { n: number };
        return `${name} ${n}`;
      });
      console.log(
        `Backup written to ${target} and checked (integrity ok; ${tables.length} tables: ${counts.join(', ')})`,
      );
    } finally {
      copy.close();
    }
    return 0;
  } catch (error) {
    rmSync(target, { force: true });
    console.error(`backup: failed, nothing kept: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    source.close();
  }
}

/** A problem to report in one line, without a stack. */
class BackupError extends Error {}

/** The connection without its password (that goes in PGPASSWORD, out of the process list). */
function libpq(url: string, database?: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(database ? inDatabase(url, database) : url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function majorOf(program: string): number | null {
  const result = spawnSync(program, ['--version'], { encoding: 'utf8' });
  const match = /\s(\d+)(?:\.\d+)?/.exec(result.stdout ?? '');
  return result.status === 0 && match ? Number(match[1]) : null;
}

/**
 * The newest pg_dump that can dump this server (its version or newer): Debian keeps one per
 * version off PATH, in /usr/lib/postgresql/<version>/bin; else the one on PATH. pg_restore is
 * taken from beside it.
 */
function findPgTools(serverMajor: number): { pgDump: string; pgRestore: string; major: number } | null {
  const candidates: string[] = [];
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    for (const version of readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a)))
      candidates.push(join(root, version, 'bin', 'pg_dump'));
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir) candidates.push(join(dir, 'pg_dump'));
  for (const pgDump of candidates) {
    if (!existsSync(pgDump)) continue;
    const major = majorOf(pgDump);
    if (major === null || major < serverMajor) continue;
    const beside = join(dirname(pgDump), 'pg_restore');
    if (existsSync(beside) && majorOf(beside) === major) return { pgDump, pgRestore: beside, major };
  }
  return null;
}

/** Runs a PostgreSQL program; fails with the last line it printed. */
function run(program: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('error', (error) => reject(new BackupError(`${program}: ${error.message}`)));
    child.on('exit', (code) => {
      if (code === 0) return resolve(stdout);
      const lines = stderr.trim().split('\n');
      const line = lines.find((l) => /^\S+: error: /.test(l)) ?? lines.pop() ?? `exit code ${code}`;
      reject(new BackupError(line.replace(/^(pg_dump|pg_restore): (error: )?/, (_, name: string) => `${name}: `)));
    });
  });
}

/** Every table of the database that no extension owns, with its rows, as "schema.name" -> n. */
async function countRows(client: pg.Client): Promise<Map<string, number>> {
  const { rows } = await client.query<{ schema: string; name: string }>(
    `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
       and not c.relispartition
       and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
     order by 1, 2`,
  );
  const counts = new Map<string, number>();
  for (const { schema, name } of rows) {
    const quoted = `"${schema.replace(/"/g, '""')}"."${name.replace(/"/g, '""')}"`;
    const result = await client.query<{ n: number }>(`select count(*)::bigint as n from ${quoted}`);
    counts.set(schema === 'public' ? name : `${schema}.${name}`, result.rows[0].n);
  }
  return counts;
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'nearby-place-finder backup' });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    const e = error as { code?: string; message?: string };
    throw new BackupError(
      `cannot reach PostgreSQL at ${describePostgresUrl(url)} (${e.code ?? e.message ?? 'no answer'})`,
    );
  }
  return client;
}

async function backupPostgres(url: string, target: string): Promise<number> {
  const source = await connect(url).catch((error: unknown) => error as Error);
  if (source instanceof Error) {
    console.error(`backup: ${source.message}`);
    return 1;
  }
  let scratch: string | null = null;
  let listFile: string | null = null;
  let wrote = false;
  try {
    const info = (
      await source.query<{ version: number; user: string; database: string; may_create: boolean }>(
        `select current_setting('server_version_num')::int as version, current_user as user, current_database() as database,
           (select rolcreatedb or rolsuper from pg_roles where rolname = current_user) as may_create`,
      )
    ).rows[0];
    // Checked first: a dump that cannot be checked is not a backup we vouch for.
    if (!info.may_create) {
      throw new BackupError(
        `the role ${info.user} may not create databases, ` +
          `and the dump is checked by restoring it into a scratch database: ` +
          `as a superuser run ALTER ROLE ${info.user} CREATEDB, or back up as a role that may`,
      );
    }
    const serverMajor = Math.floor(info.version / 10000);
    const tools = findPgTools(serverMajor);
    if (!tools) {
      throw new BackupError(
        `no pg_dump of version ${serverMajor} or newer was found (in /usr/lib/postgresql/<version>/bin or PATH); ` +
          `Debian: apt-get install postgresql-client-${serverMajor}`,
      );
    }

    // The dump and the counts read one snapshot: exported by this transaction, kept open until
    // pg_dump has taken it.
    await source.query('begin isolation level repeatable read read only');
    const snapshot = (await source.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0].id;
    const conn = libpq(url);
    wrote = true;
    const [, expected] = await Promise.all([
      run(
        tools.pgDump,
        ['--format=custom', `--snapshot=${snapshot}`, `--file=${target}`, `--dbname=${conn.dbname}`],
        conn.env,
      ),
      countRows(source),
    ]);
    await source.query('commit');

    // The check: restore into a scratch database; every table and every row must come back.
    scratch = `${info.database.slice(0, 30)}_backup_check_${randomBytes(4).toString('hex')}`;
    await source.query(`create database "${scratch.replace(/"/g, '""')}"`);
    const scratchConn = libpq(url, scratch);
    const scratchClient = await connect(inDatabase(url, scratch));
    try {
      // Extensions are created here, not by the dump's entries (their comments and ownership
      // belong to a superuser): PostGIS may need one, and saying so is the useful answer.
      const toc = await run(tools.pgRestore, ['--list', target], process.env);
      const extensions = [...toc.matchAll(/^\d+; \d+ \d+ EXTENSION - (\S+)/gm)].map((m) => m[1]);
      for (const extension of extensions) {
        try {
          await scratchClient.query(`create extension if not exists "${extension.replace(/"/g, '""')}"`);
        } catch {
          throw new BackupError(
            `cannot check the dump: the scratch database needs the ${extension} extension, ` +
              `which the role ${info.user} may not create; ` +
              `as a superuser run psql -d template1 -c 'CREATE EXTENSION ${extension}' ` +
              `once (new databases then have it), or back up as a superuser`,
          );
        }
      }
      // Nor the data of the extensions' own tables (PostGIS's spatial_ref_sys): theirs to fill.
      const owned = new Set(
        (
          await source.query<{ name: string }>(
            `select n.nspname || ' ' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
             join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e'`,
          )
        ).rows.map((r) => r.name),
      );
      const kept = toc.split('\n').filter((line) => {
        if (/ (EXTENSION|COMMENT - EXTENSION) /.test(line)) return false;
        const data = /^\d+; \d+ \d+ (?:TABLE DATA|SEQUENCE SET) (\S+ \S+) /.exec(line);
        return !(data && owned.has(data[1]));
      });
      listFile = join(tmpdir(), `backup-list-${randomBytes(6).toString('hex')}`);
      writeFileSync(listFile, kept.join('\n'));
      await run(
        tools.pgRestore,
        [
          '--exit-on-error',
          '--no-owner',
          '--no-privileges',
          `--use-list=${listFile}`,
          `--dbname=${scratchConn.dbname}`,
          target,
        ],
        scratchConn.env,
      );
      const restored = await countRows(scratchClient);
      const differences = [...expected]
        .filter(([table, n]) => restored.get(table) !== n)
        .map(([table, n]) => `${table} ${n} vs ${restored.get(table) ?? 'missing'}`);
      if (differences.length) throw new BackupError(`the restored dump differs: ${differences.join(', ')}`);
    } finally {
      await scratchClient.end().catch(() => {});
    }
    const size = statSync(target).size;
    const summary = [...expected].map(([table, n]) => `${table} ${n}`).join(', ');
    console.log(
      `Backup written to ${target} (pg_dump ${tools.major}, custom format, ` +
        `${(size / 1024 / 1024).toFixed(1)} MiB) and checked (restored into a scratch database; ` +
        `${expected.size} tables, the same row counts: ${summary})`,
    );
    return 0;
  } catch (error) {
    if (wrote) rmSync(target, { force: true });
    const message = error instanceof BackupError ? error.message : (error as Error).message;
    console.error(`backup: failed, nothing kept: ${message}`);
    return 1;
  } finally {
    if (listFile) rmSync(listFile, { force: true });
    if (scratch)
      await source.query(`drop database if exists "${scratch.replace(/"/g, '""')}" with (force)`).catch(() => {});
    await source.end().catch(() => {});
  }
}

/** The same server and credentials, another database. */
function inDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : `backup: ${String(error)}`);
    process.exit(1);
  },
);
