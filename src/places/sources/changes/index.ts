// Change files: `applyChange` applies one osmChange file (.osc or .osc.gz) to the index in one
// transaction, together with its source's new replication state. Used by `npm run import` for a
// file and by the replication updater for each sequence of a feed.
import { readFile } from 'node:fs/promises';
import { ImportError } from '../import/types.js';
import type { PlaceStore } from '../../store/types.js';
import { parseOsmChange } from './parse.js';
import { planChanges, type ChangeSummary } from './plan.js';
import { contextUpdate } from '../addresses/changes.js';

export type { ChangeSummary } from './plan.js';
export { isOsmChange } from './parse.js';

export interface ChangeOptions {
  /** the source the changes belong to (created when new) */
  source: string;
  sequence?: number;
  /** ISO 8601: the data's "as of" after these changes */
  timestamp?: string;
  replicationUrl?: string;
  label?: string;
  now?: number;
}

export async function applyChange(
  index: PlaceStore,
  input: string | Buffer,
  options: ChangeOptions,
): Promise<ChangeSummary> {
  const label = options.label ?? (typeof input === 'string' ? input : 'the change file');
  let bytes: Buffer;
  if (typeof input === 'string') {
    try {
      bytes = await readFile(input);
    } catch (error) {
      throw new ImportError(
        `${label}: cannot open (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
  } else bytes = input;
  const elements = parseOsmChange(bytes, label);
  const summary: ChangeSummary = { created: 0, modified: 0, deleted: 0, skippedOlder: 0, unknownLocations: 0 };
  const source = {
    name: options.source,
    sequence: options.sequence ?? null,
    dataTimestamp: options.timestamp ?? null,
    replicationUrl: options.replicationUrl ?? null,
  };
  // With the places, the addresses around what changed: a new address point, a renamed street, a
  // moved place.
  const applied = await index.applyChanges(
    planChanges(elements, source, options.now ?? Date.now(), summary),
    (writes) => contextUpdate(elements, writes, options.source),
  );
  const { derived, changed } = applied.addresses!;
  summary.addresses = { derived, changed };
  summary.position = applied.position;
  return summary;
}
