// One place search with its retry rule: a 429, a 503 or 'Service temporarily unavailable' is
// retried after 1 s, then 2 s (at most 2 retries); anything else fails at once, and so does a 503
// that says the site holds no places around the search.
import { ApiError, getJson, type PlacesResponse } from './rest';

export const MAX_RETRIES = 2;
export const PAGE_SIZE = 12;
/**
 * How many results a search asks for first: the map's markers and eight pages of cards. A
 * hundred nearest already spread past the map's first view (zoom 13), and answer in a fifth of
 * the time and bytes of 500 (README, "What the public page asks for").
 */
export const FIRST_LIMIT = 100;
/** What "Load More" asks for once the first hundred are all shown: the API's most. */
export const MORE_LIMIT = 500;

/** Wait before retry number `attempt` (0-based): 1000 x 2^attempt ms. */
export const backoffMs = (attempt: number): number => 1000 * 2 ** attempt;

export function isRetryable(error: unknown): boolean {
  // The site has no places there and its live source just failed: the server rests that source
  // for half a minute after a failure, so a retry within 3 s could only say the same.
  if (error instanceof ApiError && error.noCoverage) return false;
  const text = error instanceof ApiError ? `${error.status} ${error.serverMessage ?? ''}` : String(error);
  return /\b(429|503)\b|Service temporarily unavailable/i.test(text);
}

export interface RetryOptions {
  /** called before each retry's wait, with its 0-based number */
  onRetry?: (attempt: number) => void;
  sleep?: (ms: number) => Promise<void>;
  fetchPlaces?: (url: string) => Promise<PlacesResponse>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function searchWithRetry(url: string, options: RetryOptions = {}): Promise<PlacesResponse> {
  const { onRetry, sleep = defaultSleep, fetchPlaces = (u: string) => getJson<PlacesResponse>(u) } = options;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchPlaces(url);
    } catch (error) {
      if (attempt >= MAX_RETRIES || !isRetryable(error)) throw error;
      onRetry?.(attempt);
      await sleep(backoffMs(attempt));
    }
  }
}
