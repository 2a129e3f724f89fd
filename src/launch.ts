// How the built server is started, beyond `node dist/server/main.js`: settings that V8 and the C
// library read only when a process starts, so the server cannot set them on itself (issue 10: at
// most 150 MB resident under load). `npm start` passes them (package.json, checked by
// test/server/process.test.ts); whatever else starts dist/server/main.js passes them too (the
// tests' server-process.ts, the benchmark); WEB_CONCURRENCY workers inherit them from their
// primary (node:cluster forks with its execArgv and environment). The old generation's growth,
// which V8 reads at run time, is set in main.ts and holds however the process was started.
//
// Measured under 50 connections of searches, with main.ts's old-generation setting:
// - --max-semi-space-size=4: V8's young generation stops at 2 x 4 MB instead of 2 x 16 MB, and
//   the old generation keeps that much less room for promotions: ~30 MB less at the peak. It costs
//   ~5% of the searches per second (8 MB: 0-3%, but 157 MB instead of 145 MB resident with a
//   million places, over issue 10's 150 MB; 2 MB: 136-140 MiB instead of 140-153 after the
//   benchmark's runs, but ~19% fewer 100-result searches a second on Vancouver).
// - Not passed: --optimize-for-size. 126-130 MiB instead of 141 with a million places, but 20-31%
//   fewer searches a second (README, "Benchmarks").
// - MALLOC_MMAP_THRESHOLD_=131072: glibc gives blocks over 128 KiB mappings of their own, given
//   back to the system when freed. By default the threshold climbs to 32 MB at the first such
//   free, and from then on big typed arrays freed by the garbage collector (the places index's
//   build) stay resident: ~45 MB more at the peak with a million places, 5-13 MB idle.
// - MALLOC_ARENA_MAX=2: V8's and libuv's threads share two malloc arenas, not one each (~5 MB).
// - NODE_ENV=production: React (external to the bundle, so read when it is first imported, before
//   any of the server's own code runs) renders pages with its production build. Its development
//   build checks every element and prop: a place page's first render cost ~5 ms of CPU, not ~1.
export const LAUNCH_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', NODE_ENV: 'production' };
export const LAUNCH_ARGS: readonly string[] = ['--max-semi-space-size=4'];
