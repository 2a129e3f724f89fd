// `npm run bench -- import` at a small size, on the same path as the real run: the synthetic
// country (copies of Monaco here, of Vancouver in the real run) is built (osmium), imported on each
// engine as `npm run import` runs, osmium's tags-filter + export beside it, and the ceiling case.
// Figures are not checked here (a busy CI machine); what each import wrote is.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPostgresBin } from '../../../support/postgres-cluster.js';
import { SHARED_DATA } from '../../helpers.js';

const MONACO = join(SHARED_DATA, 'monaco-2021-04-21.osm.pbf');
const cache = mkdtempSync(join(tmpdir(), 'bench-import-cache-'));
const engines = findPostgresBin() ? 'sqlite,postgres' : 'sqlite';

describe('the import benchmark at a small size', () => {
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  it('builds the country, imports it on each engine, runs osmium beside it, and the ceiling case', async () => {
    // run as `npm run bench` runs it, in its own process: the tests import nothing from bench/
    const env = {
      ...process.env,
      BENCH_CACHE_DIR: cache,
      BENCH_IMPORT_COPIES: '1,2',
      BENCH_IMPORT_CEILING: '1',
      BENCH_IMPORT_ENGINES: engines,
      BENCH_IMPORT_SOURCE: MONACO,
    };
    const script = `const { run } = await import('./bench/import.ts'); process.stdout.write('\\nRESULTS ' + JSON.stringify(await run()) + '\\n');`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    const line = out.split('\n').find((l) => l.startsWith('RESULTS '))!;
    const results = JSON.parse(line.slice('RESULTS '.length)) as Record<string, Record<string, Record<string, number>>>;
    for (const engine of engines.split(',')) {
      // a copy of Monaco holds its 29,772 elements and 825 places, shifted and renumbered
      expect(results.copies_1[engine]).toMatchObject({ elements: 29_772, places: 825 });
      expect(results.copies_2[engine]).toMatchObject({ elements: 2 * 29_772, places: 2 * 825 });
      expect(results.copies_2[engine].needed_nodes).toBe(2 * results.copies_1[engine].needed_nodes);
      expect(results.copies_2[engine].wall_s).toBeGreaterThan(0);
    }
    expect(results.copies_2.osmium_tags_filter_export.features).toBeGreaterThan(2 * 825);
    // every way a place (4,106 ways): their nodes are most of the file's 25,423
    const ceiling = results.ceiling_sqlite as unknown as { needed_nodes: number; places: number };
    expect(ceiling.places).toBeGreaterThan(4000);
    expect(ceiling.needed_nodes).toBeGreaterThan(20_000);
  }, 900_000);
});
