// Frozen: the places change log and the result cards. Never import application code here.
//
// On SQLite each server process keeps the positions and categories of all places in memory
// (src/places/search/grid.ts) and reads from the database only the rows of its answers:
// - place_changes: whoever writes a place (an import in another process, a change file, the live
//   source, the admin, another server process), these triggers log its id in the same transaction,
//   and every process follows the log: a search checks the newest sequence number and applies
//   what it has not seen yet. About the last 100,000 changes are kept; a process further behind
//   reads every place again.
// - place_cards: what an answer shows of a place, kept by the same triggers: the fixed members of
//   its JSON (written once here, not per request), its names, and what its open-now status needs
//   (only when it has opening hours). One short row to read instead of the place's seventeen
//   columns. src/places/search/cards.ts builds the same card in JavaScript (PostgreSQL, and the
//   tests that compare the two).
// PostgreSQL needs none of it: PostGIS answers nearest-first from its own index.
import { sql, type Kysely } from 'kysely';

/** The card columns of a place row `p` (`new` in the triggers). */
const cardValues = (p: string) => `${p}.id,
  '"id":' || json_quote(${p}.osm_type || '/' || ${p}.osm_id) ||
  ',"address":' || json_quote(${p}.address) ||
  ',"phone_number":' || json_quote(${p}.phone) ||
  ',"opening_hours":' || json_quote(${p}.opening_hours) ||
  ',"website":' || json_quote(${p}.website) ||
  ',"wheelchair":' || json_quote(${p}.wheelchair) ||
  ',"source":' || case ${p}.osm_type when 'own' then '"own"' else '"osm"' end,
  ${p}.name, ${p}.names, ${p}.opening_hours,
  case when ${p}.opening_hours is null then null else ${p}.country end,
  case when ${p}.opening_hours is null then null else ${p}.timezone end`;

const CARD_COLUMNS = 'id, card, name, names, opening_hours, country, timezone';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  if (dialect === 'postgres') return;
  await sql`create table place_changes (seq integer primary key autoincrement, place_id integer not null)`.execute(db);
  await sql`
    create table place_cards (
      id integer primary key,
      -- "id":...,"address":...,"phone_number":...,"opening_hours":...,"website":...,"wheelchair":...,"source":...
      card text not null,
      name text,
      names text,
      opening_hours text,
      country text,
      timezone text
    )`.execute(db);
  await sql.raw(`insert into place_cards (${CARD_COLUMNS}) select ${cardValues('places')} from places`).execute(db);
  // An insert or an update logs the place and writes its card again. (A trigger's own `or
  // replace` would give way to the conflict clause of the statement that fires it: hence delete,
  // then insert.) A delete logs it and drops its card.
  for (const [name, event] of [
    ['places_inserted', 'insert'],
    ['places_updated', 'update'],
  ]) {
    await sql
      .raw(
        `
      create trigger ${name} after ${event} on places begin
        insert into place_changes (place_id) values (new.id);
        delete from place_cards where id = new.id;
        insert into place_cards (${CARD_COLUMNS}) values (${cardValues('new')});
      end`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `
    create trigger places_deleted after delete on places begin
      insert into place_changes (place_id) values (old.id);
      delete from place_cards where id = old.id;
    end`,
    )
    .execute(db);
  // The log is pruned every 10,000 entries to its last 100,000 (autoincrement: sequence numbers
  // never go back, even if it is emptied).
  await sql`
    create trigger place_changes_pruned after insert on place_changes when new.seq % 10000 = 0
    begin delete from place_changes where seq <= new.seq - 100000; end`.execute(db);
}
