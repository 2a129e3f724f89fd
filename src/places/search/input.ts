// What a search and a place's page take, as zod schemas: the tRPC procedures and GET /api/places
// parse with them (values from a query string arrive as strings, so everything is coerced), and
// the search reads their answer as it is. A search parameter is one line here.
import { z } from 'zod';
import { blankToUndefined, boundedNumber, flagValue } from '../../input-values.js';
import type { Lang } from '../../i18n.js';
import { TRAVEL_MODES } from '../model/travel.js';

export const DEFAULT_RADIUS_M = 5000;
const MAX_RADIUS_M = 50_000;
export const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;

const RANGE = { lat: [-90, 90], lon: [-180, 180], radius: [1, MAX_RADIUS_M], limit: [1, MAX_LIMIT] } as const;
const WHEELCHAIR_FILTERS = ['yes', 'limited'] as const;
const LONGEST = { category: 50, categories: 100, city: 200, q: 100, lang: 20 } as const;

/** One category, a list (repeated query keys), or "a,b" in one value. */
const categoryValues = (value: unknown): unknown[] => {
  const values = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  return values.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]));
};
const categoryList = z.preprocess(
  categoryValues,
  z.array(z.string({ invalid_type_error: 'must be category names' }).max(LONGEST.category)).max(LONGEST.categories),
);

/** A switch: 1/0, true/false, or nothing (off); anything else is left for the schema to refuse. */
const switchedOn = z.preprocess(
  (value) => (blankToUndefined(value) === undefined ? false : flagValue(value)),
  z.boolean({ invalid_type_error: 'must be 1 or 0' }),
);

/** A position is both coordinates or neither. */
function latWithLon(input: { lat?: number; lon?: number }, ctx: z.RefinementCtx): void {
  if ((input.lat === undefined) !== (input.lon === undefined)) {
    const missing = input.lat === undefined ? 'lat' : 'lon';
    ctx.addIssue({ code: 'custom', path: [missing], message: `is required with ${missing === 'lat' ? 'lon' : 'lat'}` });
  }
}

export const searchInput = z
  .object({
    active_categories: categoryList,
    lat: boundedNumber(...RANGE.lat),
    lon: boundedNumber(...RANGE.lon),
    radius: boundedNumber(...RANGE.radius, true),
    limit: boundedNumber(...RANGE.limit, true),
    open_now: switchedOn,
    /** yes: places marked accessible; limited: those and the ones with limited access */
    wheelchair: z.preprocess(
      blankToUndefined,
      z.enum(WHEELCHAIR_FILTERS, { message: "must be 'yes' or 'limited'" }).optional(),
    ),
    /** walk, bike or drive: each result gains its trip and its status on arrival */
    travel: z.preprocess(
      blankToUndefined,
      z.enum(TRAVEL_MODES, { message: "must be 'walk', 'bike' or 'drive'" }).optional(),
    ),
    city: z.preprocess(blankToUndefined, z.string().trim().max(LONGEST.city, 'is too long').optional()),
    /** words of a place's name, any language, case and accents aside, prefixes included */
    q: z.preprocess(blankToUndefined, z.string().trim().max(LONGEST.q, 'is too long').optional()),
    /** en, es, pt, it, fr; anything else falls back to Accept-Language, then English */
    lang: z.string().max(LONGEST.lang).optional(),
  })
  .superRefine(latWithLon);

export type SearchInput = z.infer<typeof searchInput>;
/** A search's input with its language settled (the request's, when the input names none). */
export type SearchParams = Omit<SearchInput, 'lang' | 'open_now'> & { open_now?: boolean; lang: Lang };

export const getInput = z
  .object({
    type: z.enum(['node', 'way', 'relation', 'own'], { message: "must be 'node', 'way', 'relation' or 'own'" }),
    id: z.coerce
      .number({ invalid_type_error: 'must be a number' })
      .int('must be a whole number')
      .positive('must be a positive number')
      .max(Number.MAX_SAFE_INTEGER),
    lat: boundedNumber(...RANGE.lat),
    lon: boundedNumber(...RANGE.lon),
    lang: z.string().max(LONGEST.lang).optional(),
  })
  .superRefine(latWithLon);
