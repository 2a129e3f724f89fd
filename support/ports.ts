import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

// A port asked of the kernel (listen on 0) and closed again can be taken by anything else that
// listens on 0 or connects before our server binds it: a test then talks to another test's server.
// So ports come from below the kernel's ephemeral range, which it never hands out by itself, in a
// block of their own for each vitest worker (offset by the run, so two runs side by side differ) or
// other process, and never twice from one process.

const BLOCK = 1000;
const BLOCKS = 12;

function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 32_768;
  }
}

const low = Math.max(ephemeralLow(), 1024 + BLOCK * BLOCKS) - BLOCK * BLOCKS;
const pool = process.env.VITEST_POOL_ID;
const worker = pool === undefined ? process.pid : process.ppid + Number(pool);
const blockStart = low + (worker % BLOCKS) * BLOCK;
let next = 0;

function isFree(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A port nobody listens on right now (for a server whose origin must be known before it starts). */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < BLOCK; tries++) {
    const port = blockStart + (next++ % BLOCK);
    if (await isFree(port)) return port;
  }
  throw new Error(`no free port in ${blockStart}-${blockStart + BLOCK - 1}`);
}
