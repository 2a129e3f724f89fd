// The places index of a database handle: searches from memory on both engines; writes to the
// SQLite file (R*Trees for the writers and the name search) or to PostgreSQL + PostGIS.
import type { DbHandle } from '../../../db/index.js';
import { PostgisPlaceIndex } from './postgres/store.js';
import { SqlitePlaceIndex } from './sqlite/store.js';
import type { PlaceIndex } from './types.js';

export type { ImportWriter, LiveArea, Nearby, OwnPlace, PlaceIndex, PlaceShape, PlaceType, SourceState, SourceSummary, StoredPlace, WriteResult } from './types.js';

export function createPlaceIndex(handle: DbHandle): PlaceIndex {
  return handle.dialect === 'sqlite' ? new SqlitePlaceIndex(handle.sqlite) : new PostgisPlaceIndex(handle);
}
