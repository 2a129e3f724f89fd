// places.search: GET /api/places. Query-string values arrive as strings, so everything is coerced.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { isLang } from '../i18n.js';
import { DEFAULT_LIMIT, DEFAULT_RADIUS_M, MAX_LIMIT, MAX_RADIUS_M, SearchError, type SearchResponse } from '../places/search/service.js';
import type { Context } from '../trpc/context.js';
import { publicProcedure, router } from '../trpc/init.js';
import { readSettings } from './settings.js';

/** An absent value, including the empty string a form sends for an empty field. */
const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

const boundedNumber = (min: number, max: number, integer = false) =>
  z.preprocess(
    blankToUndefined,
    (integer ? z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number') : z.coerce.number({ invalid_type_error: 'must be a number' }))
      .min(min, `must be between ${min} and ${max}`)
      .max(max, `must be between ${min} and ${max}`)
      .optional(),
  );

/** The search's bounds: the schema's, and plainSearchInput's. */
const RANGE = { lat: [-90, 90], lon: [-180, 180], radius: [1, MAX_RADIUS_M], limit: [1, MAX_LIMIT] } as const;
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

/** 1/0, true/false, or nothing (false); anything else is left for the schema to refuse. */
const flagValue = (value: unknown): unknown => {
  if (value === undefined || value === null || value === '') return false;
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  return value;
};
const flag = z.preprocess(flagValue, z.boolean({ invalid_type_error: 'must be 1 or 0' }));

export const searchInput = z
  .object({
    active_categories: categoryList,
    lat: boundedNumber(...RANGE.lat),
    lon: boundedNumber(...RANGE.lon),
    radius: boundedNumber(...RANGE.radius, true),
    limit: boundedNumber(...RANGE.limit, true),
    open_now: flag,
    city: z.preprocess(blankToUndefined, z.string().trim().max(LONGEST.city, 'is too long').optional()),
    /** words of a place's name, any language, case and accents aside, prefixes included */
    q: z.preprocess(blankToUndefined, z.string().trim().max(LONGEST.q, 'is too long').optional()),
    /** en, es, pt, it, fr; anything else falls back to Accept-Language, then English */
    lang: z.string().max(LONGEST.lang).optional(),
  })
  .superRefine((input, ctx) => {
    if ((input.lat === undefined) !== (input.lon === undefined)) {
      const missing = input.lat === undefined ? 'lat' : 'lon';
      ctx.addIssue({ code: 'custom', path: [missing], message: `is required with ${missing === 'lat' ? 'lon' : 'lat'}` });
    }
  });

export type SearchInput = z.infer<typeof searchInput>;

const DECIMAL = /^-?\d{1,3}(?:\.\d{1,17})?$/;
const WHOLE = /^\d{1,6}$/;
/** searchInput's keys, in its order: zod gives its answer's keys in this order. */
const SEARCH_KEYS = Object.keys(searchInput._def.schema.shape) as (keyof SearchInput)[];

/**
 * What searchInput makes of the query strings that browsers and most clients send, without zod;
 * undefined for anything else, which zod then decides (and words the refusals). zod costs ~13 µs
 * and ~13 KB of garbage a parse: a quarter of a small search's request, most of it in GC.
 * test/procedures/search-input.test.ts holds both to the same answers.
 */
export function plainSearchInput(raw: unknown): SearchInput | undefined {
  // a plain object only: zod looks keys up along the prototype chain
  if (typeof raw !== 'object' || raw === null || Object.getPrototypeOf(raw) !== Object.prototype) return undefined;
  const query = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of SEARCH_KEYS) {
    if (!(key in query)) {
      // zod leaves out an absent key, unless its preprocess makes a value of nothing
      if (key === 'active_categories') out[key] = [];
      else if (key === 'open_now') out[key] = false;
      continue;
    }
    const value = query[key];
    let parsed: unknown;
    switch (key) {
      case 'active_categories': {
        const names = categoryValues(value);
        if (names.length > LONGEST.categories || names.some((name) => typeof name !== 'string' || name.length > LONGEST.category)) return undefined;
        parsed = names;
        break;
      }
      case 'lat':
      case 'lon':
      case 'radius':
      case 'limit': {
        if (blankToUndefined(value) === undefined) break;
        const whole = key === 'radius' || key === 'limit';
        if (typeof value !== 'string' || !(whole ? WHOLE : DECIMAL).test(value)) return undefined;
        const n = Number(value);
        const [min, max] = RANGE[key];
        if (!(n >= min && n <= max)) return undefined;
        parsed = n;
        break;
      }
      case 'open_now':
        parsed = flagValue(value);
        if (typeof parsed !== 'boolean') return undefined;
        break;
      case 'city':
      case 'q':
        if (blankToUndefined(value) === undefined) break;
        if (typeof value !== 'string') return undefined;
        parsed = value.trim();
        if ((parsed as string).length > LONGEST[key]) return undefined;
        break;
      case 'lang':
        if (value === undefined) break;
        if (typeof value !== 'string' || value.length > LONGEST.lang) return undefined;
        parsed = value;
        break;
      default:
        // a key the schema gained and this function does not know yet: zod decides
        return undefined;
    }
    out[key] = parsed;
  }
  // searchInput's refinement: both or neither
  if ((out.lat === undefined) !== (out.lon === undefined)) return undefined;
  return out as SearchInput;
}

export const getInput = z
  .object({
    type: z.enum(['node', 'way', 'relation', 'own'], { message: "must be 'node', 'way', 'relation' or 'own'" }),
    id: z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be a whole number').positive('must be a positive number').max(Number.MAX_SAFE_INTEGER),
    lat: boundedNumber(...RANGE.lat),
    lon: boundedNumber(...RANGE.lon),
    lang: z.string().max(LONGEST.lang).optional(),
  })
  .superRefine((input, ctx) => {
    if ((input.lat === undefined) !== (input.lon === undefined)) {
      const missing = input.lat === undefined ? 'lat' : 'lon';
      ctx.addIssue({ code: 'custom', path: [missing], message: `is required with ${missing === 'lat' ? 'lon' : 'lat'}` });
    }
  });

export const placesRouter = router({
  /** One place with its week of opening hours (the place page); NOT_FOUND when unknown. */
  get: publicProcedure.input(getInput).query(async ({ ctx, input }) => {
    const from = input.lat !== undefined && input.lon !== undefined ? { lat: input.lat, lon: input.lon } : undefined;
    const place = await ctx.services.places.get(input.type, input.id, isLang(input.lang) ? input.lang : ctx.lang, from);
    if (!place) throw new TRPCError({ code: 'NOT_FOUND', message: 'Place not found' });
    return place;
  }),

  search: publicProcedure.input(searchInput).query(({ ctx, input }) => searchPlaces(ctx, input, 'objects')),
});

/** What a search needs of its request: the app's parts, the visitor's language, a log. */
export type SearchContext = Pick<Context, 'db' | 'services' | 'now' | 'lang' | 'log'>;

/**
 * places.search, for the procedure (objects) and for GET /api/places (the same answer as JSON
 * text, from the places' prebuilt cards: src/places/search/results.ts).
 */
export async function searchPlaces(ctx: SearchContext, input: z.infer<typeof searchInput>, as: 'objects'): Promise<SearchResponse>;
export async function searchPlaces(ctx: SearchContext, input: z.infer<typeof searchInput>, as: 'json'): Promise<string>;
export async function searchPlaces(ctx: SearchContext, input: z.infer<typeof searchInput>, as: 'objects' | 'json'): Promise<SearchResponse | string> {
  const settings = await readSettings(ctx.db);
  const params = {
    categories: input.active_categories,
    lat: input.lat,
    lon: input.lon,
    city: input.city,
    radiusM: input.radius ?? DEFAULT_RADIUS_M,
    limit: input.limit ?? DEFAULT_LIMIT,
    openNow: input.open_now,
    q: input.q,
    lang: isLang(input.lang) ? input.lang : ctx.lang,
  };
  const searchSettings = { allowedCategories: settings.allowed_categories, defaultCity: settings.default_city };
  const places = ctx.services.places;
  try {
    const answer = as === 'json' ? await places.searchJson(params, searchSettings, ctx.log) : await places.search(params, searchSettings, ctx.log);
    // Counted only once answered: the centre searched is the city's, or the visitor's (as a cell).
    const centre = input.lat !== undefined && input.lon !== undefined ? { lat: input.lat, lon: input.lon } : answer.city_center;
    const found = 'json' in answer ? answer.found : answer.results.length;
    ctx.services.searchStats.record({ nowMs: ctx.now(), categories: input.active_categories, city: input.city, lat: centre.lat, lon: centre.lon, found });
    return 'json' in answer ? answer.json : answer;
  } catch (error) {
    if (error instanceof SearchError) {
      throw new TRPCError({ code: error.kind === 'bad_request' ? 'BAD_REQUEST' : 'SERVICE_UNAVAILABLE', message: error.message });
    }
    throw error;
  }
}
