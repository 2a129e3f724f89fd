// Tests start the server as `npm start` does, from the bundle `npm run build:server` makes of
// src/: built again before every run (a fraction of a second), so a run never tests a stale one.
// Several projects list this setup; vitest runs each project's copy, so the first one builds.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const BUILT = Symbol.for('places-test.server-built');

export default function setup(): void {
  const run = globalThis as { [BUILT]?: boolean };
  if (run[BUILT]) return;
  const build = spawnSync('npm', ['run', '--silent', 'build:server'], {
    cwd: join(import.meta.dirname, '..', '..'),
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('The server did not build: `npm run build:server` failed');
  run[BUILT] = true;
}
