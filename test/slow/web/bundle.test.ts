// The home page's JavaScript stays under its budget and never includes the admin panel
// (measured on the dist/web that `npm test` builds first).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUDGET_KB, dynamicImports, homePageScripts, run, staticImports } from '../../../support/bundle';

const WEB = join(import.meta.dirname, '..', '..', '..', 'dist', 'web');

describe('home page bundle', () => {
  it('tells static imports from lazy ones', () => {
    const code =
      'import{a as b}from"./index-1.js";import"./side-2.js";const m=()=>import(`./AdminApp-3.js`);export{x}from\'./re-4.js\'';
    expect(staticImports(code)).toEqual(['./index-1.js', './side-2.js', './re-4.js']);
    expect(dynamicImports(code)).toEqual(['./AdminApp-3.js']);
  });

  it(`is under ${BUDGET_KB} KB gzipped, without the admin code`, async () => {
    expect(existsSync(join(WEB, 'index.html')), 'dist/web is not built: run npm run build').toBe(true);
    const { eager, lazy } = homePageScripts();
    expect(eager.length).toBeGreaterThan(0);
    expect(eager.filter((file) => /admin/i.test(file))).toEqual([]);
    const adminChunks = readdirSync(join(WEB, 'assets')).filter((file) => /^AdminApp-.*\.js$/.test(file));
    expect(adminChunks.length).toBe(1);
    expect(lazy).toContain(`assets/${adminChunks[0]}`);
    const result = await run({ build: false });
    expect(result.home_js_gzip_kb).toBeGreaterThan(20);
    expect(result.home_js_gzip_kb).toBeLessThan(BUDGET_KB);
  });
});
