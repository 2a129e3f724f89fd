// Brings one source up to date from its replication feed: every sequence after the stored one, in
// order, each applied in one transaction with the sequence stored in it, so a run killed at any
// point resumes where the database says it stopped. A second run with nothing new changes nothing.
import { applyChange, type ChangeSummary } from '../changes/index.js';
import type { ChangePosition } from '../../search/change-feed.js';
import type { PlaceStore } from '../../store/types.js';
import { FeedError, type ReplicationFeed } from './feed.js';

export interface UpdateProgress {
  source: string;
  /** the sequence being applied */
  sequence: number;
  /** first and last sequence of this run */
  first: number;
  last: number;
}

export interface UpdateSummary {
  source: string;
  feed: string;
  /** the sequence stored before and after the run */
  from: number;
  to: number;
  sequences: number;
  created: number;
  modified: number;
  deleted: number;
  skippedOlder: number;
  unknownLocations: number;
  /** the data's "as of" after the run (ISO) */
  timestamp: string | null;
  /** where the last change file applied left the change log (null: none applied) */
  position: ChangePosition | null;
}

export interface UpdateOptions {
  onProgress?: (progress: UpdateProgress) => void;
}

/**
 * Applies to source `name` every sequence of `feed` after its stored one. When the source has no
 * sequence for this feed (imported without one, or the feed changed), the start is found from the
 * data's timestamp, as osm2pgsql and pyosmium do.
 */
export async function applyFeed(
  index: PlaceStore,
  name: string,
  feed: ReplicationFeed,
  options: UpdateOptions = {},
): Promise<UpdateSummary> {
  const source = await index.getSource(name);
  if (!source) throw new FeedError(`no source named "${name}"`);
  if (source.kind !== 'osm') throw new FeedError(`"${name}" is not OpenStreetMap data and has no feed`);
  const sameFeed = source.replicationUrl !== null && sameUrl(source.replicationUrl, feed.base);
  let from = sameFeed ? source.sequence : null;
  if (from === null) {
    if (!source.dataTimestamp)
      throw new FeedError(`"${name}" has neither a sequence of ${feed.base} nor a data timestamp to start from`);
    from = await feed.sequenceAt(source.dataTimestamp);
  }

  const newest = await feed.newest();
  const summary: UpdateSummary = {
    source: name,
    feed: feed.base,
    from,
    to: from,
    sequences: 0,
    created: 0,
    modified: 0,
    deleted: 0,
    skippedOlder: 0,
    unknownLocations: 0,
    timestamp: source.dataTimestamp,
    position: null,
  };
  for (let sequence = from + 1; sequence <= newest.sequence; sequence++) {
    options.onProgress?.({ source: name, sequence, first: from + 1, last: newest.sequence });
    const changes = await feed.changes(sequence);
    // The root state names only complete sequences, so each one's own state file is there too.
    const state = sequence === newest.sequence ? newest : await feed.stateOf(sequence);
    const applied = await applyChange(index, changes, {
      source: name,
      sequence,
      timestamp: state.timestamp,
      replicationUrl: feed.base,
    });
    add(summary, applied);
    summary.to = sequence;
    summary.sequences++;
    summary.timestamp = state.timestamp;
    summary.position = applied.position ?? null;
  }
  return summary;
}

function add(summary: UpdateSummary, applied: ChangeSummary): void {
  summary.created += applied.created;
  summary.modified += applied.modified;
  summary.deleted += applied.deleted;
  summary.skippedOlder += applied.skippedOlder;
  summary.unknownLocations += applied.unknownLocations;
}

function sameUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}
