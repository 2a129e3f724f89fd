// The public content queries: ads and plans. Failures are only logged by the
// QueryClient's cache; the page then shows nothing in their place.
import { useQuery } from '@tanstack/react-query';
import { isVideoMedia } from './media';
import { getJson, type AdsResponse, type Plan } from './rest';

export const ADS_QUERY_KEY = ['ads'] as const;
export const PLANS_QUERY_KEY = ['plans'] as const;

export function useAds() {
  return useQuery({ queryKey: ADS_QUERY_KEY, queryFn: ({ signal }) => getJson<AdsResponse>('/api/ads', signal) });
}

export function usePlans() {
  return useQuery({ queryKey: PLANS_QUERY_KEY, queryFn: ({ signal }) => getJson<Plan[]>('/api/plans', signal) });
}

/** What the home page's ad section shows: an enabled background video, else the image carousel. */
export function pickAdDisplay(ads: AdsResponse | undefined) {
  if (!ads) return { video: null, slides: [] as AdsResponse['carousel'] };
  const video = ads.background_videos.find((v) => Number(v.enabled) === 1) ?? null;
  const slides = Number(ads.carousel_enabled) === 1 ? ads.carousel.filter((ad) => !isVideoMedia(ad.media)) : [];
  return { video, slides };
}
