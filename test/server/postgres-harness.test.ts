// npm test's PostgreSQL pass: where its server comes from, and what it says when there is none.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findPostgresBin, postgresUnavailableReason } from '../../support/postgres-cluster.js';

describe('the PostgreSQL test pass', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pg-harness-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the newest installed server of 15 or later that has PostGIS', () => {
    const root = join(dir, 'lib');
    const share = join(dir, 'share');
    const install = (version: string, postgis: boolean) => {
      mkdirSync(join(root, version, 'bin'), { recursive: true });
      for (const program of ['initdb', 'pg_ctl']) writeFileSync(join(root, version, 'bin', program), '');
      mkdirSync(join(share, version, 'extension'), { recursive: true });
      if (postgis) writeFileSync(join(share, version, 'extension', 'postgis.control'), '');
    };
    expect(findPostgresBin(root, share)).toBeNull();
    install('14', true);
    expect(findPostgresBin(root, share)).toBeNull(); // too old
    install('16', false);
    expect(findPostgresBin(root, share)).toBeNull(); // no PostGIS
    install('15', true);
    expect(findPostgresBin(root, share)).toBe(join(root, '15', 'bin'));
  });

  it('says plainly that the tests were skipped and how to install the server', () => {
    const reason = postgresUnavailableReason({}, () => null);
    expect(reason).toMatch(/^PostgreSQL tests skipped: /);
    expect(reason).toMatch(/apt-get install -y postgresql postgis/);
    expect(reason).toMatch(/TEST_DATABASE_URL/);
    expect(postgresUnavailableReason({ TEST_DATABASE_URL: 'postgres://x@127.0.0.1/y' }, () => null)).toBeNull();
    expect(postgresUnavailableReason({}, () => '/usr/lib/postgresql/15/bin')).toBeNull();
  });
});
