// Search by name: an index of every name a place has, case- and accent-insensitive,
// with word prefixes. Kept in step by triggers on `places`, so every write path (imports, change
// files, the live source, own places) feeds it without knowing it exists.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  // What visitors look for, counted per UTC day: `kind` is search (key ''), category (its id),
  // city (as typed, trimmed, lower case), empty or few (key: a ~1 km cell "lat,lon" to 2 decimals).
  // No address, no exact position, nothing about the visitor.
  await sql`
    create table search_stats_daily (
      day text not null,
      kind text not null check (kind in ('search', 'category', 'city', 'empty', 'few')),
      key text not null,
      count integer not null,
      primary key (day, kind, key)
    )`.execute(db);
  if (dialect === 'postgres') return upPostgres(db);
  // FTS5: unicode61 folds case and (remove_diacritics 2) accents; rowid = places.id.
  await sql`create virtual table places_names using fts5(names, tokenize = "unicode61 remove_diacritics 2")`.execute(
    db,
  );
  const text = (row: string) =>
    `coalesce(${row}.name, '') || ' ' || coalesce((select group_concat(value, ' ') from json_each(case when json_valid(${row}.names) then ${row}.names end)), '')`;
  await sql
    .raw(
      `create trigger places_names_insert after insert on places begin
      insert into places_names (rowid, names) values (new.id, ${text('new')});
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger places_names_update after update of name, names on places begin
      delete from places_names where rowid = old.id;
      insert into places_names (rowid, names) values (new.id, ${text('new')});
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger places_names_delete after delete on places begin
      delete from places_names where rowid = old.id;
    end`,
    )
    .execute(db);
  await sql.raw(`insert into places_names (rowid, names) select p.id, ${text('p')} from places p`).execute(db);
}

/**
 * PostgreSQL: a tsvector column ('simple' configuration, no stemming) of the names with accents
 * removed by `unaccent` (a trusted extension: the database owner may create it), under a GIN
 * index; a trigger fills it, since unaccent is not immutable and cannot feed a generated column.
 */
async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists unaccent`.execute(db);
  await sql`alter table places add column name_search tsvector`.execute(db);
  await sql`
    create function places_name_search() returns trigger language plpgsql as $$
    begin
      new.name_search := to_tsvector('simple', unaccent(lower(
        coalesce(new.name, '') || ' ' ||
        coalesce((select string_agg(value, ' ') from json_each_text(case when new.names is not null and new.names <> '' then new.names::json end)), '')
      )));
      return new;
    end $$`.execute(db);
  await sql`create trigger places_name_search before insert or update of name, names on places for each row execute function places_name_search()`.execute(
    db,
  );
  await sql`update places set name = name`.execute(db);
  await sql`create index places_name_search_gin on places using gin (name_search)`.execute(db);
}
