// Who imports whom across the top folders: the benchmark and the tests stand apart (neither
// imports the other; what both need is in support/), and support/ imports neither.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const IMPORT = /(?:^|\s)(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield path;
  }
}

/** Every relative import of the files under `folder`, as `file -> top folder it reaches`. */
function importsInto(folder: string, forbidden: string[]): string[] {
  const found: string[] = [];
  for (const path of sources(join(ROOT, folder))) {
    for (const match of readFileSync(path, 'utf8').matchAll(IMPORT)) {
      const spec = match[1] ?? match[2];
      if (!spec.startsWith('.')) continue;
      const top = relative(ROOT, resolve(dirname(path), spec)).split('/')[0];
      if (forbidden.includes(top)) found.push(`${relative(ROOT, path)} -> ${spec}`);
    }
  }
  return found;
}

describe('imports across folders', () => {
  it('bench/ imports nothing from test/', () => {
    expect(importsInto('bench', ['test'])).toEqual([]);
  });

  it('test/ imports nothing from bench/', () => {
    expect(importsInto('test', ['bench'])).toEqual([]);
  });

  it('support/ imports nothing from test/ or bench/', () => {
    expect(importsInto('support', ['test', 'bench'])).toEqual([]);
  });

  it('sees the imports it checks', () => {
    // the shared folder is used from both sides
    expect(importsInto('bench', ['support']).length).toBeGreaterThan(0);
    expect(importsInto('test', ['support']).length).toBeGreaterThan(0);
  });
});
