// What durability costs: acknowledged writes survive a SIGKILL because each
// is committed before it is answered, with SQLite in WAL mode and synchronous=FULL (db/index.ts).
// This measures single-row committed inserts per second (a contact message's shape) on this
// machine's disk with synchronous FULL, NORMAL and OFF, median of three runs of two seconds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '../db/sqlite-driver.js';
import { median, round } from './support/load.js';

function insertsPerSecond(mode: 'FULL' | 'NORMAL' | 'OFF', dir: string, run: number): number {
  const db = new Database(join(dir, `${mode}-${run}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${mode}`);
  db.exec(
    'create table messages (id integer primary key, name text, email text, subject text, body text, created_at integer)',
  );
  const insert = db.prepare('insert into messages (name, email, subject, body, created_at) values (?, ?, ?, ?, ?)');
  const write = db.transaction((n: number) =>
    insert.run('Ana', 'ana@example.org', `subject ${n}`, 'Hello there', Date.now()),
  );
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < 2000) write(n++);
  const seconds = (performance.now() - started) / 1000;
  db.close();
  return n / seconds;
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'durability-bench-'));
  try {
    const results: Record<string, number> = {};
    for (const mode of ['FULL', 'NORMAL', 'OFF'] as const) {
      results[mode] = Math.round(median([0, 1, 2].map((run) => insertsPerSecond(mode, dir, run))));
    }
    console.log(
      `committed single-row inserts/s in WAL mode: synchronous=FULL ${results.FULL.toLocaleString('en')} (what the site runs), ` +
        `NORMAL ${results.NORMAL.toLocaleString('en')} ` +
        `(${round(results.NORMAL / results.FULL, 1)}x, may lose the last commits on power loss), ` +
        `OFF ${results.OFF.toLocaleString('en')} (${round(results.OFF / results.FULL, 1)}x, may corrupt on power loss)`,
    );
    return { wal_inserts_per_s: results };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
