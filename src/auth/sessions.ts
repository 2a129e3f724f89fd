// Sessions in the database: random ids (256 bits) in the cookie, their sha256 in the table.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/index.js';

export const SESSION_COOKIE = 'sid';
export const IDLE_MS = 30 * 60_000;
export const ABSOLUTE_MS = 12 * 60 * 60_000;
/** last_seen_at is written at most this often, so reads stay reads. */
const TOUCH_EVERY_MS = 60_000;

export interface SessionUser {
  userId: number;
  username: string;
  mustChangePassword: boolean;
}

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

export async function createSession(db: Db, userId: number, now: number): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  await db
    .insertInto('sessions')
    .values({ id_hash: hashId(id), user_id: userId, created_at: now, last_seen_at: now })
    .execute();
  return id;
}

/** The live session's user, or null; an expired session is deleted on sight. */
export async function readSession(db: Db, id: string | undefined, now: number): Promise<SessionUser | null> {
  if (!id || id.length > 100) return null;
  const idHash = hashId(id);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('admin_users', 'admin_users.id', 'sessions.user_id')
    .select([
      'sessions.created_at',
      'sessions.last_seen_at',
      'admin_users.id',
      'admin_users.username',
      'admin_users.must_change_password',
    ])
    .where('sessions.id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row) return null;
  if (now - row.last_seen_at > IDLE_MS || now - row.created_at > ABSOLUTE_MS) {
    await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
    return null;
  }
  if (now - row.last_seen_at > TOUCH_EVERY_MS) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
  }
  return { userId: row.id, username: row.username, mustChangePassword: row.must_change_password === 1 };
}

export async function deleteSession(db: Db, id: string | undefined): Promise<void> {
  if (id) await db.deleteFrom('sessions').where('id_hash', '=', hashId(id)).execute();
}

/** Ends every session of a user, but the one given (a password change keeps its own). */
export async function deleteUserSessions(db: Db, userId: number, keepId?: string): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId) query = query.where('id_hash', '!=', hashId(keepId));
  await query.execute();
}

export async function purgeExpiredSessions(db: Db, now: number): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('last_seen_at', '<', now - IDLE_MS), eb('created_at', '<', now - ABSOLUTE_MS)]))
    .execute();
}
