// The one place that picks the SQLite driver for the Node.js line we run on
// (docs/operating/node-versions.md). Everything else imports `SQLite` from here and never
// better-sqlite3 itself; both drivers have the same API and types.
//  - Node >= 22: better-sqlite3 13 (installed as `better-sqlite3-napi`), on Node-API, one prebuilt
//    binary for every line. better-sqlite3 12 aborts on Node 24 ("Assertion failed: (env) !=
//    nullptr" when a statement is collected, at exit or under writes).
//  - Node 20: better-sqlite3 12, built for this line by npm. 13 declares Node >= 22 and crashes
//    here with a segmentation fault at the first query.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/** The oldest Node.js major that gets better-sqlite3 13. */
const NAPI_DRIVER_FROM_MAJOR = 22;

const major = Number(process.versions.node.split('.')[0]);

/** The package this process loads: an npm alias for better-sqlite3 13, or better-sqlite3 12. */
export const sqliteDriverPackage = major >= NAPI_DRIVER_FROM_MAJOR ? 'better-sqlite3-napi' : 'better-sqlite3';

const SQLite: typeof BetterSqlite3 = createRequire(import.meta.url)(sqliteDriverPackage);

// The types of a connection and its parts, as `SQLite.Database`, `SQLite.Statement`... (types only).
declare namespace SQLite {
  export type Database = BetterSqlite3.Database;
  export type Statement<P extends unknown[] | {} = unknown[], R = unknown> = BetterSqlite3.Statement<P, R>;
  export type Transaction<F extends (...params: any[]) => unknown> = BetterSqlite3.Transaction<F>;
  export type Options = BetterSqlite3.Options;
}

export default SQLite;
