// No import cycle in the server, the web app or the database code (npm run check:cycles).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

describe('imports', () => {
  it('have no cycle in src, web and db', () => {
    const run = spawnSync('npm', ['run', '--silent', 'check:cycles'], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toMatch(/No circular dependency found/);
    expect(run.status).toBe(0);
  }, 120_000);
});
