// Past capacity, a request is turned away at once (503 with Retry-After; the public page retries)
// instead of waiting in a queue without bound, where every visitor's answer would come too late
// and memory would grow with the queue. Two signs of being past capacity, per process: more
// requests being answered at once than `maxInFlight`, or an event loop running late by more than
// `maxEventLoopDelayMs` (the work already taken is more than the process keeps up with).
import type { FastifyInstance } from 'fastify';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface SheddingOptions {
  maxInFlight: number;
  maxEventLoopDelayMs: number;
  retryAfterSeconds: number;
}

export const DEFAULT_SHEDDING: SheddingOptions = { maxInFlight: 64, maxEventLoopDelayMs: 200, retryAfterSeconds: 2 };

/** Requests in flight below which a late event loop is not taken for overload. */
const MIN_QUEUE = 8;

/** Paths never turned away: the health check must tell the truth to the load balancer. */
const ALWAYS = new Set(['/healthz']);

export function shedLoad(app: FastifyInstance, options: SheddingOptions = DEFAULT_SHEDDING): void {
  let inFlight = 0;
  let late = false;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const check = setInterval(() => {
    late = delay.max / 1e6 > options.maxEventLoopDelayMs;
    delay.reset();
  }, 250);
  check.unref();
  app.addHook('onClose', (_app, done) => {
    clearInterval(check);
    delay.disable();
    done();
  });

  app.addHook('onRequest', (req, reply, done) => {
    if (ALWAYS.has(req.url)) return done();
    // A late loop with hardly anything in flight was one long task (an import, a collection), not
    // a queue: those requests are served.
    if (inFlight >= options.maxInFlight || (late && inFlight >= MIN_QUEUE)) {
      reply.code(503).header('Retry-After', String(options.retryAfterSeconds)).send({ error: 'Service temporarily unavailable' });
      return;
    }
    inFlight++;
    // 'close' comes once the answer is sent or the client went away, whichever happens.
    reply.raw.once('close', () => inFlight--);
    done();
  });
}
