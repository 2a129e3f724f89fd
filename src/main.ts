// The server: read the settings, build the app, listen; close cleanly on SIGTERM/SIGINT.
// With WEB_CONCURRENCY=N (N > 1) this process becomes a primary (node:cluster) that prepares the
// database once and runs N worker processes listening on the one port; everything they must
// agree on (sessions, limits, settings, leases) lives in the database.
import cluster, { type Worker } from 'node:cluster';
import v8 from 'node:v8';
import pino from 'pino';
import { checkDb, createDb, migrate } from '../db/index.js';
import { createApp } from './app.js';
import { ensureFirstAdmin } from './auth/first-admin.js';
import { ConfigError, loadConfig, loadDotEnv, type Config } from './config.js';

// Memory: after a full garbage collection V8 lets the old generation grow to up to 4 times what
// survived it; at 50% it stays near what is live, for a little more CPU a search (figures in
// docs/performance.md). Set here, at run time, because V8 reads this flag at every collection: it
// holds however the process was started (npm start, the benchmark, tests, cluster workers). Flags
// read only at start-up (V8's heap sizes, glibc's malloc settings) are in src/launch.ts.
v8.setFlagsFromString('--heap-growing-percent=50');

/** How long requests in flight get to finish after SIGTERM before a process gives up on them. */
const SHUTDOWN_GRACE_MS = 10_000;
/** Connections waiting to be accepted (see listen below). */
const LISTEN_BACKLOG = 4096;

async function main(): Promise<void> {
  let config;
  try {
    loadDotEnv();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  if (config.webConcurrency > 1 && cluster.isPrimary) await runPrimary(config);
  else await runServer(config);
}

/** One server process: the whole site when WEB_CONCURRENCY=1, else one of the workers. */
async function runServer(config: Readonly<Config>): Promise<void> {
  const handle = createDb(config.database, { poolSize: config.databasePool });
  await checkDb(handle);
  const app = await createApp({ config, handle });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests');
    // close() stops accepting, waits for requests in flight, then closes the database (onClose).
    const force = setTimeout(() => {
      app.log.error(`requests still open after ${SHUTDOWN_GRACE_MS / 1000} s; exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // The kernel's queue of connections not yet taken: Linux's own most (somaxconn), not Node's 511.
  // Node takes one connection from it per turn of the event loop, and a turn under a crowd lasts
  // a few hundred ms, so a crowd keeps a short queue full; a full queue drops a new connection's
  // SYN, and the client's TCP tries again only after a second. With 128, /healthz right after
  // 1,000 connections took 1.0 s one time in three (the retry), 0.2 s otherwise; with 511 to
  // 4,096, within 0.25 s in all 11 runs. Connections whose clients left while queued cost little:
  // for RECOVERY_MS after a crowd they are turned away unanswered (load-shedding.ts).
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
}

/**
 * The primary of WEB_CONCURRENCY > 1: checks and migrates the database and creates the first
 * administrator once (so workers starting together never race for it), then keeps N workers
 * running. Log lines carry the pid of the process that wrote them; the primary's lines say
 * which worker number each pid is.
 */
async function runPrimary(config: Readonly<Config>): Promise<void> {
  const log = pino({ level: config.logLevel, base: { pid: process.pid, role: 'primary' } });
  const handle = createDb(config.database, { poolSize: 1 });
  try {
    await checkDb(handle);
    await migrate(handle);
    await ensureFirstAdmin(handle.db, config, log);
  } finally {
    await handle.close();
  }

  const count = config.webConcurrency;
  const workers = new Map<number, { worker: Worker; startedAt: number }>();
  const crashes = new Array<number>(count).fill(0);
  const restarts = new Set<NodeJS.Timeout>();
  let everListening = false;
  let stopping = false;
  let failedShutdown = false;

  const fork = (slot: number) => {
    const worker = cluster.fork();
    workers.set(slot, { worker, startedAt: Date.now() });
    worker.on('listening', () => {
      everListening = true;
      log.info(
        { worker: slot + 1, workerPid: worker.process.pid },
        `worker ${slot + 1} listening (pid ${worker.process.pid})`,
      );
    });
    worker.on('exit', (code, signal) => {
      const started = workers.get(slot)?.startedAt ?? Date.now();
      workers.delete(slot);
      if (stopping) {
        if (code !== 0) failedShutdown = true;
        if (workers.size === 0) {
          log.info('all workers stopped; exiting');
          process.exit(failedShutdown ? 1 : 0);
        }
        return;
      }
      if (!everListening) {
        // Not a crash of a running site but a start that cannot work (the port is taken, the
        // database refuses): say so and stop, rather than try again for ever.
        log.error({ worker: slot + 1, code, signal }, `worker ${slot + 1} could not start; stopping`);
        stop('start-up failure', 1);
        return;
      }
      // Back-off: 1 s, 2 s, 4 s ... 30 s for a worker that keeps crashing; a worker that ran for
      // a minute starts the count again.
      if (Date.now() - started > 60_000) crashes[slot] = 0;
      const delay = Math.min(30_000, 1000 * 2 ** crashes[slot]);
      crashes[slot]++;
      log.error(
        { worker: slot + 1, workerPid: worker.process.pid, code, signal },
        `worker ${slot + 1} (pid ${worker.process.pid}) exited; restarting in ${delay / 1000} s`,
      );
      const timer = setTimeout(() => {
        restarts.delete(timer);
        if (!stopping) fork(slot);
      }, delay);
      restarts.add(timer);
    });
  };

  const stop = (reason: string, exitCode = 0) => {
    if (stopping) return;
    stopping = true;
    if (exitCode !== 0) failedShutdown = true;
    for (const timer of restarts) clearTimeout(timer);
    log.info({ reason }, `stopping ${workers.size} workers: they finish their requests first`);
    if (workers.size === 0) process.exit(exitCode);
    // Each worker closes as a single process does on SIGTERM: stop accepting, finish, exit 0.
    for (const { worker } of workers.values()) worker.process.kill('SIGTERM');
    const force = setTimeout(() => {
      log.error('workers still running after the grace period; killing them');
      for (const { worker } of workers.values()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + 5000);
    force.unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  log.info({ workers: count }, `starting ${count} workers on port ${config.port}`);
  for (let slot = 0; slot < count; slot++) fork(slot);
}

main().catch((error: unknown) => {
  process.stderr.write(`Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
