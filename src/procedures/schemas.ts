// Zod pieces shared by several procedures.
import { z } from 'zod';
import { flagValue } from '../input-values.js';

// Ids are 32-bit integers on both engines: a larger number is no id (and PostgreSQL would
// refuse it with an error, a 500, rather than find nothing).
export const id = z.coerce.number().int().positive().max(2_147_483_647);

/** An absolute http(s) URL. */
export const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

/** http(s) URL or empty string. */
export const optionalHttpUrl = z.union([z.literal(''), httpUrl]);

/** A list given as an array or as a JSON string of one (clients send both). */
export function listOf<T extends z.ZodTypeAny>(item: T) {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    if (value.trim() === '') return [];
    try {
      return JSON.parse(value);
    } catch {
      return value; // fails the array check with a clear message
    }
  }, z.array(item));
}

/** A flag the tables keep as 0/1; it arrives as a number, a boolean or a string ("1", "true"). */
export const flag = z.preprocess(
  (value) => {
    const read = flagValue(value);
    return typeof read === 'boolean' ? Number(read) : value;
  },
  z.union([z.literal(0), z.literal(1)]),
);

export const ok = { success: true as const };
