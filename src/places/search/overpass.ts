// The live source: the Overpass API, used politely (https://dev.overpass-api.de/overpass-doc/en/
// preface/commons.html): a User-Agent that names the site, one request at a time (across
// processes and nodes too, with a lease in the database), a timeout, and on 429/503/504 a wait
// of at least what the server asks before at most two retries. After giving up it pauses, so a
// busy server is not asked again at once.
import { CATEGORIES, type TagFilter } from '../model/categories.js';
import type { CategoryId } from '../model/category-ids.js';
import { LeaseTimeout } from '../../shared/leases.js';

export class OverpassUnavailable extends Error {
  override name = 'OverpassUnavailable';
}

export interface OverpassOptions {
  url: string;
  userAgent: string;
  /** Per request, reading the answer included */
  timeoutMs?: number;
  maxRetries?: number;
  /** First wait when the server gives no Retry-After; doubles each retry */
  baseBackoffMs?: number;
  /** A server asking for a longer wait than this is not waited for: the search fails now */
  maxWaitMs?: number;
  /** How long to leave the server alone after giving up (or what it asked, if longer) */
  pauseAfterFailureMs?: number;
  /** The app's clock (ms), for the pause */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Takes the turn across processes and nodes too (a lease in the shared database), around the
   * in-process queue's; it rejects with LeaseTimeout when the turn does not come in time.
   */
  lock?: <T>(task: () => Promise<T>) => Promise<T>;
}

const RETRY_STATUSES = new Set([429, 503, 504]);

/** Overpass QL string literal. */
const quote = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const oneOf = (key: string, values: readonly string[], negate = false) =>
  values.length === 1 && !negate
    ? `[${quote(key)}=${quote(values[0])}]`
    : `[${quote(key)}${negate ? '!~' : '~'}${quote(`^(${values.map(escapeRegex).join('|')})$`)}]`;

function filterSelector(f: TagFilter): string {
  let selector = f.values ? oneOf(f.key, f.values) : `[${quote(f.key)}]`;
  if (!f.values && f.except?.length) selector += oneOf(f.key, f.except, true);
  for (const [key, values] of Object.entries(f.and ?? {})) selector += oneOf(key, values);
  // `!~` also keeps objects without the key, as the category table means
  for (const [key, values] of Object.entries(f.not ?? {})) selector += oneOf(key, values, true);
  return selector;
}

/** One query for all the categories: the union of their tag filters around a point. */
export function buildQuery(
  lat: number,
  lon: number,
  radiusM: number,
  categories: readonly CategoryId[],
  timeoutSeconds = 15,
): string {
  const around = `(around:${Math.round(radiusM)},${lat.toFixed(6)},${lon.toFixed(6)})`;
  const statements = new Set<string>();
  for (const category of CATEGORIES) {
    if (!categories.includes(category.id)) continue;
    for (const f of category.filters) statements.add(`nwr${filterSelector(f)}${around};`);
  }
  return `[out:json][timeout:${timeoutSeconds}];\n(\n${[...statements].map((s) => `  ${s}`).join('\n')}\n);\nout center;`;
}

/** Retry-After in ms: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/** The queue's end, shared by every client: one Overpass request per process, however many apps. */
let tail: Promise<unknown> = Promise.resolve();

export class OverpassClient {
  private pausedUntil = 0;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly baseBackoffMs: number;
  private readonly maxWaitMs: number;
  private readonly pauseAfterFailureMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Requests sent, for the logs and tests */
  requests = 0;

  constructor(readonly options: OverpassOptions) {
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.baseBackoffMs = options.baseBackoffMs ?? 1000;
    this.maxWaitMs = options.maxWaitMs ?? 10_000;
    this.pauseAfterFailureMs = options.pauseAfterFailureMs ?? 30_000;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Runs tasks one after another: at most one Overpass request per process at any time, and with
   * `lock`, at most one for the whole site. Within a process the queue comes first, so only one
   * task at a time waits for the shared lock.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    const { lock } = this.options;
    const turn = lock
      ? () =>
          lock(task).catch((error: unknown) => {
            throw error instanceof LeaseTimeout
              ? new OverpassUnavailable('another server process kept the turn too long')
              : error;
          })
      : task;
    const result = tail.then(turn, turn);
    tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /**
   * Sends one query and returns the parsed JSON; retries on 429/503/504. Call it inside
   * exclusive(): the wait between retries keeps the turn, so nobody else asks meanwhile.
   */
  async request(query: string): Promise<unknown> {
    if (this.now() < this.pausedUntil) {
      throw new OverpassUnavailable(`paused for ${Math.ceil((this.pausedUntil - this.now()) / 1000)} s after failures`);
    }
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      this.requests++;
      try {
        response = await fetch(this.options.url, {
          method: 'POST',
          headers: {
            'user-agent': this.options.userAgent,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: new URLSearchParams({ data: query }).toString(),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        if (response.ok) return await this.readJson(response);
      } catch (error) {
        this.pause(0);
        throw error instanceof OverpassUnavailable
          ? error
          : new OverpassUnavailable(describeFetchError(error, this.timeoutMs));
      }
      await response.body?.cancel().catch(() => {});
      if (!RETRY_STATUSES.has(response.status)) {
        this.pause(0);
        throw new OverpassUnavailable(`HTTP ${response.status}`);
      }
      const asked = parseRetryAfter(response.headers.get('retry-after'), this.now());
      const wait = Math.max(asked ?? 0, this.baseBackoffMs * 2 ** attempt);
      if (attempt >= this.maxRetries || wait > this.maxWaitMs) {
        this.pause(asked ?? 0);
        throw new OverpassUnavailable(`HTTP ${response.status} after ${attempt + 1} attempt${attempt ? 's' : ''}`);
      }
      await this.sleep(wait);
    }
  }

  private async readJson(response: Response): Promise<unknown> {
    let data: unknown;
    try {
      data = await response.json();
    } catch (error) {
      if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError') throw error;
      throw new OverpassUnavailable('the answer is not JSON');
    }
    // Overpass answers 200 with a "remark" when the query ran out of time or memory.
    const remark = (data as { remark?: unknown }).remark;
    if (typeof remark === 'string' && /error/i.test(remark)) throw new OverpassUnavailable(`server error: ${remark}`);
    if (!Array.isArray((data as { elements?: unknown }).elements))
      throw new OverpassUnavailable('the answer has no elements');
    return data;
  }

  private pause(askedMs: number): void {
    this.pausedUntil = this.now() + Math.max(askedMs, this.pauseAfterFailureMs);
  }
}

function describeFetchError(error: unknown, timeoutMs: number): string {
  const e = error as Error & { cause?: { code?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  return `cannot connect (${e.cause?.code ?? e.message})`;
}
