// The documentation against the code: the README's commands table is package.json's scripts, the
// configuration tables are src/config.ts's variables, docs/api.md's REST table is routes.ts, and
// every relative link in README.md, CONTRIBUTING.md, CHANGELOG.md and docs/ resolves.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../src/rest/routes.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SHARED = join(ROOT, '..', 'shared');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const readme = read('README.md');
const configuration = read('docs/operating/configuration.md');
const api = read('docs/api.md');

/** Pages other branches write (Node versions, the map, reads): linked here before they land. */
const FROM_OTHER_BRANCHES = ['docs/operating/node-versions.md', 'docs/operating/map.md', 'docs/operating/reads.md'];

/** The rows of the table that follows `marker` (up to the first line that is not a row). */
function tableAfter(text: string, marker: string): string[] {
  const start = text.indexOf(marker);
  expect(start, `no "${marker}"`).toBeGreaterThanOrEqual(0);
  const lines = text.slice(start).split('\n').slice(1);
  const rows: string[] = [];
  for (const line of lines) {
    if (line.startsWith('|')) rows.push(line);
    else if (rows.length) break;
  }
  return rows.slice(2); // the header and its rule
}

/** The environment variables src/config.ts reads. */
function configVariables(): string[] {
  const source = read('src/config.ts');
  return [...new Set([...source.matchAll(/get\('([A-Z_]+)'\)|env\.([A-Z_]+)/g)].map((m) => m[1] ?? m[2]))].sort();
}

const variablesIn = (rows: string[]) =>
  rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z][A-Z_]+)`/g)].map((m) => m[1])).sort();

describe('README', () => {
  it('lists exactly the npm scripts in its commands table', () => {
    const rows = tableAfter(readme, '<!-- commands-table');
    const documented = rows
      .map((row) => /^\| `npm (?:run )?([\w:-]+)/.exec(row)?.[1] ?? `unreadable row: ${row}`)
      .sort();
    const scripts = Object.keys(
      (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts,
    ).sort();
    expect(documented).toEqual(scripts);
  });

  it('names every setting of src/config.ts in its configuration table, and no other', () => {
    expect(variablesIn(tableAfter(readme, '## Configuration'))).toEqual(configVariables());
  });

  it('links the OpenAPI document', () => {
    expect(readme).toContain('(http://localhost:3000/api/openapi.json)');
  });

  it('starts with the two quick-start commands', () => {
    const quickStart = readme.slice(readme.indexOf('## Quick start'));
    expect(quickStart.indexOf('npm install && npm start')).toBeGreaterThan(0);
    expect(quickStart.indexOf('npm test')).toBeGreaterThan(quickStart.indexOf('npm install && npm start'));
  });

  it('stays a front page', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(160);
  });
});

describe('docs/operating/configuration.md', () => {
  it('documents exactly the variables src/config.ts reads, one a row', () => {
    const rows = tableAfter(configuration, '# Configuration');
    expect(variablesIn(rows)).toEqual(configVariables());
  });

  it('lists every setting of CONTRACT.md', () => {
    const contract = readFileSync(join(SHARED, 'CONTRACT.md'), 'utf8');
    const settings = [...contract.matchAll(/^\| `([A-Z][A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(settings).toEqual(
      expect.arrayContaining([
        'PORT',
        'DATABASE_URL',
        'DATABASE_POOL',
        'WEB_CONCURRENCY',
        'MEDIA_STORE',
        'REPLICATION_URL',
        'UPDATE_INTERVAL',
      ]),
    );
    for (const name of settings) expect(configuration).toContain(`| \`${name}\` |`);
  });
});

describe('docs/api.md', () => {
  it('documents exactly the REST routes (and the upload path and the OpenAPI document)', () => {
    const table = api.slice(api.indexOf('<!-- api-table'));
    const documented = [...table.matchAll(/^\| (GET|POST|PUT|DELETE) \| `([^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    const expected = [
      ...routes.map((r) => `${r.method} ${r.path}`),
      'POST /api/uploads',
      'GET /api/openapi.json',
    ].sort();
    expect(documented.sort()).toEqual(expected);
  });
});

describe('links', () => {
  const files = ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const path = `${dir}/${name}`;
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');

  /** GitHub's anchor for a heading. */
  const slug = (heading: string) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
  const anchors = (path: string) =>
    new Set([...read(path).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1].replace(/`/g, ''))));

  /** Relative links outside code: [text](target) and ![alt](target). */
  function links(path: string): string[] {
    const text = read(path)
      .replace(/```[\s\S]*?```/g, '')
      .replace(/`[^`\n]*`/g, '');
    return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((target) => !/^[a-z]+:/i.test(target));
  }

  it('finds the documentation', () => {
    expect(files).toEqual(expect.arrayContaining(['docs/api.md', 'docs/operating/proxy.md', 'docs/performance.md']));
  });

  it('every relative link and #anchor resolves', () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const target of links(file)) {
        const [path, anchor] = target.split('#');
        const to = path ? relative(ROOT, resolve(ROOT, dirname(file), path)) : file;
        if (FROM_OTHER_BRANCHES.includes(to)) continue; // checked below, with its own message
        if (!existsSync(join(ROOT, to))) broken.push(`${file}: ${target} (no ${to})`);
        else if (anchor && to.endsWith('.md') && !anchors(to).has(anchor))
          broken.push(`${file}: ${target} (no heading #${anchor} in ${to})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the pages other branches write are there (merge them before CI)', () => {
    const linked = new Set(
      files.flatMap((file) =>
        links(file).map((target) => relative(ROOT, resolve(ROOT, dirname(file), target.split('#')[0]))),
      ),
    );
    for (const page of FROM_OTHER_BRANCHES) {
      expect(linked.has(page), `${page} is no longer linked: drop it from FROM_OTHER_BRANCHES`).toBe(true);
      expect(
        existsSync(join(ROOT, page)),
        `${page} is linked from the documentation but missing: it comes from another branch, merge it`,
      ).toBe(true);
    }
  });
});
