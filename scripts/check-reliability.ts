// npm run check:reliability [-- --ci] [-- crash fuzz ...]   The reliability and security
// batteries (test/slow/reliability) at full size (or, with --ci, at the size npm test runs them),
// on every database the tests can reach, then one table of what they measured.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FigureRecord } from '../test/slow/reliability/figures.js';

// The XSS battery renders the built pages: build them first, as npm test does.
const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
if (build.status !== 0) {
  console.error('The web app did not build; the batteries were not run.');
  process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'reliability-'));
const report = join(dir, 'figures.jsonl');
const ci = process.argv.includes('--ci');
// `-- fuzz xss` runs those batteries only (vitest's filters add up: each names a file of its own).
const batteries = process.argv.slice(2).filter((a) => a !== '--ci');
const files =
  batteries.length > 0 ? batteries.map((name) => `test/slow/reliability/${name}`) : ['test/slow/reliability'];
const run = spawnSync('npx', ['vitest', 'run', ...files], {
  stdio: 'inherit',
  env: { ...process.env, RELIABILITY_SIZE: ci ? 'ci' : 'full', RELIABILITY_REPORT: report },
});

let records: FigureRecord[] = [];
try {
  records = readFileSync(report, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as FigureRecord);
} catch {
  // no battery recorded anything: said below
}
rmSync(dir, { recursive: true, force: true });

const header = ['battery', 'database', 'size', 'figure', 'value', 'limit', 'pass'];
const rows = records.map((r) => [
  r.battery,
  r.database,
  r.size,
  r.figure,
  String(r.value),
  `${r.atLeast ? '>=' : '<='} ${r.limit}`,
  r.pass ? 'yes' : 'NO',
]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log(`\n${line(header)}\n${line(widths.map((w) => '-'.repeat(w)))}`);
for (const row of rows) console.log(line(row));

const failed = records.filter((r) => !r.pass).length;
if (records.length === 0) console.log('\nNo figures were recorded.');
console.log(
  `\n${records.length} figures, ${failed} over their limit; the test run ${run.status === 0 ? 'passed' : 'failed'}.`,
);
process.exitCode = run.status === 0 && failed === 0 && records.length > 0 ? 0 : 1;
