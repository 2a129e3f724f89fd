// The first administrator: ADMIN_PASSWORD when given, else a generated password
// printed once and written to data/initial-admin-password (0600), to be changed at first login.
import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isUniqueViolation, type Db } from '../../db/index.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { generatePassword, hashPassword } from './passwords.js';

export const initialPasswordFile = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'initial-admin-password');

/**
 * Creates the first administrator when there is none. A generated password goes to `announce`
 * (the console, once) and to the file, never to the structured logs. Safe when several nodes
 * start at once: one creates it, the others find it taken.
 */
export async function ensureFirstAdmin(
  db: Db,
  config: Readonly<Config>,
  log: Logger,
  announce: (text: string) => void = (text) => process.stderr.write(`${text}\n`),
): Promise<void> {
  const existing = await db.selectFrom('admin_users').select('id').limit(1).executeTakeFirst();
  if (existing) return;

  const generated = config.adminPassword === null;
  const password = config.adminPassword ?? generatePassword();
  try {
    await db
      .insertInto('admin_users')
      .values({
        username: config.adminUsername,
        password_hash: await hashPassword(password),
        must_change_password: generated ? 1 : 0,
      })
      .execute();
  } catch (error) {
    // Another process or node starting at the same moment created it first: that one is the
    // first administrator (and told its password), this one has nothing to do.
    if (isUniqueViolation(error)) return;
    throw error;
  }

  if (generated) {
    const file = initialPasswordFile(config);
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, `${password}\n`, { mode: 0o600 });
    log.warn(
      { username: config.adminUsername, passwordFile: file },
      'First administrator created with a generated password; it must be changed at first login',
    );
    announce(
      `\n  First administrator: ${config.adminUsername}\n  Generated password:  ${password}\n` +
        `  (also in ${file}; it must be changed at first login)\n`,
    );
  } else {
    log.info({ username: config.adminUsername }, 'First administrator created from ADMIN_PASSWORD');
  }
}

/** The generated password is no longer valid once changed: do not leave it lying around. */
export function removeInitialPasswordFile(config: Pick<Config, 'dataDir'>): void {
  rmSync(initialPasswordFile(config), { force: true });
}
