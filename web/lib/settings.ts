// The public settings (GET /api/settings), normalised: SPEC.md section 3 says lists may arrive as
// JSON strings and two fields under camelCase names too.
import { useQuery } from '@tanstack/react-query';
import { DEFAULT_FONT, DEFAULT_PRIMARY, DEFAULT_SECONDARY } from './color';
import { LANGUAGES, type Lang } from './i18n';
import { distanceUnit, type DistanceUnit } from './format';
import { SOCIAL_NETWORKS, type SocialNetwork } from '../../src/site-content';
import { safeLink } from './media';
import { getJson } from './rest';
import { DEFAULT_BASE_MAP, normalizeBaseMap, type BaseMapSettings } from './baseMap';

export const DEFAULT_SITE_TITLE = 'Find Services Near You';

export interface SiteSettings {
  siteTitle: string;
  logoUrl: string;
  primaryColor: string;
  secondaryColor: string;
  fontFamily: string;
  defaultCity: string;
  allowedCategories: string[];
  contactEmail: string;
  languages: Lang[];
  /** auto, km or mi */
  distanceUnit: string;
  baseMap: BaseMapSettings;
  /** the /privacy page's text by language; empty: the default text */
  privacyPolicy: Record<Lang, string>;
  /** the /terms page's text by language; empty: the default text */
  termsOfService: Record<Lang, string>;
  /** the networks the admin linked, and where to */
  socialLinks: { network: SocialNetwork; url: string }[];
}

const noTexts = (): Record<Lang, string> => Object.fromEntries(LANGUAGES.map((lang) => [lang, ''])) as Record<Lang, string>;

export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  siteTitle: DEFAULT_SITE_TITLE,
  logoUrl: '',
  primaryColor: DEFAULT_PRIMARY,
  secondaryColor: DEFAULT_SECONDARY,
  fontFamily: DEFAULT_FONT,
  defaultCity: '',
  allowedCategories: [],
  contactEmail: '',
  languages: [...LANGUAGES],
  distanceUnit: 'auto',
  baseMap: DEFAULT_BASE_MAP,
  privacyPolicy: noTexts(),
  termsOfService: noTexts(),
  socialLinks: [],
};

function textList(value: unknown): string[] {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      list = value.split(',');
    }
  }
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string').map((item) => item.trim()).filter(Boolean) : [];
}

const text = (...values: unknown[]): string => {
  const found = values.find((value) => typeof value === 'string' && value.trim() !== '');
  return typeof found === 'string' ? found.trim() : '';
};

/** A text per language from an object of them; anything else is empty. */
function textsByLanguage(value: unknown): Record<Lang, string> {
  const texts = noTexts();
  if (value && typeof value === 'object') {
    for (const lang of LANGUAGES) texts[lang] = text((value as Record<string, unknown>)[lang]);
  }
  return texts;
}

export function normalizeSettings(raw: unknown): SiteSettings {
  const s = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const languages = textList(s.languages).filter((lang): lang is Lang => LANGUAGES.includes(lang as Lang));
  return {
    siteTitle: text(s.site_title, s.siteTitle) || DEFAULT_SITE_TITLE,
    logoUrl: text(s.logo_url, s.logoUrl),
    primaryColor: text(s.primary_color, s.primaryColor) || DEFAULT_PRIMARY,
    secondaryColor: text(s.secondary_color, s.secondaryColor) || DEFAULT_SECONDARY,
    fontFamily: text(s.font_family, s.fontFamily) || DEFAULT_FONT,
    defaultCity: text(s.default_city, s.defaultCity),
    allowedCategories: textList(s.allowed_categories ?? s.allowedCategories),
    contactEmail: text(s.contact_email, s.contactEmail),
    languages: languages.length > 0 ? languages : [...LANGUAGES],
    distanceUnit: text(s.distance_unit) || 'auto',
    baseMap: normalizeBaseMap(s),
    privacyPolicy: textsByLanguage(s.privacy_policy),
    termsOfService: textsByLanguage(s.terms_of_service),
    socialLinks: SOCIAL_NETWORKS.flatMap((network) => {
      const given = s.social_links && typeof s.social_links === 'object' ? (s.social_links as Record<string, unknown>)[network] : null;
      const url = safeLink(typeof given === 'string' ? given : null);
      return url ? [{ network, url }] : [];
    }),
  };
}

export const SETTINGS_QUERY_KEY = ['settings'] as const;

/** The settings, defaults while loading or when the call fails (a failure is only logged). */
export function useSettings() {
  const query = useQuery({
    queryKey: SETTINGS_QUERY_KEY,
    queryFn: async ({ signal }) => normalizeSettings(await getJson<unknown>('/api/settings', signal)),
  });
  return { ...query, settings: query.data ?? DEFAULT_SITE_SETTINGS };
}

/** The unit distances are shown in: the admin's setting, else the visitor's locale. */
export function useDistanceUnit(): DistanceUnit {
  const { settings } = useSettings();
  return distanceUnit(settings.distanceUnit, typeof navigator === 'undefined' ? undefined : navigator.language);
}
