// Keeping imported sources fresh from their replication feeds: `npm run update`, the admin's
// "update now", and UPDATE_INTERVAL's timer all come here. One update runs at a time for the whole
// site (a lease in the shared database), whichever process or node started it.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../../../../db/index.js';
import type { Logger } from '../../../logger.js';
import { tryAcquireLease, withLease } from '../../../shared/leases.js';
import type { PlaceStore } from '../../store/types.js';
import type { Fetcher } from '../../../net/outbound.js';
import { FeedError, ReplicationFeed, type FeedOptions } from './feed.js';
import { applyFeed, type UpdateProgress, type UpdateSummary } from './update.js';

export { FeedBehind, FeedError } from './feed.js';
export type { UpdateProgress, UpdateSummary } from './update.js';

export interface ReplicationOptions {
  /** REPLICATION_URL: the feed when the data's own header names none (or another) */
  url: string | null;
  userAgent: string;
  /** fetches a feed that only the imported data names (the outbound guard's client) */
  guardedFetch: Fetcher;
  feed?: Partial<FeedOptions>;
}

export interface UpdateRequest {
  /** one source by name; else every OSM source that has a feed */
  source?: string;
  /** the feed to follow instead of the source's own (`--url`) */
  url?: string;
  onProgress?: (progress: UpdateProgress) => void;
}

/**
 * How long the site's turn lasts unless renewed (the holder renews it every third of this): a
 * process killed mid-update holds up the next one this long at most.
 */
const UPDATE_LEASE_MS = 15_000;

export class Replication {
  constructor(
    private readonly index: PlaceStore,
    private readonly db: Db,
    private readonly options: ReplicationOptions,
  ) {}

  /** Updates the chosen sources in turn; waits up to `waitMs` for an update running elsewhere. */
  async update(request: UpdateRequest = {}, waitMs = 30_000): Promise<UpdateSummary[]> {
    const targets = await this.targets(request);
    return withLease(
      this.db,
      'replication',
      async () => {
        const summaries: UpdateSummary[] = [];
        for (const target of targets) {
          // A feed the operator gave is fetched as given; one the data names goes through the guard.
          const fetch =
            target.url === request.url || target.url === this.options.url ? undefined : this.options.guardedFetch;
          const feed = new ReplicationFeed(target.url, {
            userAgent: this.options.userAgent,
            ...this.options.feed,
            ...(fetch ? { fetch } : {}),
          });
          summaries.push(await applyFeed(this.index, target.source, feed, { onProgress: request.onProgress }));
        }
        return summaries;
      },
      { ttlMs: UPDATE_LEASE_MS, waitMs, pollMs: 500 },
    );
  }

  /** Which sources an update follows, and from which feed. */
  async targets(request: Omit<UpdateRequest, 'onProgress'> = {}): Promise<{ source: string; url: string }[]> {
    const sources = (await this.index.listSources()).filter((source) => source.kind === 'osm');
    const url = request.url ?? this.options.url ?? undefined;
    if (request.source !== undefined) {
      const source = sources.find((s) => s.name === request.source);
      if (!source) throw new FeedError(`no OpenStreetMap source named "${request.source}"`);
      // REPLICATION_URL stands in for the header's feed of the source it applies to.
      const applies =
        url !== undefined && (source.replicationUrl === null || source.replicationUrl === url || sources.length === 1);
      const feed = request.url ?? (applies ? url : source.replicationUrl);
      if (!feed)
        throw new FeedError(`"${source.name}" names no replication feed: give one with --url or REPLICATION_URL`);
      return [{ source: source.name, url: feed }];
    }
    if (url) {
      // A feed given from outside belongs to the source that already follows it, else to the one
      const following = sources.filter((s) => s.replicationUrl === url);
      // source that follows none (or the only source there is); with several, which one must be said.
      const candidates = following.length
        ? following
        : sources.length === 1
          ? sources
          : sources.filter((s) => s.replicationUrl === null && s.places > 0);
      if (candidates.length !== 1) {
        throw new FeedError(
          sources.length === 0
            ? 'nothing imported yet: import an .osm.pbf first'
            : `several sources could follow ${url}: name one with --source (${sources.map((s) => s.name).join(', ')})`,
        );
      }
      return [{ source: candidates[0].name, url }];
    }
    const followed = sources
      .filter((s) => s.replicationUrl !== null)
      .map((s) => ({ source: s.name, url: s.replicationUrl! }));
    if (followed.length === 0) {
      throw new FeedError(
        'no source names a replication feed: import an .osm.pbf whose header names one, or give --url / REPLICATION_URL',
      );
    }
    return followed;
  }
}

/**
 * UPDATE_INTERVAL: every process ticks, and the first to take the schedule's lease for the coming
 * interval runs the update; the lease is left to expire, so the site updates once per interval
 * whatever the number of processes and nodes. Returns a function that stops the timer.
 */
export function startUpdateTimer(
  db: Db,
  replication: Replication,
  intervalMs: number,
  log: Pick<Logger, 'info' | 'warn'>,
): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const owner = `${hostname()}:${process.pid}:${randomUUID()}`;
      if (!(await tryAcquireLease(db, 'replication-schedule', owner, intervalMs))) return;
      const summaries = await replication.update({}, 0);
      for (const s of summaries) {
        log.info(
          { source: s.source, from: s.from, to: s.to, created: s.created, modified: s.modified, deleted: s.deleted },
          `replication: ${s.source} at sequence ${s.to}`,
        );
      }
    } catch (error) {
      log.warn({ err: error instanceof FeedError ? error.message : error }, 'replication update failed');
    } finally {
      running = false;
    }
  };
  // Ticks more often than the interval (at most a minute apart) so a process that stopped is
  // replaced soon after its turn ends; the lease decides who runs.
  const timer = setInterval(() => void tick(), Math.min(intervalMs, 60_000));
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
