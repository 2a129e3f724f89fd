// THE table of the REST surface (docs/api.md): method + /api path ->
// procedure + where its input comes from. Read it in one screen; a renamed procedure breaks the build.
import type { inferRouterInputs } from '@trpc/server';
import type { FastifyRequest } from 'fastify';
import type { ZodTypeAny } from 'zod';
import { pickLanguage } from '../i18n.js';
import type { AppRouter, Caller } from '../procedures/index.js';
import { searchPlaces } from '../procedures/places.js';
import { readSettings } from '../procedures/settings.js';
import type { Context } from '../trpc/context.js';
import { JsonText, jsonOf } from './json-text.js';
import * as answer from './responses.js';
import type { RouteRateLimit } from '../shared/rate-limit-store.js';

type Inputs = inferRouterInputs<AppRouter>;
/** `namespace.procedure`, as appRouter names them. */
export type ProcedurePath = { [N in keyof Inputs & string]: `${N}.${keyof Inputs[N] & string}` }[keyof Inputs & string];

/**
 * none: no input (an empty body is fine, whatever its content type);
 * query: the query string (repeated keys become lists);
 * json: a JSON body (application/json only);
 * form: a JSON body, or multipart with one optional file stored as `media_url`;
 * path: the path parameters (and the query string, for what the path does not name).
 */
export type InputSource = 'none' | 'query' | 'json' | 'form' | 'path';

/** What a direct path may use: the app's, nothing of the request's visitor (no session). */
export type DirectDeps = Pick<Context, 'db' | 'config' | 'services' | 'now'>;

export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  source: InputSource;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route's own input, typed by its procedure
  call: (caller: Caller, input: any) => Promise<unknown>;
  /**
   * For a public read of the hot paths: answered without the tRPC context and caller (no session
   * read, no middleware chain), with the procedure's input as its own schema parsed it. The plugin
   * checks the input as the procedure would (plugin.ts) and maps errors alike; it must answer what
   * `call` answers, and share its code with the procedure. A JsonText it returns is sent as it is.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as `call`'s
  direct?: (deps: DirectDeps, input: any, req: FastifyRequest) => Promise<unknown>;
  /** the procedure `call` calls: its zod input and access go into the OpenAPI document */
  procedure: ProcedurePath;
  /** what a success answers (openapi.ts; the API tests validate every answer against it) */
  response: ZodTypeAny;
  /** requests per minute per address (when RATE_LIMIT is on); default 300 */
  rateLimit?: RouteRateLimit;
  /** what the README says this path answers */
  answers: string;
}

const minutes = (n: number) => n * 60_000;

/** GET /api/places: the search as JSON text from the places' prebuilt cards (procedures/places.ts). */
const searchDirect: RestRoute['direct'] = async (deps, input, req) => {
  const query = req.query as Record<string, unknown>;
  const lang = pickLanguage(typeof query.lang === 'string' ? query.lang : undefined, req.headers['accept-language']);
  return new JsonText((await searchPlaces({ ...deps, lang, log: req.log }, input)).json());
};

export const routes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/places',
    source: 'query',
    call: (c, i) => c.places.search(i),
    direct: searchDirect,
    procedure: 'places.search',
    response: answer.searchResponse,
    answers: '{results, city_center, error?, coverage?}',
  },
  {
    method: 'GET',
    path: '/api/places/:type/:id',
    source: 'path',
    call: (c, i) => c.places.get(i),
    procedure: 'places.get',
    response: answer.placeDetail,
    answers:
      'one place: the fields of a result (`distance` with `lat`/`lon`), `categories`, `timezone`, `hours` (the week, `next_change`)',
  },
  {
    method: 'GET',
    path: '/api/settings',
    source: 'none',
    call: (c) => c.settings.get(),
    direct: async ({ db }) => jsonOf(await readSettings(db)),
    procedure: 'settings.get',
    response: answer.settingsResponse,
    answers: 'the settings',
  },
  {
    method: 'POST',
    path: '/api/settings',
    source: 'json',
    call: (c, i) => c.settings.save(i),
    procedure: 'settings.save',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'GET',
    path: '/api/ads',
    source: 'none',
    call: (c) => c.ads.list(),
    procedure: 'ads.list',
    response: answer.adsResponse,
    answers: '{carousel, static, background_videos, carousel_enabled}',
  },
  {
    method: 'POST',
    path: '/api/ads',
    source: 'form',
    call: (c, i) => c.ads.create(i),
    procedure: 'ads.create',
    response: answer.created,
    answers: '{success, id}',
  },
  {
    method: 'PUT',
    path: '/api/ads',
    source: 'form',
    call: (c, i) => c.ads.update(i),
    procedure: 'ads.update',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'DELETE',
    path: '/api/ads',
    source: 'query',
    call: (c, i) => c.ads.delete(i),
    procedure: 'ads.delete',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'POST',
    path: '/api/background_videos',
    source: 'form',
    call: (c, i) => c.videos.create(i),
    procedure: 'videos.create',
    response: answer.created,
    answers: '{success, id}',
  },
  {
    method: 'PUT',
    path: '/api/background_videos',
    source: 'form',
    call: (c, i) => c.videos.update(i),
    procedure: 'videos.update',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'DELETE',
    path: '/api/background_videos',
    source: 'query',
    call: (c, i) => c.videos.delete(i),
    procedure: 'videos.delete',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'POST',
    path: '/api/carousel_toggle',
    source: 'json',
    call: (c, i) => c.ads.setCarouselEnabled(i),
    procedure: 'ads.setCarouselEnabled',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'GET',
    path: '/api/plans',
    source: 'none',
    call: (c) => c.plans.list(),
    procedure: 'plans.list',
    response: answer.plansResponse,
    answers: 'list of plans',
  },
  {
    method: 'POST',
    path: '/api/plans',
    source: 'json',
    call: (c, i) => c.plans.create(i),
    procedure: 'plans.create',
    response: answer.created,
    answers: '{success, id}',
  },
  {
    method: 'PUT',
    path: '/api/plans',
    source: 'json',
    call: (c, i) => c.plans.update(i),
    procedure: 'plans.update',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'DELETE',
    path: '/api/plans',
    source: 'query',
    call: (c, i) => c.plans.delete(i),
    procedure: 'plans.delete',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'POST',
    path: '/api/visit',
    source: 'none',
    call: (c) => c.visits.count(),
    rateLimit: { max: 60, timeWindow: minutes(1) },
    procedure: 'visits.count',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'GET',
    path: '/api/visits',
    source: 'none',
    call: (c) => c.visits.get(),
    procedure: 'visits.get',
    response: answer.visitsResponse,
    answers: '{current_visits, total_visits, last_reset}',
  },
  {
    method: 'GET',
    path: '/api/visits/daily',
    source: 'query',
    call: (c, i) => c.visits.daily(i),
    procedure: 'visits.daily',
    response: answer.dailyResponse,
    answers: '[{day, count}] for the last 30 days',
  },
  {
    method: 'POST',
    path: '/api/visits/reset',
    source: 'none',
    call: (c) => c.visits.reset(),
    procedure: 'visits.reset',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'GET',
    path: '/api/messages',
    source: 'none',
    call: (c) => c.messages.list(),
    procedure: 'messages.list',
    response: answer.messagesResponse,
    answers: 'list of messages',
  },
  {
    method: 'PUT',
    path: '/api/messages',
    source: 'json',
    call: (c, i) => c.messages.setStatus(i),
    procedure: 'messages.setStatus',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'DELETE',
    path: '/api/messages',
    source: 'query',
    call: (c, i) => c.messages.delete(i),
    procedure: 'messages.delete',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'POST',
    path: '/api/contact',
    source: 'json',
    call: (c, i) => c.messages.send(i),
    rateLimit: { max: 5, timeWindow: minutes(10), exact: true },
    procedure: 'messages.send',
    response: answer.createdWithMessage,
    answers: '{success, id, message}',
  },
  {
    method: 'GET',
    path: '/api/admin/status',
    source: 'none',
    call: (c) => c.auth.status(),
    procedure: 'auth.status',
    response: answer.statusResponse,
    answers: '{logged_in, username, must_change_password, login_hint}',
  },
  {
    method: 'POST',
    path: '/api/admin/login',
    source: 'json',
    call: (c, i) => c.auth.login(i),
    procedure: 'auth.login',
    response: answer.loginResponse,
    answers: '{success, must_change_password}',
  },
  {
    method: 'POST',
    path: '/api/admin/logout',
    source: 'none',
    call: (c) => c.auth.logout(),
    procedure: 'auth.logout',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'POST',
    path: '/api/admin/password',
    source: 'json',
    call: (c, i) => c.auth.changePassword(i),
    procedure: 'auth.changePassword',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'GET',
    path: '/api/admin/credentials',
    source: 'none',
    call: (c) => c.users.list(),
    procedure: 'users.list',
    response: answer.usersResponse,
    answers: 'list of users {id, username, created_at}',
  },
  {
    method: 'POST',
    path: '/api/admin/credentials',
    source: 'json',
    call: (c, i) => c.users.create(i),
    procedure: 'users.create',
    response: answer.createdWithMessage,
    answers: '{success, id, message}',
  },
  {
    method: 'GET',
    path: '/api/admin/keys',
    source: 'none',
    call: (c) => c.keys.list(),
    procedure: 'keys.list',
    response: answer.keysResponse,
    answers: 'list of site keys {id, name, key, origins, daily_limit, used_today, created_at}',
  },
  {
    method: 'POST',
    path: '/api/admin/keys',
    source: 'json',
    call: (c, i) => c.keys.create(i),
    procedure: 'keys.create',
    response: answer.createdKey,
    answers: '{success, id, key}',
  },
  {
    method: 'PUT',
    path: '/api/admin/keys',
    source: 'json',
    call: (c, i) => c.keys.update(i),
    procedure: 'keys.update',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'DELETE',
    path: '/api/admin/keys',
    source: 'query',
    call: (c, i) => c.keys.delete(i),
    procedure: 'keys.delete',
    response: answer.ok,
    answers: '{success}',
  },
  {
    method: 'DELETE',
    path: '/api/admin/users/:id',
    source: 'path',
    call: (c, i) => c.users.delete(i),
    procedure: 'users.delete',
    response: answer.withMessage,
    answers: '{success, message}',
  },
];
