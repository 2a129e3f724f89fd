// A replication feed read politely: a User-Agent naming the site, one request at a time, a
// timeout, a size cap, and on 429/5xx a wait (at least what the server asks) before a few
// retries. A 404 for a sequence the feed announced means the feed no longer keeps it.
import { gunzipSync } from 'node:zlib';
import { refusalIn, trustedFetch, type Fetcher } from '../../../net/outbound.js';
import { feedBase, parseState, sequencePath, type FeedState } from './state.js';

export class FeedError extends Error {
  override name = 'FeedError';
}

/** The feed no longer has a file we need (feeds keep a few months): only a re-import helps. */
export class FeedBehind extends FeedError {
  override name = 'FeedBehind';
}

export interface FeedOptions {
  userAgent: string;
  /** per request, the body included */
  timeoutMs?: number;
  maxRetries?: number;
  /** first wait without a Retry-After; doubles on each retry */
  baseBackoffMs?: number;
  /** a server asking for a longer wait than this is not waited for */
  maxWaitMs?: number;
  /** the largest file accepted (a day of a planet feed is about 100 MB gzipped) */
  maxBytes?: number;
  sleep?: (ms: number) => Promise<void>;
  /** how the feed is fetched: the outbound guard's client for a feed the operator did not give */
  fetch?: Fetcher;
}

const RETRY = (status: number) => status === 429 || status >= 500;

export class ReplicationFeed {
  readonly base: string;
  private readonly options: Required<FeedOptions>;
  /** one request at a time from this process */
  private queue: Promise<unknown> = Promise.resolve();
  /** requests made, for the summary and the tests */
  requests = 0;

  constructor(baseUrl: string, options: FeedOptions) {
    let url: URL;
    try {
      url = new URL(feedBase(baseUrl));
    } catch {
      throw new FeedError(`not a URL: ${baseUrl}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new FeedError(`a replication feed must be an http(s) URL: ${baseUrl}`);
    this.base = url.toString();
    this.options = {
      timeoutMs: 60_000,
      maxRetries: 4,
      baseBackoffMs: 2_000,
      maxWaitMs: 5 * 60_000,
      maxBytes: 512 * 1024 * 1024,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      fetch: trustedFetch,
      ...options,
    };
  }

  /** The newest complete sequence the feed announces. */
  async newest(): Promise<FeedState> {
    return this.readState('state.txt', 'the feed has no state.txt: is this a replication feed?');
  }

  /** The state after one sequence (its timestamp is the data's "as of" once it is applied). */
  async stateOf(sequence: number): Promise<FeedState> {
    const state = await this.readState(
      `${sequencePath(sequence)}.state.txt`,
      `the feed no longer has sequence ${sequence}`,
      true,
    );
    if (state.sequence !== sequence)
      throw new FeedError(`${sequencePath(sequence)}.state.txt names sequence ${state.sequence}`);
    return state;
  }

  /** A sequence's change file, unzipped and checked to be whole. */
  async changes(sequence: number): Promise<Buffer> {
    const path = `${sequencePath(sequence)}.osc.gz`;
    const body = await this.get(path, `the feed no longer has sequence ${sequence}`);
    try {
      return gunzipSync(body);
    } catch {
      throw new FeedError(`${path} is not a whole gzip file`);
    }
  }

  /**
   * The newest sequence whose state is not after `timestamp` (a binary search over the sequences'
   * state files). Sequences the feed no longer keeps count as too old; when even the oldest kept
   * one is after the data, the data is too old for this feed.
   */
  async sequenceAt(timestamp: string): Promise<number> {
    const target = Date.parse(timestamp);
    const newest = await this.newest();
    if (Date.parse(newest.timestamp) <= target) return newest.sequence;
    let low = 0; // a sequence known to be too old or gone (or 0)
    let high = newest.sequence; // a sequence known to be after the data
    let found: number | null = null;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      let time: number | null;
      try {
        time = Date.parse((await this.stateOf(middle)).timestamp);
      } catch (error) {
        if (!(error instanceof FeedBehind)) throw error;
        time = null; // gone: older than what the feed keeps
      }
      if (time === null) low = middle;
      else if (time <= target) {
        low = middle;
        found = middle;
      } else high = middle;
    }
    // the last sequence not after the data must itself be kept, or the changes right after it are lost
    if (found === null || found !== low)
      throw new FeedBehind(
        `the data (as of ${timestamp}) is older than anything ${this.base} keeps: re-import the source`,
      );
    return found;
  }

  private async readState(path: string, missing: string, behind = false): Promise<FeedState> {
    const body = await this.get(path, missing, behind);
    try {
      return parseState(body.toString('utf8'));
    } catch (error) {
      throw new FeedError(`${path}: ${(error as Error).message}`);
    }
  }

  private get(path: string, missing: string, behind = true): Promise<Buffer> {
    const run = this.queue.then(() => this.fetchWithRetries(new URL(path, this.base), missing, behind));
    this.queue = run.catch(() => {});
    return run;
  }

  private async fetchWithRetries(url: URL, missing: string, behind: boolean): Promise<Buffer> {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      this.requests++;
      try {
        response = await this.options.fetch(url, {
          headers: { 'user-agent': this.options.userAgent, accept: '*/*' },
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
      } catch (error) {
        // A refused address stays refused: no retry.
        const refused = refusalIn(error);
        if (refused) throw new FeedError(`${url.pathname}: ${refused.message}`);
        if (attempt >= this.options.maxRetries) throw new FeedError(`${url.pathname}: ${describeFetchError(error)}`);
        await this.options.sleep(this.options.baseBackoffMs * 2 ** attempt);
        continue;
      }
      if (response.ok) {
        try {
          return await this.readBody(response, url);
        } catch (error) {
          // A download cut short is tried again, like a refused connection.
          if (!(error instanceof BrokenDownload) || attempt >= this.options.maxRetries) throw error;
          await this.options.sleep(this.options.baseBackoffMs * 2 ** attempt);
          continue;
        }
      }
      await response.body?.cancel().catch(() => {});
      if (response.status === 404 || response.status === 410)
        throw behind ? new FeedBehind(`${missing}: re-import the source`) : new FeedError(missing);
      if (!RETRY(response.status) || attempt >= this.options.maxRetries) {
        throw new FeedError(
          `${url.pathname}: the feed answered ${response.status}${RETRY(response.status) ? ` after ${attempt + 1} tries` : ''}`,
        );
      }
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked !== null && asked > this.options.maxWaitMs)
        throw new FeedError(`${url.pathname}: the feed asks to wait ${Math.ceil(asked / 1000)} s; try later`);
      await this.options.sleep(Math.max(asked ?? 0, this.options.baseBackoffMs * 2 ** attempt));
    }
  }

  private async readBody(response: Response, url: URL): Promise<Buffer> {
    const declared = Number(response.headers.get('content-length'));
    if (declared > this.options.maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw new FeedError(`${url.pathname} is larger than ${this.options.maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of (response.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.length;
        if (size > this.options.maxBytes)
          throw new FeedError(`${url.pathname} is larger than ${this.options.maxBytes} bytes`);
        chunks.push(Buffer.from(chunk));
      }
    } catch (error) {
      if (error instanceof FeedError) throw error;
      throw new BrokenDownload(`${url.pathname}: the download broke off (${describeFetchError(error)})`);
    }
    return Buffer.concat(chunks);
  }
}

class BrokenDownload extends FeedError {}

/** Retry-After as seconds or as an HTTP date; null when absent or unreadable. */
function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return 'no answer in time';
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
