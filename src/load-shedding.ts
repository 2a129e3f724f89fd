// Past capacity, a request is turned away at once (503 with Retry-After; the public page retries)
// instead of waiting in a queue without bound, where every visitor's answer would come too late
// and memory would grow with the queue. Two signs of being past capacity, per process:
//  - more requests being answered at once than `maxInFlight` (slow answers piling up);
//  - requests waiting too long before they are read. A search on SQLite is answered within the
//    turn of the event loop that reads it, so a crowd is never "in flight": it waits in the
//    sockets, and one turn takes up every request that has arrived. A timer marks the loop's
//    free moments; a request read long after the mark was due has waited about that long. As in
//    CoDel, a burst may wait longer than a standing queue: a request is turned away when it has
//    waited more than BURST_FACTOR x `maxEventLoopDelayMs` in a turn after a quiet one, or more
//    than `maxEventLoopDelayMs` in a turn after a late, crowded one. Either way only past
//    MIN_ARRIVALS read in the same turn: one long task (an import's transaction) with hardly
//    anybody waiting is not overload, and requests that come one at a time never are.
// After a crowd, the kernel's queue of connections not yet taken still holds clients that gave up
// waiting; the loop takes them one a turn and would search for each. For RECOVERY_MS after a
// crowd (a crowded late turn, or any request turned away: on PostgreSQL the loop stays quick while
// the in-flight bound turns the crowd away), a request read in a quiet turn waits one more turn
// first: a client that hung up by then is turned away instead of worked for (as nginx's 499), so
// /healthz is not stuck behind them.
// Turning a request away costs a fraction of answering it, so the waiting requests drain fast,
// the loop comes round, and requests are taken again in the next turn.
import type { FastifyInstance, FastifyReply } from 'fastify';

export interface SheddingOptions {
  maxInFlight: number;
  maxEventLoopDelayMs: number;
  retryAfterSeconds: number;
}

export const DEFAULT_SHEDDING: SheddingOptions = { maxInFlight: 64, maxEventLoopDelayMs: 200, retryAfterSeconds: 2 };

/** Requests taken in a late turn before the rest of it is turned away. */
export const MIN_ARRIVALS = 8;
/** How much longer than a standing queue a burst after quiet turns may wait. */
export const BURST_FACTOR = 3;
const TICK_MS = 10;
/** How long after a crowded turn requests of quiet turns are checked for clients gone. */
export const RECOVERY_MS = 10_000;

/** Paths never turned away: the health check must tell the truth to the load balancer. */
const ALWAYS = new Set(['/healthz']);

export function shedLoad(app: FastifyInstance, options: SheddingOptions = DEFAULT_SHEDDING): void {
  let inFlight = 0;
  let lastTick = performance.now();
  /** how long past the timer's due time the loop is now */
  const lateness = () => performance.now() - lastTick - TICK_MS;
  /** requests read in this turn of the loop */
  let arrivals = 0;
  /** whether the last turn that read requests was a late one, with a crowd in it */
  let standing = false;
  let lastCrowdAt = -Infinity;
  // setImmediate runs after the poll phase that read this turn's requests: the turn's end.
  const endOfTurn = () => {
    standing = arrivals > MIN_ARRIVALS && lateness() > options.maxEventLoopDelayMs;
    if (standing) lastCrowdAt = performance.now();
    arrivals = 0;
  };
  const turnAway = (reply: FastifyReply) => {
    lastCrowdAt = performance.now();
    reply
      .code(503)
      .header('Retry-After', String(options.retryAfterSeconds))
      .send({ error: 'Service temporarily unavailable' });
  };
  const tick = setInterval(() => (lastTick = performance.now()), TICK_MS);
  tick.unref();
  app.addHook('onClose', (_app, done) => {
    clearInterval(tick);
    done();
  });

  app.addHook('onRequest', (req, reply, done) => {
    if (ALWAYS.has(req.url)) return done();
    if (arrivals++ === 0) setImmediate(endOfTurn);
    const tooLong = arrivals > MIN_ARRIVALS && lateness() > options.maxEventLoopDelayMs * (standing ? 1 : BURST_FACTOR);
    if (inFlight >= options.maxInFlight || tooLong) return void turnAway(reply);
    inFlight++;
    // 'close' comes once the answer is sent or the client went away, whichever happens.
    reply.raw.once('close', () => inFlight--);
    if (arrivals > MIN_ARRIVALS || performance.now() - lastCrowdAt > RECOVERY_MS) return done();
    // A hang-up sent with the request is read in the next turn's poll: look after it.
    const socket = req.raw.socket;
    setImmediate(() => setImmediate(() => (socket.readableEnded || socket.destroyed ? turnAway(reply) : done())));
  });
}
