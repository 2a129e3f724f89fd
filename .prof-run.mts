import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '/work/wt-pages/test/support/ports.js';
import { treeCpuSeconds } from '/work/wt-pages/bench/places.js';
const ROOT = '/work/wt-pages';
const db = process.env.DB ?? `sqlite:/tmp/prof/andorra.db`;
if (process.env.IMPORT) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/import.ts', join(ROOT, '..', 'shared', 'data', 'andorra-2021-04-14.osm.pbf')], { cwd: ROOT, env: { ...process.env, DATABASE_URL: db }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}
const port = await freePort();
const args = process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [];
const child = spawn(process.execPath, ['--max-semi-space-size=4', ...args, join(ROOT, 'dist', 'server', 'main.js')], { cwd: ROOT, env: { ...process.env, PORT: String(port), DATABASE_URL: db, OVERPASS_URL: 'off', RATE_LIMIT: 'off', LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'bench-password-not-used-anywhere', UPLOAD_DIR: '/tmp/prof/uploads', PUBLIC_ORIGIN: 'https://places.example' }, stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${port}`;
while (!(await fetch(`${base}/healthz`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 100));
const xml = await (await fetch(`${base}/sitemap.xml`)).text();
const paths = [...xml.matchAll(/<loc>https:\/\/places\.example(\/place\/[^<]+)<\/loc>/g)].map((m) => m[1]);
await fetch(`${base}/`);
const before = treeCpuSeconds(child.pid!);
let next = 0, answered = 0;
await Promise.all(Array.from({ length: 8 }, async () => { while (next < paths.length) { const r = await fetch(base + paths[next++], { headers: { 'accept-encoding': 'gzip, deflate, br' } }); await r.arrayBuffer(); if (r.ok) answered++; } }));
console.log(paths.length, 'pages', Math.round(((treeCpuSeconds(child.pid!) - before) * 1e6) / answered), 'µs per first view');
child.kill('SIGINT');
await new Promise((r) => child.once('exit', r));
