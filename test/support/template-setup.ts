// globalSetup of the SQLite projects: a folder for this run's imported-extract databases
// (test/support/templates.ts), removed at the end. Both SQLite projects list this setup: they
// share the folder, so each extract is imported once per run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sqliteTemplates: string;
  }
}

const SHARED = Symbol.for('places-test.sqlite-templates');
type Shared = { users: number; dir: string };

export default function setup(project: TestProject): () => void {
  const run = globalThis as { [SHARED]?: Shared };
  const shared = (run[SHARED] ??= { users: 0, dir: mkdtempSync(join(tmpdir(), 'places-templates-')) });
  shared.users++;
  project.provide('sqliteTemplates', shared.dir);
  return () => {
    if (--shared.users > 0) return;
    delete run[SHARED];
    rmSync(shared.dir, { recursive: true, force: true });
  };
}
