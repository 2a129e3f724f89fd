// npm run bench [-- <name>...]   Runs the benchmark modules of bench/ (each exports
// `run(): Promise<object>` and prints its own figures), then writes bench/results.json.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeBenchDocs } from './bench-docs.js';

const BENCH_DIR = join(import.meta.dirname, '..', 'bench');

const HELP = `Usage: npm run bench [-- <name>...]

Runs every benchmark module in bench/ (or only the named ones, e.g. "places"), prints
their figures and writes them all to bench/results.json with the machine they ran on,
then the table of docs/performance.md from it (npm run bench:docs alone).
Available: ${modules().join(', ')}`;

function modules(): string[] {
  return readdirSync(BENCH_DIR)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => basename(file, '.ts'))
    .sort();
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  const available = modules();
  const unknown = args.filter((name) => !available.includes(name));
  if (unknown.length) {
    console.error(`Unknown benchmark: ${unknown.join(', ')} (available: ${available.join(', ')})`);
    return 2;
  }
  const names = args.length ? args : available;
  const results: Record<string, unknown> = {};
  let failed = 0;
  for (const name of names) {
    const module = (await import(pathToFileURL(join(BENCH_DIR, `${name}.ts`)).href)) as { run?: () => Promise<object> };
    if (typeof module.run !== 'function') {
      console.error(`bench/${name}.ts exports no run()`);
      failed++;
      continue;
    }
    console.log(`\n== ${name}`);
    const started = performance.now();
    try {
      results[name] = await module.run();
    } catch (error) {
      failed++;
      results[name] = { error: error instanceof Error ? error.message : String(error) };
      console.error(`bench ${name} failed:`, error);
    }
    console.log(`(${name}: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  const file = join(BENCH_DIR, 'results.json');
  const machine = {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    memory_gb: Math.round(totalmem() / 2 ** 30),
  };
  // A run of some modules keeps the others' last figures, each with the date it ran.
  const previous = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { results?: Record<string, unknown>; ran_at?: Record<string, string> })
    : {};
  const now = new Date().toISOString();
  const ranAt = { ...previous.ran_at, ...Object.fromEntries(names.map((name) => [name, now])) };
  const all = { ...previous.results, ...results };
  writeFileSync(file, `${JSON.stringify({ generated_at: now, machine, ran_at: ranAt, results: all }, null, 2)}\n`);
  console.log(`\nWritten to ${file}`);
  writeBenchDocs(); // docs/performance.md shows this run's figures
  return failed ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
