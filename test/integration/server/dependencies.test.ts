// What the project installs (issue 12, point 8): every package, dev ones included, accepts the
// oldest Node.js the README and package.json promise, the README names the same range as
// package.json, and npm finds no invalid or missing dependency. (cookie 2 and content-disposition 3 declare Node 22: package.json pins versions
// that declare Node 18 and up, with `overrides` for what fastify and @fastify/static pull in; Lighthouse 12, the last for Node 20,
// has its trace engine ask for `latest` of two packages, which `npm ls` calls invalid: `overrides`
// pin the versions installed.)
// One package is meant for newer lines only: better-sqlite3 13, which db/sqlite-driver.ts loads
// on Node 22 and later (docs/operating/node-versions.md).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

/** The npm alias db/sqlite-driver.ts loads on Node 22 and later. */
const NEWER_LINES_DRIVER = 'node_modules/better-sqlite3-napi';

describe('dependencies', () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it('docs/operating/node-versions.md promises the Node.js that package.json does', () => {
    const page = readFileSync(join(ROOT, 'docs', 'operating', 'node-versions.md'), 'utf8');
    // The newest major the range takes.
    let newest = semver.major(oldest);
    while (semver.satisfies(`${newest + 1}.0.0`, pkg.engines.node)) newest++;
    expect(newest).toBeLessThan(40);
    expect(page).toContain(`Node.js ${semver.major(oldest)}.${semver.minor(oldest)} to ${newest}.`);
  });

  it('loads an SQLite driver in one place only, db/sqlite-driver.ts', () => {
    // (it requires the package of the running line); any file importing better-sqlite3 itself would
    // load the Node 20 driver on Node 24.
    const files = spawnSync(
      'git',
      [
        'grep',
        '-l',
        '-E',
        "^import [A-Za-z]+ from 'better-sqlite3(-napi)?'",
        '--',
        'src',
        'db',
        'scripts',
        'bench',
        'test',
        'web',
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(files.stdout.split('\n').filter(Boolean)).toEqual([]);
  });

  it(`every installed package accepts Node.js ${oldest}, the oldest promised`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(
        ([path, p]) =>
          path !== '' &&
          path !== NEWER_LINES_DRIVER &&
          p.engines &&
          !Array.isArray(p.engines) &&
          p.engines.node &&
          !semver.satisfies(oldest, p.engines.node),
      )
      .map(
        ([path, p]) =>
          `${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${(p.engines as { node: string }).node}`,
      );
    expect(refusing).toEqual([]);
  });

  it('better-sqlite3 13, for Node 22 and later, accepts every line from 22 the range takes', () => {
    const { name, version, engines } = lock.packages[NEWER_LINES_DRIVER] as {
      name?: string;
      version: string;
      engines: { node: string };
    };
    expect([name, semver.major(version)]).toEqual(['better-sqlite3', 13]);
    expect(semver.satisfies(semver.minVersion(`${pkg.engines.node} >=22`)!.version, engines.node)).toBe(true);
  });

  it('npm ls finds no invalid, missing or extraneous package', () => {
    const result = spawnSync('npm', ['ls', '--all'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr.split('\n').filter((line) => /ERR|invalid|missing|extraneous/i.test(line))).toEqual([]);
    expect(result.status).toBe(0);
  });
});
