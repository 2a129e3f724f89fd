// The importer writes the same rows as before it was rewritten for country-size files: each real
// extract is imported and its digest (import-digest.ts) compared with the one stored in
// fixtures/import-digests.json, which was computed from the importer that read the file in up to
// three passes and kept node ids in a Set. A stored digest is small and needs no copy of the old
// reader; it must only be written again (IMPORT_DIGESTS=write) when a change of the answers is
// meant, e.g. a new category filter, and the commit says why.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importInputs } from '../../../src/places/sources/import/index.js';
import { importDigest } from './import-digest.js';
import { EXTRACTS, tempDb, TEST_DIALECT } from '../../support/places.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'import-digests.json');
type Digests = Record<string, Record<string, Record<string, { rows: number; sha256: string }>>>;
const stored: Digests = existsSync(FIXTURE) ? JSON.parse(readFileSync(FIXTURE, 'utf8')) : {};
const writing = process.env.IMPORT_DIGESTS === 'write';
const computed: Digests[string] = {};

describe('the importer writes the same rows as the stored digests', () => {
  afterAll(() => {
    if (!writing) return;
    const current: Digests = existsSync(FIXTURE) ? JSON.parse(readFileSync(FIXTURE, 'utf8')) : {};
    current[TEST_DIALECT] = computed;
    writeFileSync(FIXTURE, `${JSON.stringify(current, null, 2)}\n`);
  });

  it.each(['andorra', 'monaco', 'vancouver'] as const)(
    '%s: places, tags, cards, change log and node data',
    async (name) => {
      const db = await tempDb();
      try {
        await importInputs(db.index, [EXTRACTS[name]], { now: Date.parse('2026-01-01T00:00:00Z') });
        const digest = await importDigest(db);
        computed[name] = digest;
        if (!writing) expect(digest).toEqual(stored[TEST_DIALECT]?.[name]);
      } finally {
        await db.close();
      }
    },
    120_000,
  );
});
