// npm run bench:docs   Writes the figures of bench/results.json (the last `npm run bench`) as one
// table between the bench-table markers of docs/performance.md, with the machine and the date:
// the documentation shows the current run only; earlier ones live in git history.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
export const RESULTS_FILE = join(ROOT, 'bench', 'results.json');
export const DOC_FILE = join(ROOT, 'docs', 'performance.md');
const START =
  '<!-- bench-table: written by `npm run bench` (scripts/bench-docs.ts) from bench/results.json; do not edit -->';
const END = '<!-- /bench-table -->';

interface Results {
  generated_at: string;
  /** when each benchmark last ran (a run of some keeps the others' figures) */
  ran_at?: Record<string, string>;
  machine: { node: string; platform: string; cpus: number; cpu?: string; memory_gb: number };
  results: Record<string, unknown>;
}

const number = (value: number) => value.toLocaleString('en', { maximumFractionDigits: 3 });
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** Every figure of a benchmark as one row: its path of names, then its value. */
function rows(name: string, value: unknown, path: string[] = []): string[] {
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) {
    return [
      `| ${cell(name)} | ${cell(path.join(' › '))} | ` +
        `${cell(value.map((item) => (typeof item === 'number' ? number(item) : String(item))).join(', '))} |`,
    ];
  }
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => rows(name, inner, [...path, key]));
  }
  const shown = typeof value === 'number' ? number(value) : String(value);
  return [`| ${cell(name)} | ${cell(path.join(' › ') || '(result)')} | ${cell(shown)} |`];
}

export function renderTable(data: Results): string {
  const { machine } = data;
  const head = [
    `Run of ${data.generated_at.slice(0, 16).replace('T', ' ')} UTC on ${machine.cpus} cores ` +
      `(${machine.cpu ?? 'unknown CPU'}), ${machine.memory_gb} GiB, ` +
      `Node ${machine.node.replace(/^v/, '')}, ${machine.platform}; benchmarks: ` +
      Object.keys(data.results)
        .map((name) =>
          data.ran_at?.[name] ? `${name} (${data.ran_at[name].slice(0, 16).replace('T', ' ')} UTC)` : name,
        )
        .join(', ') +
      '.',
    '',
    '| benchmark | figure | value |',
    '|---|---|---|',
  ];
  return [...head, ...Object.entries(data.results).flatMap(([name, value]) => rows(name, value))].join('\n');
}

/** The document with its table replaced; throws when the markers are missing. */
export function withTable(doc: string, table: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start === -1 || end < start)
    throw new Error(`docs/performance.md has no bench-table markers (${START} ... ${END})`);
  return `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`;
}

export function writeBenchDocs(): void {
  if (!existsSync(RESULTS_FILE)) throw new Error('bench/results.json does not exist: run `npm run bench` first');
  const data = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Results;
  writeFileSync(DOC_FILE, withTable(readFileSync(DOC_FILE, 'utf8'), renderTable(data)));
  console.log(`Table of ${data.generated_at} written to ${DOC_FILE}`);
}

if (process.argv[1] === import.meta.filename) {
  try {
    writeBenchDocs();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
