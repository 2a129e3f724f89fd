// What the source says: no comment or string in the code points at a document a reader of the
// repository does not have (an issue number, the product's SPEC.md, CONTRACT.md, ARCHITECTURE.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FOLDERS = ['src', 'web', 'db', 'scripts', 'bench', 'support'];
const TEXT = /\.(ts|tsx|js|mjs|css|html|sh|sql)$/;
const POINTER =
  /\bissues? #?\d+|\bSPEC\.md|\bCONTRACT\.md|\bARCHITECTURE\.md|\bSPEC section|\bthe spec('s)?\b|\bthe brief\b/i;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (TEXT.test(entry.name)) yield path;
  }
}

describe('the source', () => {
  it('points at no document outside the repository', () => {
    const found: string[] = [];
    let read = 0;
    for (const folder of FOLDERS) {
      for (const path of files(join(ROOT, folder))) {
        read++;
        readFileSync(path, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (POINTER.test(line)) found.push(`${relative(ROOT, path)}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(read).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });
});
