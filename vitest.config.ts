import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Browser tests share one Chromium per file; files run two at a time on this 2-core machine.
    maxWorkers: 2,
  },
});
