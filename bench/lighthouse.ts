// Lighthouse's figures for the home page and a place page: its CLI (npm `lighthouse`) in Debian's
// Chromium (CHROME_PATH, default /usr/bin/chromium), mobile preset (simulated slow 4G and a 4x
// slower CPU), medians of BENCH_RUNS runs: performance, SEO and accessibility scores, layout shift
// (CLS), first and largest contentful paint (FCP, LCP), total blocking time (TBT) and the bytes
// transferred, with the machine's load average (Lighthouse simulates the phone from a trace of
// the run, so a busy machine moves the figures less than the wall time, but it does move them). On the Andorra extract, a
// server as `npm start` runs it, PUBLIC_ORIGIN its own address (so the canonical URLs are its).
// Wall-time figures: a busy machine lowers them.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAUNCH_ARGS, LAUNCH_ENV } from '../src/launch.js';
import { freePort } from '../support/ports.js';
import { median, round } from './support/load.js';

const ROOT = join(import.meta.dirname, '..');
const ANDORRA = join(ROOT, '..', 'shared', 'data', 'andorra-2021-04-14.osm.pbf');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PAGES = { 'home page /': '/', 'place page': '/place/node/2966865383' };

interface Report {
  categories: Record<string, { score: number }>;
  audits: Record<string, { numericValue?: number }>;
}

function lighthouse(url: string, out: string): Report {
  const result = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'lighthouse'),
    [
      url,
      '--quiet',
      '--output=json',
      `--output-path=${out}`,
      '--only-categories=performance,seo,accessibility',
      '--chrome-flags=--headless --no-sandbox',
    ],
    { cwd: ROOT, env: { ...process.env, CHROME_PATH: CHROME }, encoding: 'utf8', timeout: 180_000 },
  );
  if (result.status !== 0) throw new Error(`lighthouse failed: ${result.stderr}`);
  return JSON.parse(readFileSync(out, 'utf8')) as Report;
}

export async function run() {
  if (!existsSync(CHROME)) {
    console.log(`  skipped: no Chromium at ${CHROME} (apt-get install chromium, or set CHROME_PATH)`);
    return { skipped: 'no Chromium' };
  }
  const work = mkdtempSync(join(tmpdir(), 'lighthouse-bench-'));
  const database = `sqlite:${join(work, 'andorra.db')}`;
  for (const [command, ...args] of [
    ['npx', 'vite', 'build', '--logLevel', 'warn'],
    ['npm', 'run', '--silent', 'build:server'],
  ]) {
    if (spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' }).status !== 0)
      throw new Error(`${command} ${args.join(' ')} failed`);
  }
  const imported = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/import.ts', ANDORRA], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: database },
    encoding: 'utf8',
  });
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [...LAUNCH_ARGS, join(ROOT, 'dist', 'server', 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...LAUNCH_ENV,
      PORT: String(port),
      DATABASE_URL: database,
      PUBLIC_ORIGIN: base,
      OVERPASS_URL: 'off',
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: 'bench-password-not-used-anywhere',
      UPLOAD_DIR: join(work, 'uploads'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (
      let i = 0;
      !(await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      if (i > 600) throw new Error('server did not start in 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const results: Record<string, unknown> = {
      runs: RUNS,
      preset: 'mobile (Lighthouse default)',
      load_average_at_start: round(loadavg()[0], 1),
    };
    console.log(`Lighthouse, mobile preset, medians of ${RUNS} runs (wall-time figures: lower on a busy machine):`);
    for (const [name, path] of Object.entries(PAGES)) {
      const reports = Array.from({ length: RUNS }, (_, i) => lighthouse(base + path, join(work, `report-${i}.json`)));
      const pick = (f: (r: Report) => number) => median(reports.map(f));
      const row = {
        performance: Math.round(pick((r) => r.categories.performance.score * 100)),
        seo: Math.round(pick((r) => r.categories.seo.score * 100)),
        accessibility: Math.round(pick((r) => r.categories.accessibility.score * 100)),
        cls: round(
          pick((r) => r.audits['cumulative-layout-shift'].numericValue ?? NaN),
          3,
        ),
        fcp_s: round(pick((r) => r.audits['first-contentful-paint'].numericValue ?? NaN) / 1000, 2),
        lcp_s: round(pick((r) => r.audits['largest-contentful-paint'].numericValue ?? NaN) / 1000, 2),
        tbt_ms: Math.round(pick((r) => r.audits['total-blocking-time'].numericValue ?? NaN)),
        transferred_kb: Math.round(pick((r) => r.audits['total-byte-weight'].numericValue ?? NaN) / 1024),
      };
      results[name] = row;
      console.log(
        `  ${name}: performance ${row.performance}, SEO ${row.seo}, accessibility ${row.accessibility}, CLS ${row.cls}, FCP ${row.fcp_s} s, LCP ${row.lcp_s} s, TBT ${row.tbt_ms} ms, ${row.transferred_kb} KiB transferred`,
      );
    }
    return results;
  } finally {
    server.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}
