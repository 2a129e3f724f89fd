// globalSetup of the PostgreSQL pass: a server (TEST_DATABASE_URL, else a private throwaway
// cluster), and a template database migrated once, that each test clones in a blink; the
// databases of imported extracts are made from it (test/support/templates.ts).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { checkDb, createDb, migrate } from '../../db/index.js';
import { freePort } from '../../support/ports.js';
import { startCluster, type Cluster } from '../../support/postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
    /** every database of this run starts with it: teardown drops those only */
    pgPrefix: string;
  }
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

interface Server {
  adminUrl: string;
  template: string;
  prefix: string;
  cluster: Cluster | null;
}

/** Both PostgreSQL projects list this setup: they share one server and one run of it. */
const SHARED = Symbol.for('places-test.postgres');
type Shared = { users: number; server: Promise<Server> };

async function startServer(): Promise<Server> {
  let cluster: Cluster | null = null;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    cluster = startCluster(await freePort());
    adminUrl = cluster.url;
  }
  const prefix = `places_test_${randomBytes(4).toString('hex')}`;
  const template = `${prefix}_template`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const handle = createDb({ kind: 'postgres', url: withDatabase(adminUrl, template) }, { poolSize: 2 });
  await checkDb(handle);
  await migrate(handle);
  await handle.close();
  await admin.query(`alter database ${template} is_template true`);
  await admin.end();
  return { adminUrl, template, prefix, cluster };
}

async function stopServer({ adminUrl, template, prefix, cluster }: Server): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const left = await client.query<{ datname: string }>(
    `select datname from pg_database where starts_with(datname, $1)`,
    [prefix],
  );
  await client.query(`alter database ${template} is_template false`);
  for (const { datname } of left.rows) await client.query(`drop database if exists "${datname}" with (force)`);
  await client.end();
  cluster?.remove();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = globalThis as { [SHARED]?: Shared };
  const shared = (run[SHARED] ??= { users: 0, server: startServer() });
  shared.users++;
  const { adminUrl, template, prefix } = await shared.server;
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);
  project.provide('pgPrefix', prefix);

  return async () => {
    if (--shared.users > 0) return;
    delete run[SHARED];
    await stopServer(await shared.server);
  };
}
