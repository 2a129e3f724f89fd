// Frozen: site keys, with which other sites read the public API and embed the locator, and their
// use per UTC day. Never import application code here.
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres' = 'sqlite'): Promise<void> {
  const pg = dialect === 'postgres';
  const now = pg
    ? sql`(to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`
    : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  // BY DEFAULT, not ALWAYS: the move from SQLite inserts the ids it copies.
  const id = (c: ColumnDefinitionBuilder) =>
    pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();

  await db.schema
    .createTable('site_keys')
    .addColumn('id', 'integer', id)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    // JSON array of origins (https://example.org) whose pages may use the key
    .addColumn('origins', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('daily_limit', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(now))
    .execute();

  // Requests per key and UTC day (YYYY-MM-DD); gone with the key.
  await db.schema
    .createTable('site_key_usage')
    .addColumn('key_id', 'integer', (c) => c.notNull().references('site_keys.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('site_key_usage_pk', ['key_id', 'day'])
    .execute();
}
