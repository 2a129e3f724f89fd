// Frozen: state that several server processes and machines share. Never import
// application code here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  const pg = dialect === 'postgres';
  const epochMs = pg ? 'bigint' : 'integer';

  // Request counters per key (an address and a route, a login account) in fixed windows, bumped
  // by one atomic upsert. Unlogged on PostgreSQL: counters lost in a crash are harmless.
  await sql`
    create ${sql.raw(pg ? 'unlogged ' : '')}table rate_limits (
      key text primary key,
      count integer not null,
      reset_at ${sql.raw(epochMs)} not null
    )`.execute(db);
  await sql`create index rate_limits_reset on rate_limits (reset_at)`.execute(db);

  // Named leases: one holder at a time across processes (the Overpass queue, the updater). A
  // holder that died lets go when its lease expires.
  await sql`
    create table leases (
      name text primary key,
      owner text not null,
      expires_at ${sql.raw(epochMs)} not null
    )`.execute(db);

  // Versions of cached data (the settings): bumped with each change, checked per request.
  await sql`create table data_versions (name text primary key, version integer not null)`.execute(db);
  await sql`insert into data_versions (name, version) values ('settings', 1)`.execute(db);

  // Uploaded media kept in the database, in chunks, so every node serves them and a Range read
  // loads only the chunks it needs. `complete` is set once the last chunk is in.
  await sql`
    create table media (
      name text primary key,
      mime text not null,
      size ${sql.raw(epochMs)} not null,
      sha256 text not null,
      complete integer not null default 0,
      created_at ${sql.raw(epochMs)} not null
    )`.execute(db);
  await sql`
    create table media_chunks (
      name text not null references media (name) on delete cascade,
      seq integer not null,
      data ${sql.raw(pg ? 'bytea' : 'blob')} not null,
      primary key (name, seq)
    )`.execute(db);
  // Media are compressed already: skip TOAST's compression, keep out-of-line storage.
  if (pg) await sql`alter table media_chunks alter column data set storage external`.execute(db);
}
