// How values from query strings, forms and JSON read, for the zod schemas of every input (the
// procedures', the search's): a blank field, a number in a range, a yes/no flag.
import { z } from 'zod';

/** An absent value, including the empty string a form sends for an empty field. */
export const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

/** An optional number between min and max (a whole one if asked), from a number or a string. */
export const boundedNumber = (min: number, max: number, integer = false) =>
  z.preprocess(
    blankToUndefined,
    (integer
      ? z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number')
      : z.coerce.number({ invalid_type_error: 'must be a number' })
    )
      .min(min, `must be between ${min} and ${max}`)
      .max(max, `must be between ${min} and ${max}`)
      .optional(),
  );

/** 1/0 and true/false (numbers, booleans or strings) as a boolean; anything else as it is. */
export const flagValue = (value: unknown): unknown => {
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return value;
};
