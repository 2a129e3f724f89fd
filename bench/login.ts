// The cost of a login with the chosen argon2id parameters (m=19456 KiB, t=2, p=1): the hash,
// the verify, and a whole POST /api/admin/login through the app, as medians.
import { hashPassword, HASH_OPTIONS, verifyPassword } from '../src/auth/passwords.js';
import { ADMIN_PASSWORD, buildTestApp } from '../test/helpers.js';

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

export async function run() {
  const hash = await hashPassword(ADMIN_PASSWORD);
  const t = await buildTestApp();
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
