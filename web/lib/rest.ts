// Typed fetch for the public REST paths (docs/api.md). The response types come
// from the server's procedures, so a renamed field breaks the build here too.
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../src/procedures/index';

import { TRAVEL_MODES, type TravelMode } from '../../src/places/model/travel';

type Outputs = inferRouterOutputs<AppRouter>;
export type SettingsResponse = Outputs['settings']['get'];
export type AdsResponse = Outputs['ads']['list'];
export type Ad = AdsResponse['carousel'][number];
export type BackgroundVideo = AdsResponse['background_videos'][number];
export type Plan = Outputs['plans']['list'][number];

/** One result of GET /api/places, as the procedure answers it. */
export type PlacesResponse = Outputs['places']['search'];
export type Place = PlacesResponse['results'][number];
export type PlaceStatus = Place['status'];

/**
 * A non-OK answer: the HTTP status and the server's `error` text when it sent one; `noCoverage`
 * when a place search's source was out of reach where the site holds no places itself.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string | null,
    readonly noCoverage = false,
  ) {
    super(serverMessage ?? `HTTP ${status}`);
  }
}

async function readError(response: Response): Promise<ApiError> {
  let serverMessage: string | null = null;
  let noCoverage = false;
  try {
    const body = (await response.json()) as { error?: unknown; coverage?: unknown };
    if (typeof body.error === 'string') serverMessage = body.error;
    noCoverage = body.coverage === 'none';
  } catch {
    // not JSON: the status says enough
  }
  return new ApiError(response.status, serverMessage, noCoverage);
}

/** The site key the page's reads carry (the embedded locator's: its reads count against it). */
let siteKey: string | null = null;
export function setSiteKeyForReads(key: string | null): void {
  siteKey = key;
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (siteKey) headers['X-Api-Key'] = siteKey;
  const response = await fetch(path, { headers, signal });
  if (!response.ok) throw await readError(response);
  return (await response.json()) as T;
}

export async function postJson<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await readError(response);
  return (await response.json()) as T;
}

export interface PlacesQuery {
  categories: string[];
  lang: string;
  position?: { lat: number; lon: number } | null;
  city?: string;
  openNow?: boolean;
  /** yes: places marked accessible; limited: those and the ones with limited access */
  wheelchair?: 'yes' | 'limited';
  /** how the visitor travels: the results then say whether a place is open on arrival */
  travel?: TravelMode;
  /** words of a place's name */
  q?: string;
  limit?: number;
}

/** The query string of GET /api/places: one `active_categories` per category. */
export function placesUrl(query: PlacesQuery): string {
  const params = new URLSearchParams();
  for (const category of query.categories) params.append('active_categories', category);
  if (query.position) {
    params.set('lat', query.position.lat.toFixed(6));
    params.set('lon', query.position.lon.toFixed(6));
  }
  const city = query.city?.trim();
  if (city) params.set('city', city);
  if (query.openNow) params.set('open_now', '1');
  if (query.wheelchair) params.set('wheelchair', query.wheelchair);
  if (query.travel) params.set('travel', query.travel);
  const q = query.q?.trim();
  if (q) params.set('q', q);
  params.set('lang', query.lang);
  if (query.limit) params.set('limit', String(query.limit));
  return `/api/places?${params.toString()}`;
}

export type PlaceDetail = Outputs['places']['get'];

/** GET /api/places/<type>/<id> for a place id such as "node/123". */
export function placeUrl(id: string, lang: string): string {
  return `/api/places/${id}?lang=${encodeURIComponent(lang)}`;
}

/** The locator's state as the page's own address (`/?c=pharmacy,atm&city=Lisbon&open=1&wc=yes&by=walk&q=...`). */
export function locatorLink(query: Omit<PlacesQuery, 'lang' | 'limit'>): string {
  const params = new URLSearchParams();
  if (query.categories.length) params.set('c', query.categories.join(','));
  const city = query.city?.trim();
  if (city) params.set('city', city);
  else if (query.position) {
    // ~1 m: enough to run the same search, no finer than that.
    params.set('lat', query.position.lat.toFixed(5));
    params.set('lon', query.position.lon.toFixed(5));
  }
  if (query.openNow) params.set('open', '1');
  if (query.wheelchair) params.set('wc', query.wheelchair);
  if (query.travel) params.set('by', query.travel);
  const q = query.q?.trim();
  if (q) params.set('q', q);
  return `/?${params.toString().replace(/%2C/g, ',')}`;
}

/** A locator link read back; null when it asks for no search. */
export function readLocatorLink(
  search: string,
): (Omit<PlacesQuery, 'lang' | 'limit'> & { nearVisitor: boolean }) | null {
  const params = new URLSearchParams(search);
  const categories = (params.get('c') ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const q = params.get('q')?.trim() || undefined;
  const city = params.get('city')?.trim() || undefined;
  const lat = Number(params.get('lat'));
  const lon = Number(params.get('lon'));
  const position =
    !city && params.has('lat') && params.has('lon') && Number.isFinite(lat) && Number.isFinite(lon)
      ? { lat, lon }
      : null;
  if (!categories.length && !q) return null;
  // No place in the link ("pharmacies near me"): around the visitor, once the browser says where.
  const wc = params.get('wc');
  const by = params.get('by');
  return {
    categories,
    q,
    city,
    position,
    openNow: params.get('open') === '1',
    wheelchair: wc === 'yes' || wc === 'limited' ? wc : undefined,
    travel: TRAVEL_MODES.find((mode) => mode === by),
    nearVisitor: !city && !position,
  };
}
