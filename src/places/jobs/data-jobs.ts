// The admin data page's long tasks (update a source now, import from a URL): started by one
// request, run in the background, and read by polling. Their state is a row in the database, not
// process memory, because with several processes or nodes the next poll may reach another one.
// A running job's row is touched every few seconds; one not touched for a while died with its
// process, and reads as failed.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/index.js';

export interface JobView {
  id: string;
  kind: 'update' | 'import';
  state: 'running' | 'done' | 'failed';
  progress: unknown;
  result: unknown;
  error: string | null;
  startedAt: number;
}

const HEARTBEAT_MS = 5_000;
const DEAD_AFTER_MS = 30_000;
const PROGRESS_EVERY_MS = 250;

export class DataJobs {
  constructor(
    private readonly db: Db,
    private readonly describe: (error: unknown) => string,
  ) {}

  /** Starts `run` in the background; resolves with the job's id once its row exists. */
  async start(kind: JobView['kind'], run: (report: (progress: unknown) => void) => Promise<unknown>): Promise<string> {
    const id = randomUUID();
    const now = Date.now();
    await this.db
      .insertInto('data_jobs')
      .values({
        id,
        kind,
        state: 'running',
        progress: null,
        result: null,
        error: null,
        started_at: now,
        updated_at: now,
      })
      .execute();
    let latest: unknown = null;
    let written = 0;
    const touch = () =>
      this.db
        .updateTable('data_jobs')
        .set({ progress: JSON.stringify(latest), updated_at: Date.now() })
        .where('id', '=', id)
        .where('state', '=', 'running')
        .execute()
        .catch(() => {});
    const heartbeat = setInterval(touch, HEARTBEAT_MS);
    heartbeat.unref();
    const report = (progress: unknown) => {
      latest = progress;
      if (Date.now() - written < PROGRESS_EVERY_MS) return;
      written = Date.now();
      void touch();
    };
    void (async () => {
      let finish: { state: 'done' | 'failed'; result: string | null; error: string | null };
      try {
        finish = { state: 'done', result: JSON.stringify((await run(report)) ?? null), error: null };
      } catch (error) {
        finish = { state: 'failed', result: null, error: this.describe(error) };
      } finally {
        clearInterval(heartbeat);
      }
      await this.db
        .updateTable('data_jobs')
        .set({ ...finish, progress: JSON.stringify(latest), updated_at: Date.now() })
        .where('id', '=', id)
        .execute()
        .catch(() => {});
    })();
    return id;
  }

  async get(id: string): Promise<JobView | null> {
    const row = await this.db.selectFrom('data_jobs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    const dead = row.state === 'running' && Date.now() - row.updated_at > DEAD_AFTER_MS;
    return {
      id: row.id,
      kind: row.kind,
      state: dead ? 'failed' : row.state,
      progress: row.progress ? JSON.parse(row.progress) : null,
      result: row.result ? JSON.parse(row.result) : null,
      error: dead ? 'interrupted: the process running it stopped' : row.error,
      startedAt: row.started_at,
    };
  }

  /** Jobs finished more than a day ago are forgotten. */
  async prune(): Promise<void> {
    await this.db
      .deleteFrom('data_jobs')
      .where('updated_at', '<', Date.now() - 86_400_000)
      .where('state', '!=', 'running')
      .execute();
  }
}
