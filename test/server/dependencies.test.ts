// What the project installs (issue 12, point 8): every package, dev ones included, accepts the
// oldest Node.js the README and package.json promise, the README names the same range as
// package.json, and npm finds no invalid or missing dependency. (cookie 2 and content-disposition 3 declare Node 22: package.json pins versions
// that declare Node 18 and up, with `overrides` for what fastify and @fastify/static pull in.)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> };

describe('dependencies', () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it('the README promises the Node.js that package.json does', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    // The newest major the range takes (Node 23 and 24 are left out: see the README).
    let newest = semver.major(oldest);
    while (semver.satisfies(`${newest + 1}.0.0`, pkg.engines.node)) newest++;
    expect(newest).toBeLessThan(40);
    expect(readme).toContain(`Node.js ${semver.major(oldest)}.${semver.minor(oldest)} to ${newest}.`);
  });

  it(`every installed package accepts Node.js ${oldest}, the oldest promised`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.engines && !Array.isArray(p.engines) && p.engines.node && !semver.satisfies(oldest, p.engines.node))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it('npm ls finds no invalid, missing or extraneous package', () => {
    const result = spawnSync('npm', ['ls', '--all'], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr.split('\n').filter((line) => /ERR|invalid|missing|extraneous/i.test(line))).toEqual([]);
    expect(result.status).toBe(0);
  });
});
