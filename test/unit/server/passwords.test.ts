import { describe, expect, it } from 'vitest';
import { generatePassword, passwordProblem } from '../../../src/auth/passwords.js';

describe('password rules', () => {
  it.each(['password1234', 'qwertyuiop123', '123456789012', 'abcdefghijkl', '1q2w3e4r5t6y', 'iloveyou!!!!2024', 'abcabcabcabc', 'zzzzzzzzzzzz', '!!password!!'])(
    'refuses the common %s',
    (password) => expect(passwordProblem(password)).toBe('Password is too common; choose another'),
  );

  it.each(['correct horse battery staple', 'a brand new secret phrase', generatePassword()])('accepts %s', (password) => {
    expect(passwordProblem(password)).toBeNull();
  });

  it('bounds the length', () => {
    expect(passwordProblem('Xy7#kq2!')).toMatch(/at least 12/);
    expect(passwordProblem('Xy7#kq2!'.repeat(17))).toMatch(/at most 128/);
  });
});
