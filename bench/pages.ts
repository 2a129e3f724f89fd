// The public pages' cost on the server, and what compression costs and saves:
//  (a) server CPU time per answered request (user + system of the server process, and of
//      PostgreSQL's processes where it serves; the load generator left out) of the home page, a
//      place page (one path: kept), the 100-result search, beside a bare Fastify hello-world's
//      in the same run, on both engines, on the Andorra extract; 50 connections, as a browser asks
//      (Accept-Encoding: gzip, deflate, br), medians of BENCH_RUNS runs;
//  (b) the same for a place page seen for the first time (every place of the extract, each once:
//      rendered, not kept yet), what a crawler's first pass costs: right after a start, in English
//      (the code's first runs, compiled meanwhile, count too), then in French, Spanish, Italian and
//      Portuguese on the same process (every page a first view still; by the last, the code is
//      compiled, as a running server's is);
//  (c) compressing a 100-result answer and a place page once: CPU per compression and the bytes
//      sent, brotli at the levels used for a page's first sending (1), per request (4) and at build
//      time (11), gzip 6 and 1.
// On PostgreSQL the server's CPU and PostgreSQL's are also given apart (app_us, postgres_us).
// BENCH_CPU_PROF=<dir>: every server process writes a CPU profile there when it stops
// (scripts/profile-summary.ts lists its top).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import {
  autocannon,
  createPostgresDatabase,
  median,
  postgresServer,
  round,
  startBareFastify,
  treeCpuSeconds,
  postmasterPid,
  startBuiltServer,
} from './support/load.js';

const ROOT = join(import.meta.dirname, '..');
const ANDORRA = join(ROOT, '..', 'shared', 'data', 'andorra-2021-04-14.osm.pbf');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };
/** A restaurant in La Massana with hours, phone and address. */
const PLACE_PAGE = '/place/node/2966865383';

let work = '';

const startServer = (databaseUrl: string) =>
  startBuiltServer(
    {
      DATABASE_URL: databaseUrl,
      RATE_LIMIT: 'off',
      ADMIN_PASSWORD: 'bench-password-not-used-anywhere',
      UPLOAD_DIR: join(work, 'uploads'),
      PUBLIC_ORIGIN: 'https://places.example',
    },
    process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`] : [],
  );

const treeCpuMs = (pids: number[]) => pids.reduce((sum, pid) => sum + treeCpuSeconds(pid) * 1000, 0);

/** µs of CPU per answered request, of each process tree of `pids` in its order. */
async function cpuPerAnswered(
  base: string,
  paths: string[],
  pids: number[],
  headers: Record<string, string>,
): Promise<number[]> {
  const before = pids.map((pid) => treeCpuMs([pid]));
  const result = await autocannon(base, paths, { connections: CONNECTIONS, seconds: SECONDS, headers });
  const spent = pids.map((pid, i) => treeCpuMs([pid]) - before[i]);
  const answered = Object.entries(result.statuses).reduce(
    (sum, [status, n]) => sum + (Number(status) < 300 ? n : 0),
    0,
  );
  if (answered === 0) throw new Error(`no request answered: ${JSON.stringify(result.statuses)}`);
  return spent.map((ms) => Math.round((ms * 1000) / answered));
}

/** Spread points over Andorra's valleys, the same every run. */
function searches(count: number): string[] {
  let seed = 36;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from(
    { length: count },
    () =>
      `/api/places?active_categories=restaurant&active_categories=shop&active_categories=amenity&lat=${round(42.5 + next() * 0.04, 5)}&lon=${round(1.5 + next() * 0.05, 5)}&radius=10000&limit=100`,
  );
}

/** Every place page of the sitemap in English, in its order. */
async function placePaths(base: string): Promise<string[]> {
  const xml = await (await fetch(`${base}/sitemap.xml`)).text();
  return [...xml.matchAll(/<loc>https:\/\/places\.example(\/place\/[^<]+)<\/loc>/g)].map((m) => m[1]);
}

/** (b) CPU per page over one pass of first views, 8 at a time, of each process tree of `pids` in its order. */
async function firstViews(base: string, paths: string[], pids: number[]): Promise<number[]> {
  const before = pids.map((pid) => treeCpuMs([pid]));
  let next = 0;
  let answered = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < paths.length) {
        const response = await fetch(base + paths[next++], { headers: BROWSER });
        await response.arrayBuffer();
        if (response.ok) answered++;
      }
    }),
  );
  return pids.map((pid, i) => Math.round(((treeCpuMs([pid]) - before[i]) * 1000) / answered));
}

/** A first-view pass's figures: the total, and on PostgreSQL the server's and PostgreSQL's apart. */
function firstViewFigures(perPid: number[]): { figures: Record<string, number>; text: string } {
  const cpu = perPid.reduce((a, b) => a + b);
  if (perPid.length === 1) return { figures: { cpu_us: cpu }, text: `${cpu} µs` };
  const [app, postgres] = perPid;
  return {
    figures: { cpu_us: cpu, app_us: app, postgres_us: postgres },
    text: `${cpu} µs (the server ${app}, PostgreSQL ${postgres})`,
  };
}

async function engine(
  name: string,
  databaseUrl: string,
  postgresPid: number | null,
  hello: { base: string; pid: number },
) {
  const imported = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/import.ts', ANDORRA], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: 'utf8',
  });
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`);
  const server = await startServer(databaseUrl);
  const pids = postgresPid ? [server.pid, postgresPid] : [server.pid];
  try {
    const routes: Record<string, string[]> = {
      'home page /': ['/'],
      [`place page ${PLACE_PAGE} (kept)`]: [PLACE_PAGE],
      '100-result search': searches(2000),
    };
    const figures: Record<string, unknown> = {};
    for (const [route, paths] of Object.entries(routes)) {
      await autocannon(server.base, paths, { connections: CONNECTIONS, seconds: 1, headers: BROWSER }); // warm-up: the JIT
      const runs: number[][] = [];
      const hellos: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        hellos.push((await cpuPerAnswered(hello.base, ['/'], [hello.pid], {}))[0]);
        runs.push(await cpuPerAnswered(server.base, paths, pids, BROWSER));
      }
      const cpu = median(runs.map((each) => each.reduce((a, b) => a + b)));
      const apart = postgresPid
        ? { app_us: median(runs.map(([app]) => app)), postgres_us: median(runs.map(([, pg]) => pg)) }
        : {};
      figures[route] = { cpu_us: cpu, ...apart, hello_world_cpu_us: median(hellos) };
      console.log(
        `  ${name}, ${route}: ${cpu} µs of server CPU per answered request` +
          (postgresPid ? ` (the server ${apart.app_us}, PostgreSQL ${apart.postgres_us})` : '') +
          ` (hello-world ${median(hellos)} µs)`,
      );
    }
    const places = await placePaths(server.base);
    // a restart empties the kept pages: each first view is a render
    await server.stop();
    const fresh = await startServer(databaseUrl);
    try {
      const freshPids = postgresPid ? [fresh.pid, postgresPid] : [fresh.pid];
      await fetch(`${fresh.base}/`); // the JIT's first steps are not a page's
      const first = firstViewFigures(await firstViews(fresh.base, places, freshPids));
      figures[`place pages seen first (${places.length}, each once)`] = first.figures;
      console.log(
        `  ${name}, ${places.length} place pages, each seen the first time (rendered), right after a start: ${first.text} of server CPU per page`,
      );
      // Each language's first pass still has V8 compiling what that language's texts take (on its
      // background threads: ~150 µs a page in the French pass, by `perf`); by the fifth language
      // a first view costs what it does on a server that has run a while.
      for (const [lang, language] of [
        ['fr', 'French'],
        ['es', 'Spanish'],
        ['it', 'Italian'],
        ['pt', 'Portuguese'],
      ]) {
        const pass = firstViewFigures(
          await firstViews(
            fresh.base,
            places.map((path) => `/${lang}${path}`),
            freshPids,
          ),
        );
        console.log(
          `  ${name}, the same in ${language} on the same process (rendered): ${pass.text} of server CPU per page`,
        );
        if (lang === 'fr')
          figures[`place pages seen first, next in French (${places.length}, each once)`] = pass.figures;
        if (lang === 'pt')
          figures[
            `place pages seen first, the code compiled (${places.length} in Portuguese, the fifth language, each once)`
          ] = pass.figures;
      }
    } finally {
      await fresh.stop();
    }
    return figures;
  } finally {
    await server.stop();
  }
}

/** (c) One compression of `body` at each level: CPU µs (median of rounds) and bytes. */
function compressionCost(body: Buffer) {
  const levels: Record<string, (data: Buffer) => Buffer> = {
    'brotli 1 (a page sent the first time)': (d) =>
      brotliCompressSync(d, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
      }),
    'brotli 2': (d) =>
      brotliCompressSync(d, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 2, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
      }),
    'brotli 4 (per request; a page sent again, once)': (d) =>
      brotliCompressSync(d, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
      }),
    'brotli 5': (d) =>
      brotliCompressSync(d, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
      }),
    'brotli 11 (build time)': (d) =>
      brotliCompressSync(d, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
      }),
    'gzip 6 (per request; a kept page, once)': (d) => gzipSync(d, { level: 6 }),
    'gzip 1': (d) => gzipSync(d, { level: 1 }),
  };
  const figures: Record<string, { cpu_us: number; bytes: number; saved_percent: number }> = {};
  for (const [level, compress] of Object.entries(levels)) {
    const times: number[] = [];
    let bytes = 0;
    const rounds = level.includes('11') ? 10 : 200;
    for (let r = 0; r < 5; r++) {
      const start = process.cpuUsage();
      for (let i = 0; i < rounds; i++) bytes = compress(body).length;
      const used = process.cpuUsage(start);
      times.push((used.user + used.system) / rounds);
    }
    figures[level] = {
      cpu_us: Math.round(median(times)),
      bytes,
      saved_percent: round((1 - bytes / body.length) * 100, 1),
    };
  }
  return figures;
}

export async function run() {
  work = mkdtempSync(join(tmpdir(), 'pages-bench-'));
  for (const step of [
    ['vite', 'build', '--logLevel', 'warn'],
    ['npm', 'run', '--silent', 'build:server'],
  ]) {
    const [command, ...args] = step[0] === 'vite' ? ['npx', ...step] : step;
    if (spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' }).status !== 0)
      throw new Error(`${step.join(' ')} failed`);
  }
  const hello = await startBareFastify();
  const postgres = await postgresServer();
  try {
    const results: Record<string, unknown> = {
      connections: CONNECTIONS,
      seconds: SECONDS,
      runs: RUNS,
      extract: 'andorra-2021-04-14.osm.pbf',
    };
    console.log(
      `server CPU per answered request (µs; ${CONNECTIONS} connections, Accept-Encoding as a browser's, medians of ${RUNS} x ${SECONDS} s):`,
    );
    const sqliteUrl = `sqlite:${join(work, 'andorra.db')}`;
    results.sqlite = await engine('sqlite', sqliteUrl, null, hello);
    if (postgres?.cluster) {
      const postmaster = postmasterPid(postgres.cluster);
      results.postgres = await engine(
        'postgres',
        await createPostgresDatabase(postgres.adminUrl, 'bench_pages'),
        postmaster,
        hello,
      );
    } else if (postgres)
      console.log(
        '  PostgreSQL: BENCH_DATABASE_URL names a server of its own; its CPU cannot be read here, so only SQLite is measured',
      );

    // (c) on the SQLite server's answers
    const server = await startServer(sqliteUrl);
    try {
      const answer = Buffer.from(await (await fetch(server.base + searches(1)[0])).arrayBuffer());
      const page = Buffer.from(await (await fetch(server.base + PLACE_PAGE)).arrayBuffer());
      const results100 = (JSON.parse(answer.toString()) as { results: unknown[] }).results.length;
      results.compression = {
        [`100-result answer (${results100} results, ${answer.length} bytes)`]: compressionCost(answer),
        [`place page (${page.length} bytes)`]: compressionCost(page),
      };
      for (const [what, levels] of Object.entries(
        results.compression as Record<string, ReturnType<typeof compressionCost>>,
      )) {
        console.log(`  compressing a ${what} once:`);
        for (const [level, f] of Object.entries(levels))
          console.log(`    ${level}: ${f.cpu_us} µs of CPU, ${f.bytes} bytes sent (${f.saved_percent}% saved)`);
      }
    } finally {
      await server.stop();
    }
    return results;
  } finally {
    hello.stop();
    postgres?.cluster?.remove();
    rmSync(work, { recursive: true, force: true });
  }
}
