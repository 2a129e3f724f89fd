// Behind a proxy (issue 27, point 1), over real HTTP: whose X-Forwarded-For is believed for each
// TRUST_PROXY setting, and every user of the visitor's address (the per-address limits, the login
// throttle, the access log) gets the visitor's, never an entry a client wrote itself.
import { networkInterfaces } from 'node:os';
import { PassThrough } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers.js';

let t: TestApp | undefined;
let origin = '';

afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The app with the per-address limits on, listening on every interface. */
async function serve(env: Record<string, string>, logStream?: NodeJS.WritableStream): Promise<void> {
  t = await buildTestApp({ env: { RATE_LIMIT: 'on', ...env }, logStream });
  await t.app.listen({ port: 0, host: '0.0.0.0' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

async function get(path: string, forwardedFor?: string, base = origin): Promise<number> {
  const reply = await fetch(`${base}${path}`, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
  await reply.arrayBuffer();
  return reply.status;
}

/** `count` requests with headers from `header(i)`, 20 at a time; the statuses in order. */
async function many(count: number, header: (i: number) => string | undefined, base = origin): Promise<number[]> {
  const statuses: number[] = [];
  for (let start = 0; start < count; start += 20) {
    const batch = Array.from({ length: Math.min(20, count - start) }, (_, k) =>
      get('/api/settings', header(start + k), base),
    );
    statuses.push(...(await Promise.all(batch)));
  }
  return statuses;
}

const visitor = (i: number) => `198.51.${Math.floor(i / 250)}.${i % 250}`;
const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, s) => ({ ...counts, [s]: (counts[s] ?? 0) + 1 }), {});

describe('TRUST_PROXY', () => {
  it('=1: 320 visitors behind one proxy each get their own count; entries a client wrote further left change nothing', async () => {
    await serve({ TRUST_PROXY: '1' });
    expect(tally(await many(320, visitor))).toEqual({ 200: 320 });
    // One visitor's 300, then refused, whatever it writes to the left of what the proxy saw.
    expect(tally(await many(300, () => '203.0.113.7'))).toEqual({ 200: 300 });
    expect(tally(await many(20, (i) => `10.0.0.${i}, 203.0.113.7`))).toEqual({ 429: 20 });
  });

  it('=2: the visitor is two from the right (a load balancer, then nginx)', async () => {
    await serve({ TRUST_PROXY: '2' });
    const loadBalancer = '10.1.0.5';
    expect(tally(await many(320, (i) => `${visitor(i)}, ${loadBalancer}`))).toEqual({ 200: 320 });
    expect(tally(await many(300, () => `203.0.113.8, ${loadBalancer}`))).toEqual({ 200: 300 });
    expect(tally(await many(20, (i) => `192.0.2.${i}, 203.0.113.8, ${loadBalancer}`))).toEqual({ 429: 20 });
  });

  it('=off: X-Forwarded-For is ignored, every request counts for the peer', async () => {
    await serve({ TRUST_PROXY: 'off' });
    expect(tally(await many(320, visitor))).toEqual({ 200: 300, 429: 20 });
  });

  it('=an address list: only those peers are believed', async () => {
    await serve({ TRUST_PROXY: '10.9.0.0/16' });
    expect(tally(await many(320, visitor))).toEqual({ 200: 300, 429: 20 });
  });

  describe('unset (the default: a proxy on the same machine)', () => {
    it('counts each visitor behind a local proxy apart', async () => {
      await serve({});
      expect(tally(await many(320, visitor))).toEqual({ 200: 320 });
    });

    it('ignores the header from a client that reaches the app from another address', async () => {
      // The machine's own address on a network interface: the peer is not loopback.
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((entry) => entry && !entry.internal && entry.family === 'IPv4');
      expect(outside, 'this test needs a network interface other than loopback').toBeDefined();
      await serve({});
      const base = origin.replace('127.0.0.1', outside!.address);
      expect(tally(await many(320, visitor, base))).toEqual({ 200: 300, 429: 20 });
    });
  });

  it('gives the login throttle and the access log the visitor behind the proxy', async () => {
    const log = new PassThrough();
    let lines = '';
    log.on('data', (chunk) => (lines += String(chunk)));
    await serve({ TRUST_PROXY: '1', LOG_LEVEL: 'info' }, log);
    const login = (forwardedFor: string) =>
      fetch(`${origin}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
        body: JSON.stringify({ username: `nobody${Math.random()}`, password: 'not the password at all' }),
      }).then((reply) => reply.status);
    // Ten failures from one visitor (the address's limit), then the eleventh is refused...
    for (let i = 0; i < 10; i++) expect(await login('203.0.113.20')).toBe(401);
    expect(await login('203.0.113.20')).toBe(429);
    // ...while another visitor behind the same proxy is not.
    expect(await login('203.0.113.21')).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const records = lines
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; ip?: string; url?: string });
    expect(records.filter((r) => r.msg === 'admin login failed').map((r) => r.ip)).toContain('203.0.113.21');
    const completed = records.filter((r) => r.msg === 'request completed' && r.url === '/api/admin/login');
    expect(completed.map((r) => r.ip)).toEqual([...new Array(11).fill('203.0.113.20'), '203.0.113.21']);
  });
});
