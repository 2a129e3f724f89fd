// The places store of a database handle: SQLite or PostgreSQL.
import type { DbHandle } from '../../../db/index.js';
import { NodeCopy } from './postgres/node-copy.js';
import { PostgresPlaceStore } from './postgres/store.js';
import { SqlitePlaceStore } from './sqlite/store.js';
import type { PlaceStore } from './types.js';

export { NotFound, NotRemovable } from './types.js';
export type {
  ImportWriter,
  LiveArea,
  Nearby,
  OwnPlace,
  PlaceStore,
  PlaceShape,
  PlaceType,
  SourceState,
  SourceSummary,
  StoredPlace,
  WriteResult,
  Written,
} from './types.js';

/** A store on the handle; on PostgreSQL every store of a handle shares its copy of the places. */
export function createPlaceStore(handle: DbHandle): PlaceStore {
  return handle.dialect === 'sqlite'
    ? new SqlitePlaceStore(handle.sqlite)
    : new PostgresPlaceStore(handle, handle.shared(NodeCopy));
}
