// Past capacity the server turns requests away (503 with Retry-After) instead of queueing without
// bound, and clients that never finish their headers cannot hold it (issue 10, point 5: the
// thousand-connection figures are for the benchmark, once the search is fast enough).
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { TIMEOUTS } from '../../../src/app.js';
import { MIN_ARRIVALS } from '../../../src/load-shedding.js';
import { buildTestApp, type TestApp } from '../../helpers.js';

/**
 * A test app on a loopback port, for the describe block it is called in: closed after it, with
 * every socket its tests put in `sockets`.
 */
function listeningApp() {
  const sockets: Socket[] = [];
  let app: TestApp | undefined;
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await app?.close();
  });
  return {
    sockets,
    async start(options: Parameters<typeof buildTestApp>[0]): Promise<{ t: TestApp; port: number }> {
      app = await buildTestApp(options);
      await app.app.listen({ host: '127.0.0.1', port: 0 });
      return { t: app, port: (app.app.server.address() as AddressInfo).port };
    },
  };
}

/** One request held in flight: a contact message whose body is still on its way, until released. */
async function holdRequest(port: number, origin: string, sockets: Socket[]): Promise<{ release(): Promise<string> }> {
  const held = connect(port, '127.0.0.1');
  sockets.push(held);
  const body = JSON.stringify({ name: 'Ana', email: 'ana@example.org', subject: 'Hello', body: 'A message' });
  await new Promise<void>((resolve) => held.on('connect', resolve));
  held.write(
    `POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${origin}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  const answer = new Promise<string>((resolve) => held.once('data', (chunk) => resolve(String(chunk))));
  await new Promise((r) => setTimeout(r, 200));
  return {
    async release() {
      held.write(body.slice(10));
      const text = await answer;
      held.destroy();
      return text;
    },
  };
}

const visitsOf = async (t: TestApp) =>
  Number((await t.handle.db.selectFrom('visit_counters').select('total_visits').executeTakeFirst())?.total_visits ?? 0);

/** A visit sent with the connection's end: the client will not read the answer. What came back. */
function hungUpVisit(port: number, origin: string): Promise<string> {
  return new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.end(
        `POST /api/visit HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${origin}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
      ),
    );
    let text = '';
    socket.on('data', (chunk) => (text += String(chunk)));
    socket.on('error', () => {});
    socket.on('close', () => resolve(text));
  });
}

/**
 * After a crowd: a visit whose client hung up is turned away, not counted; a whole one is
 * answered and counted, so the count goes from `visitsBefore` to one more.
 */
async function expectOnlyTheWholeVisitCounted(t: TestApp, port: number, origin: string, visitsBefore: number) {
  expect(await hungUpVisit(port, origin)).not.toMatch(/^HTTP\/1\.1 200/); // closed at once, or a 503 if it could still be written
  const whole = await fetch(`http://127.0.0.1:${port}/api/visit`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(whole.status).toBe(200);
  await new Promise((r) => setTimeout(r, 300)); // time for a write that should not happen
  expect(await visitsOf(t)).toBe(visitsBefore + 1); // the whole one only
}

/** Turns a crowd away soon: a burst may wait 3 x 5 ms past the loop's 10 ms timer. */
const CROWD_SHEDDING = { maxInFlight: 1000, maxEventLoopDelayMs: 5, retryAfterSeconds: 2 };
/** Turns away past one request in flight; no turn of the loop is ever late enough to be a crowd. */
const ONE_IN_FLIGHT = { maxInFlight: 1, maxEventLoopDelayMs: 10_000, retryAfterSeconds: 2 };

describe('past capacity', () => {
  const server = listeningApp();

  it('turns requests away at once with 503 and Retry-After, keeps /healthz answering, and takes them again when there is room', async () => {
    const { t, port } = await server.start({ shedding: ONE_IN_FLIGHT });
    const base = `http://127.0.0.1:${port}`;
    const origin = { origin: t.config.publicOrigins[0], 'content-type': 'application/json' };
    const held = await holdRequest(port, origin.origin, server.sockets);

    // Turned away while the held request is still held: it did not wait for room.
    const refused = await fetch(`${base}/api/plans`, { signal: AbortSignal.timeout(5000) });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(refused.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await refused.json()).toEqual({ error: 'Service temporarily unavailable' });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);

    expect(await held.release()).toMatch(/^HTTP\/1\.1 200/);
    expect((await fetch(`${base}/api/plans`)).status).toBe(200);
    expect((await fetch(`${base}/api/plans`)).status).toBe(200); // the held one left no count behind
  });
});

/** How long the first request of a crowd holds up the turn that reads the crowd. */
const STALL_MS = 100;

/**
 * `crowd` requests for the settings over raw sockets, all connected first, then written in one go,
 * each straight into the kernel, so that the server reads them all in one turn. Their answers.
 * A fast machine reads 200 small requests well within a burst's limit (a CI run on PostgreSQL,
 * whose settings read waits for the server, turned none away), so the first request of the turn
 * stalls it, as a slow search would: the turn is overlong on any machine.
 */
async function sendCrowd(t: TestApp, port: number, sockets: Socket[], crowd: number): Promise<string[]> {
  const mine: Socket[] = [];
  const answers: Promise<string>[] = [];
  await Promise.all(
    Array.from(
      { length: crowd },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', resolve);
          socket.once('error', reject);
          mine.push(socket);
          let text = '';
          answers.push(
            new Promise((done) =>
              socket.on('data', (chunk) => (text += String(chunk)) && /\r\n\r\n[\s\S]*\}/.test(text) && done(text)),
            ),
          );
        }),
    ),
  );
  sockets.push(...mine);
  const connections = () => new Promise<number>((resolve) => t.app.server.getConnections((_e, n) => resolve(n)));
  while ((await connections()) < crowd) await new Promise((r) => setTimeout(r, 10));
  let stalled = false;
  const stall = () => {
    if (stalled) return;
    stalled = true;
    for (const until = performance.now() + STALL_MS; performance.now() < until;);
  };
  t.app.server.prependListener('request', stall);
  try {
    for (const socket of mine) socket.write('GET /api/settings HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    return await Promise.all(answers);
  } finally {
    t.app.server.off('request', stall);
  }
}

describe('a crowd read in one turn of the event loop', () => {
  const server = listeningApp();

  it('answers the first requests, turns the rest of an overlong turn away at once, and takes all of them one by one', async () => {
    // 200 requests read in one turn that the first one stalls: longer than a burst may wait.
    const { t, port } = await server.start({ shedding: CROWD_SHEDDING });
    const crowd = 200;
    const texts = await sendCrowd(t, port, server.sockets, crowd);
    const status = (text: string) => Number(text.slice(9, 12));
    const answered = texts.filter((text) => status(text) === 200).length;
    const refused = texts.filter((text) => status(text) === 503);
    expect(answered + refused.length).toBe(crowd);
    expect(answered).toBeGreaterThanOrEqual(MIN_ARRIVALS);
    expect(refused.length).toBeGreaterThan(0);
    for (const text of refused) {
      expect(text).toMatch(/\r\nretry-after: 2\r\n/i);
      expect(text).toContain('{"error":"Service temporarily unavailable"}');
    }

    // The same requests one after another, each read in a turn of its own: none is turned away,
    // however busy the machine.
    for (let i = 0; i < crowd; i++) expect((await fetch(`http://127.0.0.1:${port}/api/settings`)).status).toBe(200);
  });
});

describe('after a crowd', () => {
  const server = listeningApp();

  it('a request whose client hung up with it is turned away, not worked for; a whole one is answered', async () => {
    const { t, port } = await server.start({ shedding: CROWD_SHEDDING });
    const origin = t.config.publicOrigins[0]!;

    // In quiet times it is worked for like any other (answered too where the work is done before
    // the hang-up is read, as on SQLite; Node closes a half-closed socket once it reads the end).
    await hungUpVisit(port, origin);
    await expect.poll(() => visitsOf(t)).toBe(1);

    const texts = await sendCrowd(t, port, server.sockets, 200);
    expect(texts.some((text) => text.startsWith('HTTP/1.1 503'))).toBe(true);
    await expectOnlyTheWholeVisitCounted(t, port, origin, 1);
  });
});

describe('after requests turned away for the in-flight bound (a quick loop, as on PostgreSQL)', () => {
  const server = listeningApp();

  it('a request whose client hung up with it is turned away, not worked for; a whole one is answered', async () => {
    const { t, port } = await server.start({ shedding: ONE_IN_FLIGHT });
    const origin = t.config.publicOrigins[0]!;
    const held = await holdRequest(port, origin, server.sockets);
    expect((await fetch(`http://127.0.0.1:${port}/api/plans`)).status).toBe(503);
    expect(await held.release()).toMatch(/^HTTP\/1\.1 200/);

    await expectOnlyTheWholeVisitCounted(t, port, origin, 0);
  });
});

describe('clients that never finish their headers', () => {
  const server = listeningApp();

  it('the timeouts are the ones the README gives', () => {
    expect(TIMEOUTS).toEqual({
      headersMs: 10_000,
      requestMs: 300_000,
      idleMs: 60_000,
      keepAliveMs: 5_000,
      checkEveryMs: 1_000,
    });
  });

  it('a thousand of them do not stop others, and are cut off once the headers timeout passes', async () => {
    // the production settings but a 4 s headers timeout, so the test need not wait 10 s
    const { port } = await server.start({ timeouts: { headersMs: 4000, checkEveryMs: 250 } });
    let closed = 0;
    const opened = Date.now();
    await Promise.all(
      Array.from(
        { length: 1000 },
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = connect(port, '127.0.0.1', () => {
              socket.write('GET /api/settings HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '); // and never the rest
              resolve();
            });
            socket.on('error', () => {});
            socket.on('close', () => closed++);
            socket.resume(); // read what the server sends, so that its hang-up is seen
            socket.once('error', reject);
            server.sockets.push(socket);
          }),
      ),
    );
    // Answered while all thousand still hold their connections, not after they were cut off. (The
    // bound is loose on purpose: CI machines are shared; the figure is the benchmark's.)
    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/settings`, { signal: AbortSignal.timeout(5000) });
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(closed).toBe(0);
    while (closed < 1000 && Date.now() - opened < 20_000) await new Promise((r) => setTimeout(r, 100));
    expect(closed).toBe(1000);
    expect(Date.now() - opened).toBeGreaterThanOrEqual(3900);
  }, 60_000);
});
