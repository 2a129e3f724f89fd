// npm run backup -- <file>: a consistent online copy of the SQLite database, checked before
// success is reported. Safe while the server runs (SQLite's online backup API).
import { existsSync, rmSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { ConfigError, loadConfig, loadDotEnv } from '../src/config.js';

const HELP = `Usage: npm run backup -- <file>

Copies the database named by DATABASE_URL (default sqlite:data/app.db) to <file> while the
server may be running, then checks the copy (integrity check and row counts) before it says so.
The target must not exist yet.`;

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
  if (config.database.kind !== 'sqlite') {
    console.error('backup: only sqlite: databases are supported; use pg_dump for PostgreSQL');
    return 2;
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
      const tables = copy.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as { name: string }[];
      const counts = tables.map(({ name }) => {
        const { n } = copy.prepare(`select count(*) as n from "${name.replace(/"/g, '""')}"`).get() as { n: number };
        return `${name} ${n}`;
      });
      console.log(`Backup written to ${target} and checked (integrity ok; ${tables.length} tables: ${counts.join(', ')})`);
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

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : `backup: ${String(error)}`);
    process.exit(1);
  },
);
