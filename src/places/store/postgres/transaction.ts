// One transaction on a client of a PostgreSQL pool, for the places index's writes and its copies' reads.
import type pg from 'pg';

/** `work` in one transaction on a client of the pool (`begin` may name its isolation). */
export async function inTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  begin = 'begin',
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
