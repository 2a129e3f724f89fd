// places.get (a place's page) and places.search (also GET /api/places, as JSON text).
import { TRPCError } from '@trpc/server';
import { isLang } from '../i18n.js';
import { getInput, searchInput, type SearchInput } from '../places/search/input.js';
import { SearchError } from '../places/search/service.js';
import type { SearchAnswer } from '../places/search/results.js';
import type { Context } from '../trpc/context.js';
import { NoCoverage, publicProcedure, router } from '../trpc/init.js';
import { readSettings } from './settings.js';

export const placesRouter = router({
  /** One place with its week of opening hours (the place page); NOT_FOUND when unknown. */
  get: publicProcedure.input(getInput).query(async ({ ctx, input }) => {
    const from = input.lat !== undefined && input.lon !== undefined ? { lat: input.lat, lon: input.lon } : undefined;
    const place = await ctx.services.places.get(input.type, input.id, isLang(input.lang) ? input.lang : ctx.lang, from);
    if (!place) throw new TRPCError({ code: 'NOT_FOUND', message: 'Place not found' });
    return place;
  }),

  search: publicProcedure
    .input(searchInput)
    .query(async ({ ctx, input }) => (await searchPlaces(ctx, input)).objects()),
});

/** What a search needs of its request: the app's parts, the visitor's language, a log. */
export type SearchContext = Pick<Context, 'db' | 'services' | 'now' | 'lang' | 'log'>;

/**
 * places.search: the procedure writes its answer as objects, GET /api/places as JSON text
 * (src/places/search/results.ts), both from this one search.
 */
export async function searchPlaces(ctx: SearchContext, input: SearchInput): Promise<SearchAnswer> {
  const settings = await readSettings(ctx.db);
  const params = { ...input, lang: isLang(input.lang) ? input.lang : ctx.lang };
  const searchSettings = { allowedCategories: settings.allowed_categories, defaultCity: settings.default_city };
  const places = ctx.services.places;
  try {
    const answer = await places.search(params, searchSettings, ctx.log);
    // Counted only once answered: the centre searched is the city's, or the visitor's (as a cell).
    const centre =
      input.lat !== undefined && input.lon !== undefined ? { lat: input.lat, lon: input.lon } : answer.city_center;
    const found = answer.places.length;
    ctx.services.searchStats.record({
      nowMs: ctx.now(),
      categories: input.active_categories,
      city: input.city,
      lat: centre.lat,
      lon: centre.lon,
      found,
    });
    return answer;
  } catch (error) {
    if (error instanceof SearchError) {
      throw new TRPCError({
        code: error.kind === 'bad_request' ? 'BAD_REQUEST' : 'SERVICE_UNAVAILABLE',
        message: error.message,
        ...(error.noCoverage ? { cause: new NoCoverage() } : {}),
      });
    }
    throw error;
  }
}
