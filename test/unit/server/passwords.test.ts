import argon2 from 'argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  generatePassword,
  HASH_OPTIONS,
  hashOptions,
  hashPassword,
  needsRehash,
  passwordProblem,
  TEST_HASH_OPTIONS,
} from '../../../src/auth/passwords.js';

describe('password rules', () => {
  it.each([
    'password1234',
    'qwertyuiop123',
    '123456789012',
    'abcdefghijkl',
    '1q2w3e4r5t6y',
    'iloveyou!!!!2024',
    'abcabcabcabc',
    'zzzzzzzzzzzz',
    '!!password!!',
  ])('refuses the common %s', (password) =>
    expect(passwordProblem(password)).toBe('Password is too common; choose another'),
  );

  it.each(['correct horse battery staple', 'a brand new secret phrase', generatePassword()])(
    'accepts %s',
    (password) => {
      expect(passwordProblem(password)).toBeNull();
    },
  );

  it('bounds the length', () => {
    expect(passwordProblem('Xy7#kq2!')).toMatch(/at least 12/);
    expect(passwordProblem('Xy7#kq2!'.repeat(17))).toMatch(/at most 128/);
  });
});

describe('password hashing', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is argon2id at m=19456 t=2 p=1 unless TEST_CHEAP_PASSWORD_HASH=1, which only the tests set', () => {
    expect(HASH_OPTIONS).toEqual({ type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(hashOptions({})).toBe(HASH_OPTIONS);
    for (const value of ['', '0', 'true', 'yes'])
      expect(hashOptions({ TEST_CHEAP_PASSWORD_HASH: value })).toBe(HASH_OPTIONS);
    expect(hashOptions({ TEST_CHEAP_PASSWORD_HASH: '1' })).toBe(TEST_HASH_OPTIONS);
  });

  it('hashes at the production cost without the variable, and rehashes a cheap hash at login', async () => {
    const cheap = await hashPassword('correct horse battery staple');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    vi.stubEnv('TEST_CHEAP_PASSWORD_HASH', undefined);
    expect(await hashPassword('correct horse battery staple')).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(needsRehash(cheap)).toBe(true);
  });
});
