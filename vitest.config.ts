import { defineConfig } from 'vitest/config';
import { postgresUnavailableReason } from './support/postgres-cluster.js';
import { SlowFirstSequencer } from './test/support/sequencer.js';

// Projects by tier, chosen by folder (test/README.md says which tier a test goes in):
// - unit: no database, server, socket, child process or written file;
// - integration: on SQLite; `postgres` runs its API, procedure, places and PostgreSQL-only tests
//   again on a real PostgreSQL server (test/support/postgres-setup.ts);
// - slow: browsers, the built web app, several processes, the batteries, map builds; `slow-postgres`
//   runs the pages, multi-process, battery and PostgreSQL-only ones again on PostgreSQL.
// `npm run test:quick` is `--project unit --project integration`; `npm test` runs them all.
// Every tier's files share their worker's loaded modules (isolate: false): loading the app's
// modules again for each file was a third of the unit and integration tiers' time and ~1.5 s of
// CPU a slow file. Such a test leaves nothing changed behind it (stubbed variables restored,
// servers, browsers and databases closed).
const noPostgres = postgresUnavailableReason();
if (noPostgres) {
  if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but ${noPostgres}`);
  process.stdout.write(`\n${noPostgres}\n\n`);
}

const BUILD_SERVER = 'test/support/build-server.ts';
const TEMPLATES = 'test/support/template-setup.ts';
const POSTGRES = 'test/support/postgres-setup.ts';
const BROWSER = 'test/slow/e2e/global-setup.ts';
const onPostgres = { TEST_DB: 'postgres' };

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two files at a time on this 2-core machine. Three saved 5% of a quiet run (603 s against
    // 637 s) but made timing-bound tests (the map's framing, PostgreSQL's notifications) fail
    // under the added contention.
    maxWorkers: 2,
    sequence: { sequencer: SlowFirstSequencer },
    // Logins cost a fraction of a millisecond instead of ~50 ms of argon2 (src/auth/passwords.ts);
    // the few tests about the hashing itself turn it off.
    env: { TEST_CHEAP_PASSWORD_HASH: '1' },
    // `include` is per project: with `extends`, a root list would be added to each project's.
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: ['test/integration/postgres/**'],
          isolate: false,
          globalSetup: [BUILD_SERVER, TEMPLATES],
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: ['test/slow/**/*.test.ts'],
          exclude: ['test/slow/postgres/**'],
          isolate: false,
          globalSetup: [BUILD_SERVER, TEMPLATES, BROWSER],
        },
      },
      ...(noPostgres
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['test/integration/{api,procedures,places,postgres}/**/*.test.ts'],
                isolate: false,
                env: onPostgres,
                globalSetup: [BUILD_SERVER, TEMPLATES, POSTGRES],
              },
            },
            {
              extends: true as const,
              test: {
                name: 'slow-postgres',
                // the embed's browser test too: its searches count against a key on either engine
                include: [
                  'test/slow/{cluster,pages,places,reliability,postgres}/**/*.test.ts',
                  'test/slow/e2e/embed.test.ts',
                ],
                // the reader's node arrays, imported into SQLite whatever the project: once is enough
                exclude: ['test/slow/places/import-ceiling.test.ts'],
                isolate: false,
                env: onPostgres,
                globalSetup: [BUILD_SERVER, TEMPLATES, POSTGRES, BROWSER],
              },
            },
          ]),
    ],
  },
});
