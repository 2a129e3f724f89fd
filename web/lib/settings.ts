// The public settings (GET /api/settings) as the public pages use them: named in camelCase, and
// read leniently (lists may arrive as JSON strings, and each field under its camelCase name too),
// with the defaults of src/site-settings.ts for what is missing.
import { useQuery } from '@tanstack/react-query';
import { createContext, createElement, useContext, useMemo, type ReactNode } from 'react';
import { LANGUAGES, type Lang } from './i18n';
import { distanceUnit, type DistanceUnit } from './format';
import { getJson } from './rest';
import { normalizeBaseMap, type BaseMapSettings } from './baseMap';
import {
  DEFAULT_SETTINGS,
  DISTANCE_UNITS,
  noTexts,
  SOCIAL_NETWORKS,
  type Settings,
  type SocialNetwork,
} from '../../src/site-settings';
import { safeLink } from './media';

export const DEFAULT_SITE_TITLE = DEFAULT_SETTINGS.site_title;

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
  distanceUnit: Settings['distance_unit'];
  baseMap: BaseMapSettings;
  /** the /privacy page's text by language; empty: the default text */
  privacyPolicy: Record<Lang, string>;
  /** the /terms page's text by language; empty: the default text */
  termsOfService: Record<Lang, string>;
  /** the networks the admin linked, and where to */
  socialLinks: { network: SocialNetwork; url: string }[];
}

function textList(value: unknown): string[] {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      list = value.split(',');
    }
  }
  return Array.isArray(list)
    ? list
        .filter((item): item is string => typeof item === 'string')
        .map((item) => item.trim())
        .filter(Boolean)
    : [];
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
    siteTitle: text(s.site_title, s.siteTitle) || DEFAULT_SETTINGS.site_title,
    logoUrl: text(s.logo_url, s.logoUrl),
    primaryColor: text(s.primary_color, s.primaryColor) || DEFAULT_SETTINGS.primary_color,
    secondaryColor: text(s.secondary_color, s.secondaryColor) || DEFAULT_SETTINGS.secondary_color,
    fontFamily: text(s.font_family, s.fontFamily) || DEFAULT_SETTINGS.font_family,
    defaultCity: text(s.default_city, s.defaultCity),
    allowedCategories: textList(s.allowed_categories ?? s.allowedCategories),
    contactEmail: text(s.contact_email, s.contactEmail),
    languages: languages.length > 0 ? languages : [...LANGUAGES],
    distanceUnit: DISTANCE_UNITS.find((unit) => unit === text(s.distance_unit)) ?? DEFAULT_SETTINGS.distance_unit,
    baseMap: normalizeBaseMap(s),
    privacyPolicy: textsByLanguage(s.privacy_policy),
    termsOfService: textsByLanguage(s.terms_of_service),
    socialLinks: SOCIAL_NETWORKS.flatMap((network) => {
      const given =
        s.social_links && typeof s.social_links === 'object'
          ? (s.social_links as Record<string, unknown>)[network]
          : null;
      const url = safeLink(typeof given === 'string' ? given : null);
      return url ? [{ network, url }] : [];
    }),
  };
}

/** Every setting at its default: what the pages show while loading or when the call fails. */
export const DEFAULT_SITE_SETTINGS: SiteSettings = normalizeSettings(DEFAULT_SETTINGS);

export const SETTINGS_QUERY_KEY = ['settings'] as const;

export interface SettingsState {
  /** the settings, defaults while loading or when the call fails (a failure is only logged) */
  settings: SiteSettings;
  isPending: boolean;
  isFetching: boolean;
  /** when the settings were last read (0: not yet) */
  dataUpdatedAt: number;
  refetch: () => Promise<unknown>;
}

const SettingsContext = createContext<SettingsState | null>(null);

/**
 * Reads the settings once for the tree under it: each component using them reads this context
 * rather than subscribing to the query itself (a subscription per component was a good part of a
 * page's render on the server).
 */
export function SettingsProvider({ children }: { children: ReactNode }) {
  const { data, isPending, isFetching, dataUpdatedAt, refetch } = useQuery({
    queryKey: SETTINGS_QUERY_KEY,
    queryFn: async ({ signal }) => normalizeSettings(await getJson<unknown>('/api/settings', signal)),
  });
  const value = useMemo<SettingsState>(
    () => ({ settings: data ?? DEFAULT_SITE_SETTINGS, isPending, isFetching, dataUpdatedAt, refetch }),
    [data, isPending, isFetching, dataUpdatedAt, refetch],
  );
  return createElement(SettingsContext.Provider, { value }, children);
}

/** The settings of the nearest SettingsProvider. */
export function useSettings(): SettingsState {
  const state = useContext(SettingsContext);
  if (!state) throw new Error('useSettings needs a SettingsProvider above it');
  return state;
}

/** The unit distances are shown in: the admin's setting, else the visitor's locale. */
export function useDistanceUnit(): DistanceUnit {
  const { settings } = useSettings();
  return distanceUnit(settings.distanceUnit, typeof navigator === 'undefined' ? undefined : navigator.language);
}
