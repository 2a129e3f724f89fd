// Every migration, in order. Add new ones at the end; never edit one that has shipped.
import type { Kysely } from 'kysely';
import * as m0001 from './0001_init.js';
import * as m0002 from './0002_places.js';

export interface Migration {
  up(db: Kysely<any>): Promise<void>;
}

export const migrations: Record<string, Migration> = {
  '0001_init': m0001,
  '0002_places': m0002,
};
