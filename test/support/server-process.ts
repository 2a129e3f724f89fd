// A real server process, as `npm start` runs it (the bundle of src/main.ts that
// test/support/build-server.ts builds), for tests over real HTTP.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { LAUNCH_ARGS, LAUNCH_ENV } from '../../src/launch.js';
import { ADMIN_PASSWORD } from '../helpers.js';
import { freePort } from '../../support/ports.js';

export const ROOT = join(import.meta.dirname, '..', '..');
/**
 * The arguments for node that start the server as `npm start` does (source maps for readable
 * stacks); startServer also gives it npm start's environment (LAUNCH_ENV, src/launch.ts).
 */
export const SERVER_ARGS = ['--enable-source-maps', ...LAUNCH_ARGS, join(ROOT, 'dist', 'server', 'main.js')];

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  base: string;
  port: number;
  /** everything it printed so far */
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM, and its exit code */
  stop(): Promise<number | null>;
}

/**
 * Starts the server with quiet, test-friendly defaults under `env` (a variable given as undefined
 * is left out); resolves once /healthz answers.
 */
export async function startServer(
  env: Record<string, string | undefined>,
  options: { timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(process.execPath, SERVER_ARGS, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...LAUNCH_ENV,
      ADMIN_PASSWORD,
      OVERPASS_URL: 'off',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      ...env,
      PORT: String(port),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const base = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    child,
    base,
    port,
    output: () => output,
    exited,
    stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  await waitForHealthy(server, options.timeoutMs ?? 30_000);
  return server;
}

export async function waitForHealthy(
  server: Pick<ServerProcess, 'base' | 'child' | 'output'>,
  ms: number,
): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`server exited (${server.child.exitCode}): ${server.output()}`);
    const ok = await fetch(`${server.base}/healthz`, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() > until) throw new Error(`${server.base} not healthy after ${ms} ms: ${server.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Sends `count` requests at once and returns their statuses. Those the server turned away before
 * reading them (503 with Retry-After, src/load-shedding.ts: past what it takes on at once, or
 * when its loop stalls under a crowd) were never counted by anything: they go again together
 * after `pauseMs`, as clients do, until every one has another answer.
 */
export async function sendAllAnswered(
  count: number,
  send: (i: number) => Promise<number>,
  pauseMs = 2000,
): Promise<number[]> {
  const answered: number[] = [];
  for (let pending = count; pending > 0;) {
    const round = await Promise.all(Array.from({ length: pending }, (_, i) => send(i)));
    answered.push(...round.filter((status) => status !== 503));
    pending = round.filter((status) => status === 503).length;
    if (pending > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return answered;
}
