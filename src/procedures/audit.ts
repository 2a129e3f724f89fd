// The audit log of admin actions: who did what, when. Never given a password.
import type { Db } from '../../db/index.js';
import type { SessionUser } from '../auth/sessions.js';

export async function audit(
  db: Db,
  session: SessionUser | null,
  action: string,
  detail?: Record<string, unknown>,
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      admin_user_id: session?.userId ?? null,
      username: session?.username ?? 'system',
      action,
      detail: detail ? JSON.stringify(detail) : null,
    })
    .execute();
}
