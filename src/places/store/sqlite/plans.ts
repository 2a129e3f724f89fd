import type SQLite from '../../../../db/sqlite-driver.js';
import { runPlanSync, type Plan, type Query } from '../addresses.js';

/** Runs a plan of queries on the connection, inside the caller's transaction. */
export function runPlanOn<T>(sqlite: SQLite.Database, plan: Plan<T>): T {
  const statements = new Map<string, SQLite.Statement>();
  return runPlanSync(plan, (query: Query) => {
    let statement = statements.get(query.sql);
    if (!statement) statements.set(query.sql, (statement = sqlite.prepare(query.sql)));
    if (statement.reader) return statement.all(...query.params) as Record<string, unknown>[];
    statement.run(...query.params);
    return [];
  });
}
