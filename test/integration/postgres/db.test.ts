// The PostgreSQL side of db/index.ts: the same migrations list, each in a transaction; nodes
// starting together take turns; bigint comes back as a number; start-up says what is missing.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkDb, createDb, migrate, type PostgresHandle } from '../../../db/index.js';
import { migrations } from '../../../db/migrations/index.js';
import { emptyPostgresDatabase, type TestDatabase } from '../../support/databases.js';

describe('the PostgreSQL database', () => {
  let database: TestDatabase;
  let handle: PostgresHandle;
  beforeEach(async () => {
    database = await emptyPostgresDatabase();
    handle = createDb({ kind: 'postgres', url: database.url }, { poolSize: 4 }) as PostgresHandle;
  });
  afterEach(async () => {
    await handle.close();
    await database.drop();
  });

  it('passes the start-up check, and applies the same migrations list once', async () => {
    await checkDb(handle);
    expect(await migrate(handle)).toEqual(Object.keys(migrations));
    expect(await migrate(handle)).toEqual([]);
    const tables = await sql<{
      table_name: string;
    }>`select table_name from information_schema.tables where table_schema = 'public'`.execute(handle.db);
    for (const table of [
      'settings',
      'admin_users',
      'sessions',
      'ads',
      'plans',
      'messages',
      'visits_daily',
      'audit_log',
      'places',
      'rate_limits',
      'media_chunks',
    ]) {
      expect(tables.rows.map((t) => t.table_name)).toContain(table);
    }
  });

  it('two nodes migrating at once take turns: each migration runs once', async () => {
    const other = createDb({ kind: 'postgres', url: database.url }, { poolSize: 2 });
    try {
      const [a, b] = await Promise.all([migrate(handle), migrate(other)]);
      expect([...a, ...b].sort()).toEqual(Object.keys(migrations).sort());
    } finally {
      await other.close();
    }
  });

  it('runs each migration in a transaction: a failing one leaves nothing behind', async () => {
    await migrate(handle);
    const broken = {
      '9999_broken': {
        async up(db: any) {
          await db.schema.createTable('half_made').addColumn('id', 'integer').execute();
          await sql`this is not sql`.execute(db);
        },
      },
    };
    await expect(migrate(handle, broken)).rejects.toThrow();
    const table = await sql`select 1 from information_schema.tables where table_name = 'half_made'`.execute(handle.db);
    expect(table.rows).toEqual([]);
    expect(
      await handle.db.selectFrom('schema_migrations').select('name').where('name', '=', '9999_broken').execute(),
    ).toEqual([]);
  });

  it('answers bigint columns and counts as numbers, and ids with returning', async () => {
    await migrate(handle);
    const now = Date.parse('2026-11-22T10:00:00Z');
    const { id } = await handle.db
      .insertInto('admin_users')
      .values({ username: 'someone', password_hash: 'x', must_change_password: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto('sessions')
      .values({ id_hash: 'h', user_id: id, created_at: now, last_seen_at: now })
      .execute();
    const row = await handle.db
      .selectFrom('sessions')
      .select(['created_at', (eb) => eb.fn.countAll().as('n')])
      .groupBy('created_at')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ created_at: now, n: 1 });
  });

  it('a connection cut while a transaction holds it between queries fails that transaction, not the process', async () => {
    const cut = handle.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      await sql`select pg_terminate_backend(${rows[0].pid})`.execute(handle.db);
      // the end of the connection arrives while no query of this client runs
      await new Promise((resolve) => setTimeout(resolve, 300));
      await sql`select 1`.execute(trx);
    });
    await expect(cut).rejects.toThrow();
    expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows).toEqual([{ one: 1 }]);
  });

  it('a server that cannot be reached, or lacks PostGIS, is named in one line', async () => {
    const nowhere = createDb({ kind: 'postgres', url: 'postgres://nobody@127.0.0.1:9/none' });
    try {
      await expect(checkDb(nowhere)).rejects.toThrow(
        /^DATABASE_URL: cannot reach PostgreSQL at 127\.0\.0\.1:9\/none \(ECONNREFUSED\)$/,
      );
    } finally {
      await nowhere.close();
    }
  });
});
