// The cost of a login with the chosen argon2id parameters (m=19456 KiB, t=2, p=1): the hash,
// the verify, and a whole POST /api/admin/login through the app, as medians.
import { hashPassword, HASH_OPTIONS, verifyPassword } from '../src/auth/passwords.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../db/index.js';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const ADMIN_PASSWORD = 'correct horse battery staple';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function time(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return Math.round(median(samples) * 10) / 10;
}

/** The whole site on a fresh SQLite file, with the production argon2 settings. */
async function site() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-login-'));
  const config = {
    ...loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'app.db')}`,
      ADMIN_PASSWORD,
      OVERPASS_URL: 'off',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'silent',
      UPLOAD_DIR: join(dir, 'uploads'),
      TILES_FILE: join(dir, 'tiles.mbtiles'),
    }),
    dataDir: dir,
  };
  const handle = createDb(config.database);
  const app = await createApp({ config, handle, webRoot: join(dir, 'no-web'), announce: () => {}, logger: false });
  await app.ready();
  const headers = { origin: config.publicOrigins[0], 'sec-fetch-site': 'same-origin' };
  return {
    async login() {
      const payload = { username: config.adminUsername, password: ADMIN_PASSWORD };
      const response = await app.inject({ method: 'POST', url: '/api/admin/login', headers, payload });
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
    },
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function run() {
  const hash = await hashPassword(ADMIN_PASSWORD);
  const t = await site();
  try {
    const result = {
      argon2id: `m=${HASH_OPTIONS.memoryCost} KiB, t=${HASH_OPTIONS.timeCost}, p=${HASH_OPTIONS.parallelism}`,
      hash_ms_p50: await time(15, () => hashPassword(ADMIN_PASSWORD)),
      verify_ms_p50: await time(15, () => verifyPassword(hash, ADMIN_PASSWORD)),
      login_request_ms_p50: await time(15, () => t.login()),
    };
    console.log(
      `login: argon2id ${result.argon2id}: hash ${result.hash_ms_p50} ms, verify ${result.verify_ms_p50} ms, ` +
        `whole POST /api/admin/login ${result.login_request_ms_p50} ms (medians of 15)`,
    );
    return result;
  } finally {
    await t.close();
  }
}
