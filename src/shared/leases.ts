// Named leases in the database: one holder at a time across every process and node (the
// Overpass queue). A row per name says who holds it until when; a holder that died lets go when
// its lease expires, and a live one renews it. The same SQL on SQLite and PostgreSQL, and unlike
// a session advisory lock it holds no connection and survives a pooler in transaction mode.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../../db/index.js';

/** The lease could not be had within the wait allowed. */
export class LeaseTimeout extends Error {
  override name = 'LeaseTimeout';
}

export interface LeaseOptions {
  /** How long the lease lasts unless renewed: a crashed holder blocks others this long at most. */
  ttlMs?: number;
  /** How long to wait for it before giving up with LeaseTimeout. */
  waitMs?: number;
  /** How often to ask again while another holds it. */
  pollMs?: number;
}

/** Leases live in real time, whatever clock the app runs on: every process must agree on it. */
const wallClock = () => Date.now();

/** Takes the lease `name` for `owner` if it is free, expired, or already `owner`'s. */
export async function tryAcquireLease(db: Db, name: string, owner: string, ttlMs: number): Promise<boolean> {
  const now = wallClock();
  // One statement decides: PostgreSQL re-checks the condition on the locked row, SQLite has one writer.
  const updated = await db
    .updateTable('leases')
    .set({ owner, expires_at: now + ttlMs })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('expires_at', '<', now), eb('owner', '=', owner)]))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return true;
  // The first use of a name: whoever inserts the row holds it.
  const inserted = await db
    .insertInto('leases')
    .values({ name, owner, expires_at: now + ttlMs })
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('name')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Extends a lease still held; false when it was lost (it expired and another took it). */
export async function renewLease(db: Db, name: string, owner: string, ttlMs: number): Promise<boolean> {
  const result = await db
    .updateTable('leases')
    .set({ expires_at: wallClock() + ttlMs })
    .where('name', '=', name)
    .where('owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Lets go of a lease, if still held by `owner`. */
export async function releaseLease(db: Db, name: string, owner: string): Promise<void> {
  await db.updateTable('leases').set({ expires_at: 0 }).where('name', '=', name).where('owner', '=', owner).execute();
}

/**
 * Runs `task` while holding the lease `name`: waits for it (polling), renews it while the task
 * runs, releases it after. Rejects with LeaseTimeout when it cannot be had within `waitMs`.
 */
export async function withLease<T>(
  db: Db,
  name: string,
  task: () => Promise<T>,
  options: LeaseOptions = {},
): Promise<T> {
  const ttlMs = options.ttlMs ?? 60_000;
  const waitMs = options.waitMs ?? 25_000;
  const pollMs = options.pollMs ?? 100;
  const owner = `${hostname()}:${process.pid}:${randomUUID()}`;
  const giveUpAt = wallClock() + waitMs;
  while (!(await tryAcquireLease(db, name, owner, ttlMs))) {
    if (wallClock() + pollMs > giveUpAt) throw new LeaseTimeout(`the ${name} lease is held elsewhere`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  // A task may outlast one lease period (slow answers, retries): keep it while we work. Renewals
  // run one after another, and the release waits for the last: on a pool, a renewal still in flight
  // could otherwise land after the release and hold the lease again for a whole period.
  let renewals: Promise<unknown> = Promise.resolve();
  const renew = setInterval(
    () => {
      renewals = renewals.then(() => renewLease(db, name, owner, ttlMs)).catch(() => {});
    },
    Math.max(1, Math.floor(ttlMs / 3)),
  );
  renew.unref();
  try {
    return await task();
  } finally {
    clearInterval(renew);
    await renewals;
    // If this fails (the database went away) the lease simply expires.
    await releaseLease(db, name, owner).catch(() => {});
  }
}
