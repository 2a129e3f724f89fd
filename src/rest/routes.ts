// THE table of the REST surface (SPEC.md section 7, CONTRACT.md): method + /api path ->
// procedure + where its input comes from. Read it in one screen; a renamed procedure breaks the build.
import type { Caller } from '../procedures/index.js';

/**
 * none: no input (an empty body is fine, whatever its content type);
 * query: the query string (repeated keys become lists);
 * json: a JSON body (application/json only);
 * form: a JSON body, or multipart with one optional file stored as `media_url`;
 * path: the path parameters.
 */
export type InputSource = 'none' | 'query' | 'json' | 'form' | 'path';

export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  source: InputSource;
  call: (caller: Caller, input: any) => Promise<unknown>;
  /** requests per minute per address (when RATE_LIMIT is on); default 300 */
  rateLimit?: { max: number; timeWindow: number };
  /** what the README says this path answers */
  answers: string;
}

const minutes = (n: number) => n * 60_000;

export const routes: RestRoute[] = [
  { method: 'GET', path: '/api/places', source: 'query', call: (c, i) => c.places.search(i), answers: '{results, city_center, error?}' },
  { method: 'GET', path: '/api/settings', source: 'none', call: (c) => c.settings.get(), answers: 'the settings' },
  { method: 'POST', path: '/api/settings', source: 'json', call: (c, i) => c.settings.save(i), answers: '{success}' },
  { method: 'GET', path: '/api/ads', source: 'none', call: (c) => c.ads.list(), answers: '{carousel, static, background_videos, carousel_enabled}' },
  { method: 'POST', path: '/api/ads', source: 'form', call: (c, i) => c.ads.create(i), answers: '{success, id}' },
  { method: 'PUT', path: '/api/ads', source: 'form', call: (c, i) => c.ads.update(i), answers: '{success}' },
  { method: 'DELETE', path: '/api/ads', source: 'query', call: (c, i) => c.ads.delete(i), answers: '{success}' },
  { method: 'POST', path: '/api/background_videos', source: 'form', call: (c, i) => c.videos.create(i), answers: '{success, id}' },
  { method: 'PUT', path: '/api/background_videos', source: 'form', call: (c, i) => c.videos.update(i), answers: '{success}' },
  { method: 'DELETE', path: '/api/background_videos', source: 'query', call: (c, i) => c.videos.delete(i), answers: '{success}' },
  { method: 'POST', path: '/api/carousel_toggle', source: 'json', call: (c, i) => c.ads.setCarouselEnabled(i), answers: '{success}' },
  { method: 'GET', path: '/api/plans', source: 'none', call: (c) => c.plans.list(), answers: 'list of plans' },
  { method: 'POST', path: '/api/plans', source: 'json', call: (c, i) => c.plans.create(i), answers: '{success, id}' },
  { method: 'PUT', path: '/api/plans', source: 'json', call: (c, i) => c.plans.update(i), answers: '{success}' },
  { method: 'DELETE', path: '/api/plans', source: 'query', call: (c, i) => c.plans.delete(i), answers: '{success}' },
  { method: 'POST', path: '/api/visit', source: 'none', call: (c) => c.visits.count(), rateLimit: { max: 60, timeWindow: minutes(1) }, answers: '{success}' },
  { method: 'GET', path: '/api/visits', source: 'none', call: (c) => c.visits.get(), answers: '{current_visits, total_visits, last_reset}' },
  { method: 'GET', path: '/api/visits/daily', source: 'query', call: (c, i) => c.visits.daily(i), answers: '[{day, count}] for the last 30 days' },
  { method: 'POST', path: '/api/visits/reset', source: 'none', call: (c) => c.visits.reset(), answers: '{success}' },
  { method: 'GET', path: '/api/messages', source: 'none', call: (c) => c.messages.list(), answers: 'list of messages' },
  { method: 'PUT', path: '/api/messages', source: 'json', call: (c, i) => c.messages.setStatus(i), answers: '{success}' },
  { method: 'DELETE', path: '/api/messages', source: 'query', call: (c, i) => c.messages.delete(i), answers: '{success}' },
  { method: 'POST', path: '/api/contact', source: 'json', call: (c, i) => c.messages.send(i), rateLimit: { max: 5, timeWindow: minutes(10) }, answers: '{success, id, message}' },
  { method: 'GET', path: '/api/admin/status', source: 'none', call: (c) => c.auth.status(), answers: '{logged_in, username, must_change_password, login_hint}' },
  { method: 'POST', path: '/api/admin/login', source: 'json', call: (c, i) => c.auth.login(i), answers: '{success, must_change_password}' },
  { method: 'POST', path: '/api/admin/logout', source: 'none', call: (c) => c.auth.logout(), answers: '{success}' },
  { method: 'POST', path: '/api/admin/password', source: 'json', call: (c, i) => c.auth.changePassword(i), answers: '{success}' },
  { method: 'GET', path: '/api/admin/credentials', source: 'none', call: (c) => c.users.list(), answers: 'list of users {id, username, created_at}' },
  { method: 'POST', path: '/api/admin/credentials', source: 'json', call: (c, i) => c.users.create(i), answers: '{success, id, message}' },
  { method: 'DELETE', path: '/api/admin/users/:id', source: 'path', call: (c, i) => c.users.delete(i), answers: '{success, message}' },
];
