// What the admin reads when a data job fails: the error in words, never a stack or an internal detail.
import { ImportError } from '../sources/import/index.js';
import { FeedError } from '../sources/replication/feed.js';
import { LeaseTimeout } from '../../shared/leases.js';

/** An error of a job, in words for the admin. */
export function describeJobError(error: unknown): string {
  if (error instanceof ImportError || error instanceof FeedError) return error.message;
  if (error instanceof LeaseTimeout) return 'another update is running; try again when it has finished';
  return 'the task failed unexpectedly; the server log says why';
}
