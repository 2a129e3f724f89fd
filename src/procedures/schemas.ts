// Zod pieces shared by several procedures.
import { z } from 'zod';

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

/** A list given as an array or as a JSON string of one (the spec's client sends both). */
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

/** 0/1 flags arrive as numbers, booleans or strings ("1", "true") from forms. */
export const flag = z.preprocess((value) => {
  if (value === true || value === 'true' || value === '1' || value === 1) return 1;
  if (value === false || value === 'false' || value === '0' || value === 0) return 0;
  return value;
}, z.union([z.literal(0), z.literal(1)]));

export const ok = { success: true as const };
