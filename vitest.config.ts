import { defineConfig } from 'vitest/config';
import { postgresUnavailableReason } from './support/postgres-cluster.js';

// Two passes over one suite: everything on SQLite, and the API, procedure, places and
// multi-process tests again on a real PostgreSQL server (test/support/postgres-setup.ts).
const noPostgres = postgresUnavailableReason();
if (noPostgres) {
  if (process.env.REQUIRE_POSTGRES === '1') throw new Error(`REQUIRE_POSTGRES=1 but ${noPostgres}`);
  process.stdout.write(`\n${noPostgres}\n\n`);
}

export default defineConfig({
  test: {
    globalSetup: ['test/support/build-server.ts', 'test/e2e/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Browser tests share one Chromium per file; files run two at a time on this 2-core machine.
    maxWorkers: 2,
    projects: [
      // (`include` is per project: with `extends`, a root list would be added to the postgres one)
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['test/postgres/**'] } },
      ...(noPostgres
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'postgres',
                include: ['test/{api,procedures,places,pages,cluster,reliability}/**/*.test.ts', 'test/postgres/**/*.test.ts'],
                env: { TEST_DB: 'postgres' },
                globalSetup: ['test/support/postgres-setup.ts'],
              },
            },
          ]),
    ],
  },
});
