// What a store gives the searches: the reads (grid, cards, name index) of this process, kept
// current with every write, the store's own and other processes'.
import type { LocalReads } from './local-reads.js';

/**
 * Where a write left the change log of its database: every write of a store returns one, and
 * `caughtUp` takes it, in the process that wrote or in any other. Text, so that it can travel
 * (in an answer, to another process); only the store that made it reads what is inside.
 */
export type ChangePosition = string;

export interface ChangeFeed {
  /** The reads, caught up with every change known to this process (loaded on first use). */
  reads(): Promise<LocalReads>;
  /**
   * The reads, once they hold the write that returned `position`: what a caller that wrote (here
   * or in another process) waits for before it searches, instead of waiting for the log's next
   * look or notification.
   */
  caughtUp(position: ChangePosition): Promise<LocalReads>;
}

/** Past this many logged changes, a feed reads every place again: cheaper than applying them. */
export const RELOAD_AFTER = 50_000;
