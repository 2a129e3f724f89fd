// The README's API table is the documentation of routes.ts: every route, with its access.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '../../src/rest/routes.js';

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared');

function documentedRoutes(): string[] {
  const table = readme.slice(readme.indexOf('<!-- api-table'));
  return [...table.matchAll(/^\| (GET|POST|PUT|DELETE) \| `([^`]+)` \|/gm)].map((m) => `${m[1]} ${m[2]}`);
}

describe('README', () => {
  it('documents exactly the REST routes (and the upload path and the OpenAPI document)', () => {
    const expected = [...routes.map((r) => `${r.method} ${r.path}`), 'POST /api/uploads', 'GET /api/openapi.json'].sort();
    expect(documentedRoutes().sort()).toEqual(expected);
  });

  it('links the OpenAPI document', () => {
    expect(readme).toContain('(http://localhost:3000/api/openapi.json)');
  });

  it('starts with the two quick-start commands', () => {
    const quickStart = readme.slice(readme.indexOf('## Quick start'));
    expect(quickStart.indexOf('npm install && npm start')).toBeGreaterThan(0);
    expect(quickStart.indexOf('npm test')).toBeGreaterThan(quickStart.indexOf('npm install && npm start'));
  });

  it('lists every setting of CONTRACT.md', () => {
    const contract = readFileSync(join(SHARED, 'CONTRACT.md'), 'utf8');
    const settings = [...contract.matchAll(/^\| `([A-Z][A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(settings).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'DATABASE_POOL', 'WEB_CONCURRENCY', 'MEDIA_STORE', 'REPLICATION_URL', 'UPDATE_INTERVAL']));
    for (const name of settings) expect(readme).toContain(`| \`${name}\` |`);
  });
});
