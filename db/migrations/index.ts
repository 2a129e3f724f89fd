// Every migration, in order. Add new ones at the end; never edit one that has shipped.
// Each gets the dialect: the list is one, the SQL differs where the engines do.
import type { Kysely } from 'kysely';
import * as m0001 from './0001_init.js';
import * as m0002 from './0002_places.js';
import * as m0003 from './0003_shared_state.js';
import * as m0005 from './0005_reach.js';
import * as m0006 from './0006_sources.js';
import * as m0007 from './0007_place_changes.js';
import * as m0008 from './0008_place_changes_postgres.js';
import * as m0009 from './0009_data_versions_notify.js';
import * as m0010 from './0010_name_search_local.js';
import * as m0011 from './0011_live_fetch_txid.js';
import * as m0012 from './0012_drop_unread_indexes.js';
import * as m0013 from './0013_site_keys.js';
import * as m0015 from './0015_address_context.js';
import * as m0016 from './0016_address_context_index.js';
import * as m0017 from './0017_address_parts.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Migration {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

export const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_places': m0002,
  '0003_shared_state': m0003,
  '0005_reach': m0005,
  '0006_sources': m0006,
  '0007_place_changes': m0007,
  '0008_place_changes_postgres': m0008,
  '0009_data_versions_notify': m0009,
  '0010_name_search_local': m0010,
  '0011_live_fetch_txid': m0011,
  '0012_drop_unread_indexes': m0012,
  '0013_site_keys': m0013,
  '0015_address_context': m0015,
  '0016_address_context_index': m0016,
  '0017_address_parts': m0017,
};
