// npm run screenshots   Takes the README's pictures from a real run: the built server (`npm run
// build` first) on a temporary SQLite database with the Monaco, Andorra and Vancouver extracts
// imported and the site's own map built from the three in one tiles file (`npm run tiles`,
// Debian's tilemaker and osmcoastline), and Debian's Chromium (or CHROMIUM_PATH) through
// playwright-core. Every request that would leave the site is blocked: the map is the site's own.
//
// Writes docs/images/locator-<region>-<language>-<desktop|phone>.png (the locator after a search
// around a visitor in each region, in English and Spanish, at 1366x900 and 390x844) and
// dashboard.png. The README shows some of them; .gitignore keeps the others out of commits.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContextOptions } from 'playwright-core';
import UPNG from 'upng-js';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'docs', 'images');
const DATA = join(ROOT, '..', 'shared', 'data');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'screenshots only, thrown away';

/** Where the visitor stands in each region, and what they look for. */
const REGIONS = [
  {
    name: 'monaco',
    extract: 'monaco-2021-04-21.osm.pbf',
    at: { latitude: 43.7347, longitude: 7.4206 },
    categories: 'restaurant',
    timezoneId: 'Europe/Monaco',
  },
  {
    name: 'andorra',
    extract: 'andorra-2021-04-14.osm.pbf',
    at: { latitude: 42.5075, longitude: 1.5218 },
    categories: 'restaurant,pharmacy,supermarket',
    timezoneId: 'Europe/Andorra',
  },
  {
    name: 'vancouver',
    extract: 'vancouver_canada-2015.osm.pbf',
    at: { latitude: 49.2827, longitude: -123.1207 },
    categories: 'pharmacy,bank,supermarket',
    timezoneId: 'America/Vancouver',
  },
] as const;
const LANGUAGES = ['en', 'es'] as const;
const DEVICES: Record<'desktop' | 'phone', BrowserContextOptions> = {
  desktop: { viewport: { width: 1366, height: 900 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

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
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not answer /healthz within 30 s');
}

/** A screenshot of the site is mostly a few flat colours: 256 of them keep it sharp at a third of the size. */
function shrink(path: string): void {
  const png = readFileSync(path);
  const image = UPNG.decode(png.buffer.slice(png.byteOffset, png.byteOffset + png.byteLength));
  writeFileSync(path, Buffer.from(UPNG.encode(UPNG.toRGBA8(image), image.width, image.height, 256)));
}

async function main(): Promise<void> {
  const extracts = REGIONS.map((region) => join(DATA, region.extract));
  for (const [path, fix] of [
    [join(ROOT, 'dist', 'server', 'main.js'), 'run `npm run build` first'],
    ...extracts.map((file) => [file, 'the extracts are read from ../shared/data']),
    [CHROMIUM, 'install Chromium (`apt-get install chromium`) or set CHROMIUM_PATH'],
  ]) {
    if (!existsSync(path)) throw new Error(`${path} is missing: ${fix}`);
  }
  const work = mkdtempSync(join(tmpdir(), 'screenshots-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite:${join(work, 'app.db')}`,
    UPLOAD_DIR: join(work, 'uploads'),
    TILES_FILE: join(work, 'tiles.mbtiles'),
    PORT: String(port),
    HOST: '127.0.0.1',
    ADMIN_PASSWORD: PASSWORD,
    OVERPASS_URL: 'off',
    LOG_LEVEL: 'warn',
    RATE_LIMIT: 'off',
  };
  const imported = spawnSync('npx', ['tsx', 'scripts/import.ts', ...extracts], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (imported.status !== 0) throw new Error('the import failed');
  const tiles = spawnSync('npx', ['tsx', 'scripts/tiles.ts', ...extracts], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (tiles.status !== 0) throw new Error('the map tiles could not be built (npm run tiles)');
  const server = spawn(process.execPath, ['--max-semi-space-size=4', join(ROOT, 'dist', 'server', 'main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const written: string[] = [];
  try {
    await waitForHealth(base, server);
    mkdirSync(OUT, { recursive: true });

    for (const region of REGIONS) {
      for (const lang of LANGUAGES) {
        for (const [device, options] of Object.entries(DEVICES)) {
          const context = await browser.newContext({
            ...options,
            locale: lang,
            timezoneId: region.timezoneId,
            geolocation: region.at,
            permissions: ['geolocation'],
          });
          await context.route('**/*', (route) =>
            route.request().url().startsWith(base) ? route.continue() : route.abort('blockedbyclient'),
          );
          const page = await context.newPage();
          // A "near me" link: the search runs around the visitor once the browser gives the position.
          await page.goto(`${base}/?c=${region.categories}`);
          await page
            .locator('.result-card')
            .first()
            .waitFor({ timeout: 30_000 })
            .catch(async (error) => {
              console.error(await page.locator('body').innerText());
              throw error;
            });
          // The flight framed the numbered pins; the own map's tiles are drawn on canvases as they arrive.
          await page.locator('.leaflet-marker-icon.place-pin').first().waitFor();
          await page.locator('.leaflet-tile-loaded').first().waitFor({ timeout: 30_000 });
          await page.waitForTimeout(2500);
          const path = join(OUT, `locator-${region.name}-${lang}-${device}.png`);
          await page.screenshot({ path });
          shrink(path);
          written.push(path);
          await context.close();
        }
      }
    }

    // A few more searches, so the dashboard's statistics have something to show.
    for (const c of ['pharmacy', 'bank', 'atm', 'restaurant'])
      await fetch(`${base}/api/places?active_categories=${c}&lat=43.7347&lon=7.4206`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, locale: 'en' });
    await context.route('**/*', (route) =>
      route.request().url().startsWith(base) ? route.continue() : route.abort('blockedbyclient'),
    );
    const page = await context.newPage();
    await page.goto(`${base}/admin`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByTestId('searches-chart').waitFor();
    await page.getByTestId('search-stats').locator('.admin-top-categories li').first().waitFor();
    // From the top down to the end of the statistics (the charts), not the footer.
    const stats = (await page.getByTestId('search-stats').boundingBox())!;
    const dashboard = join(OUT, 'dashboard.png');
    await page.screenshot({
      path: dashboard,
      fullPage: true,
      clip: { x: 0, y: 0, width: 1280, height: Math.ceil(stats.y + stats.height + 24) },
    });
    shrink(dashboard);
    written.push(dashboard);
    for (const path of written) console.log(`Written: ${path} (${Math.round(statSync(path).size / 1024)} KB)`);
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
