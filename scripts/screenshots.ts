// npm run screenshots   Takes the README's pictures from a real run: the built server (`npm run
// build` first) on a temporary SQLite database with the Monaco extract imported and its own map
// tiles built (`npm run tiles`, Debian's tilemaker), a few searches so the dashboard has figures,
// and Debian's Chromium (or CHROMIUM_PATH) through playwright-core. Every request that would leave
// the site is blocked: the map is the site's own. Writes docs/images/locator.png and dashboard.png.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'docs', 'images');
const EXTRACT = join(ROOT, '..', 'shared', 'data', 'monaco-2021-04-21.osm.pbf');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'screenshots only, thrown away';
// Monaco's harbour: pharmacies, restaurants and bakeries within a few hundred metres.
const SEARCH = '/?c=pharmacy,restaurant,bakery&lat=43.7347&lon=7.4206';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitForHealth(base: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not answer /healthz within 30 s');
}

async function main(): Promise<void> {
  for (const [path, fix] of [
    [join(ROOT, 'dist', 'server', 'main.js'), 'run `npm run build` first'],
    [EXTRACT, 'the Monaco extract is read from ../shared/data'],
    [CHROMIUM, 'install Chromium (`apt-get install chromium`) or set CHROMIUM_PATH'],
  ]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: ${fix}`);
  }
  const work = mkdtempSync(join(tmpdir(), 'screenshots-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, DATABASE_URL: `sqlite:${join(work, 'app.db')}`, UPLOAD_DIR: join(work, 'uploads'), TILES_FILE: join(work, 'tiles.mbtiles'), PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD: PASSWORD, OVERPASS_URL: 'off', LOG_LEVEL: 'warn', RATE_LIMIT: 'off' };
  const imported = spawnSync('npx', ['tsx', 'scripts/import.ts', EXTRACT], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (imported.status !== 0) throw new Error('the import failed');
  const tiles = spawnSync('npx', ['tsx', 'scripts/tiles.ts', EXTRACT], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (tiles.status !== 0) throw new Error('the map tiles could not be built (npm run tiles)');
  const server = spawn(process.execPath, ['--max-semi-space-size=4', join(ROOT, 'dist', 'server', 'main.js')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    await waitForHealth(base, server);
    mkdirSync(OUT, { recursive: true });
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, locale: 'en', timezoneId: 'Europe/Monaco' });
    await context.route('**/*', (route) => (route.request().url().startsWith(base) ? route.continue() : route.abort('blockedbyclient')));
    const page = await context.newPage();

    // The locator with results: the search in the address runs on load.
    await page.goto(`${base}${SEARCH}`);
    await page.locator('#locator').scrollIntoViewIfNeeded();
    await page.getByText(/places? found/).first().waitFor({ timeout: 30_000 }).catch(async (error) => {
      console.error(await page.locator('body').innerText());
      throw error;
    });
    await page.locator('.leaflet-marker-icon, .marker-cluster').first().waitFor();
    // Closer in than the whole result set: the harbour's streets and the markers apart.
    for (let i = 0; i < 3; i++) await page.locator('.leaflet-control-zoom-in').click();
    // The own map's tiles are drawn on canvases as they arrive.
    await page.locator('.leaflet-tile-loaded').first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(2000);
    // The map and the first cards, just under the sticky header.
    await page.locator('.leaflet-container').first().evaluate((map) => window.scrollTo(0, map.getBoundingClientRect().top + window.scrollY - 90));
    await page.screenshot({ path: join(OUT, 'locator.png') });

    // A few more searches, so the dashboard's statistics have something to show.
    for (const c of ['pharmacy', 'bank', 'atm', 'restaurant']) await fetch(`${base}/api/places?active_categories=${c}&lat=43.7347&lon=7.4206`);

    await page.goto(`${base}/admin`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByTestId('searches-chart').waitFor();
    await page.getByTestId('search-stats').locator('.admin-top-categories li').first().waitFor();
    // From the top down to the end of the statistics (the charts), not the footer.
    const stats = (await page.getByTestId('search-stats').boundingBox())!;
    await page.screenshot({ path: join(OUT, 'dashboard.png'), fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Math.ceil(stats.y + stats.height + 24) } });
    console.log(`Written: ${join(OUT, 'locator.png')}, ${join(OUT, 'dashboard.png')}`);
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode !== null ? resolve(null) : server.once('exit', resolve)));
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
