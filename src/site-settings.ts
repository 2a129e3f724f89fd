// The site's settings: their names, their values' types and their defaults, in one place for the
// server (procedures/settings.ts, the REST answer's schema) and the web app (the public pages'
// view, the admin's form). No zod here: the public pages import it.
import { LANGUAGES, type Lang } from './i18n.js';
import type { MapBase } from './map/base-map.js';

export const DISTANCE_UNITS = ['auto', 'km', 'mi'] as const;
export type DistanceUnitSetting = (typeof DISTANCE_UNITS)[number];

/** The footer's social buttons, in their order there. */
export const SOCIAL_NETWORKS = ['facebook', 'x', 'instagram', 'linkedin'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
/** Their names, as the networks write them (the same in every language). */
export const SOCIAL_NETWORK_NAMES: Record<SocialNetwork, string> = {
  facebook: 'Facebook',
  x: 'X',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
};

/**
 * The longest text of a legal page (Privacy Policy, Terms) in one language, in characters: both
 * pages in five languages stay within a request body's 64 KiB, with room for the other settings.
 */
export const LEGAL_TEXT_MAX = 4_000;

/** A text for each language, all empty. */
export const noTexts = (): Record<Lang, string> =>
  Object.fromEntries(LANGUAGES.map((lang) => [lang, ''])) as Record<Lang, string>;

export const DEFAULT_SETTINGS = {
  site_title: 'Find Services Near You',
  logo_url: '',
  primary_color: '#3B82F6',
  secondary_color: '#10B981',
  font_family: 'Inter, sans-serif' as string,
  default_city: '',
  allowed_categories: [] as string[],
  contact_email: '',
  languages: [...LANGUAGES] as string[],
  /** how the site shows distances: auto (miles for en-US/en-GB visitors), km or mi; the API stays in km */
  distance_unit: 'auto' as DistanceUnitSetting,
  /**
   * the base map of every map: the site's own tiles (OpenStreetMap's standard map until they are
   * built), OpenStreetMap's, or a provider's
   */
  map_base: 'own' as MapBase,
  /** a provider's tile URL template (https, with {z}, {x}, {y}; {key} takes map_provider_key) */
  map_provider_url: '',
  map_provider_attribution: '',
  map_provider_max_zoom: 19,
  /** public by nature: the browser puts it in each tile URL (providers restrict keys by origin) */
  map_provider_key: '',
  /** the /privacy page's text per language, as the administrator writes it; empty: the site's default text in that language */
  privacy_policy: noTexts(),
  /** the /terms page's text per language; empty: the site's default text */
  terms_of_service: noTexts(),
  /** where the footer's social buttons lead; a network without a link has no button */
  social_links: Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, ''])) as Record<SocialNetwork, string>,
};

export type Settings = typeof DEFAULT_SETTINGS;
