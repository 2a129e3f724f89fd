// What a store gives the searches: the reads (grid, cards, name index) of this process, kept
// current with every write, the store's own and other processes'.
import type { LocalReads } from './local-reads.js';

export interface ChangeFeed {
  /** The reads, caught up with every change known to this process (loaded on first use). */
  reads(): Promise<LocalReads>;
}

/** Past this many logged changes, a feed reads every place again: cheaper than applying them. */
export const RELOAD_AFTER = 50_000;
