// How the built server is started, beyond `node dist/server/main.js`: settings that V8 and the C
// library read only when a process starts, so the server cannot set them on itself; they keep a
// process's memory low under load. `npm start` passes them (package.json, checked by
// test/slow/server/process.test.ts); whatever else starts dist/server/main.js passes them too (the
// tests' server-process.ts, the benchmark); WEB_CONCURRENCY workers inherit them from their
// primary (node:cluster forks with its execArgv and environment). The old generation's growth,
// which V8 reads at run time, is set in main.ts and holds however the process was started.
// - --max-semi-space-size=4: a young generation of 2 x 4 MB instead of 2 x 16 MB, ~30 MB less at
//   the peak for ~5% of the searches a second.
// - MALLOC_MMAP_THRESHOLD_=131072: glibc gives blocks over 128 KiB mappings of their own, given
//   back to the system when freed (by default the threshold climbs to 32 MB, and big typed arrays
//   the collector freed, such as the grid's build, stay resident).
// - MALLOC_ARENA_MAX=2: V8's and libuv's threads share two malloc arenas, not one each.
// - NODE_ENV=production: React, external to the bundle, picks its build when first imported,
//   before any of the server's own code runs; its development build checked every element and
//   prop, twice the CPU of a page's first render.
// What each costs and saves, and what was measured and not taken: docs/performance.md.
export const LAUNCH_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  NODE_ENV: 'production',
};
export const LAUNCH_ARGS: readonly string[] = ['--max-semi-space-size=4'];
