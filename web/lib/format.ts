// Numbers, distances, prices and dates in the visitor's language, through Intl.
import type { Lang } from './i18n';

export type DistanceUnit = 'km' | 'mi';

// Making an Intl formatter costs far more than using one (a page's footer, hours table and prices
// made a dozen): each is made once per language and options, and kept (a few dozen in all).
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(lang: Lang, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n${lang}${JSON.stringify(options)}`;
  let format = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!format) formatters.set(key, (format = new Intl.NumberFormat(lang, options)));
  return format;
}

function dateFormat(lang: Lang, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d${lang}${JSON.stringify(options)}`;
  let format = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat(lang, options)));
  return format;
}

/** Regions whose people read road distances in miles. */
const MILE_REGIONS = new Set(['US', 'GB', 'LR', 'MM']);

/**
 * The unit to show: the site's `distance_unit` setting unless `auto`, then the visitor's locale
 * (`navigator.language`, e.g. en-US or en-GB: miles; en-IE, pt-BR: kilometres).
 */
export function distanceUnit(setting: string | undefined, locale: string | undefined): DistanceUnit {
  if (setting === 'km' || setting === 'mi') return setting;
  let region: string | undefined;
  try {
    // Only a region the visitor's locale names: a bare "en" says nothing about miles.
    region = locale ? new Intl.Locale(locale.replace('_', '-')).region : undefined;
  } catch {
    region = undefined;
  }
  return region && MILE_REGIONS.has(region) ? 'mi' : 'km';
}

const KM_PER_MILE = 1.609344;
const FEET_PER_MILE = 5280;

/**
 * A distance given in km as "350 m" / "1.2 km", or in miles as "500 ft" / "0.3 mi" / "12 mi"
 * (in the language's own digits and separators, through Intl).
 */
export function formatDistance(km: number, lang: Lang, unit: DistanceUnit = 'km'): string {
  if (unit === 'mi') {
    const miles = km / KM_PER_MILE;
    // Under a tenth of a mile, feet, as road signs and map apps count them.
    if (miles < 0.1) {
      const feet = Math.max(10, Math.round((miles * FEET_PER_MILE) / 10) * 10);
      return numberFormat(lang, { style: 'unit', unit: 'foot', maximumFractionDigits: 0 }).format(feet);
    }
    return numberFormat(lang, { style: 'unit', unit: 'mile', maximumFractionDigits: miles < 10 ? 1 : 0 }).format(miles);
  }
  if (km < 1) {
    const metres = Math.max(10, Math.round((km * 1000) / 10) * 10);
    return numberFormat(lang, { style: 'unit', unit: 'meter', maximumFractionDigits: 0 }).format(metres);
  }
  return numberFormat(lang, { style: 'unit', unit: 'kilometer', maximumFractionDigits: km < 10 ? 1 : 0 }).format(km);
}

/** US dollars: cents only when there are any ("$96", "$9.99"). */
export function formatPrice(amount: number, lang: Lang): string {
  const whole = Number.isInteger(amount);
  return numberFormat(lang, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(amount);
}

export function formatNumber(value: number, lang: Lang): string {
  return numberFormat(lang, {}).format(value);
}

// 1 January 2024 was a Monday: day 0 of this reference week.
const MONDAY = new Date(2024, 0, 1);

// Weekday names and times of day, each formatted once per language: a week of hours asks for
// fourteen or more, and the server renders a page's hours table at every first view of it.
const written = new Map<string, string>();

/** The name of a weekday, 0 = Monday ... 6 = Sunday. */
export function weekdayName(day: number, lang: Lang, width: 'long' | 'short' = 'long'): string {
  const key = `${lang} ${width} ${day}`;
  let name = written.get(key);
  if (name === undefined) {
    const date = new Date(MONDAY);
    date.setDate(MONDAY.getDate() + day);
    written.set(key, (name = dateFormat(lang, { weekday: width }).format(date)));
  }
  return name;
}

/** A time of day such as "9:00 AM" or "09:00", as the language writes it. */
export function formatTime(hour: number, minute: number, lang: Lang): string {
  const key = `${lang} ${hour}:${minute}`;
  let text = written.get(key);
  if (text === undefined) {
    const time = new Date(2024, 0, 1, hour, minute);
    written.set(key, (text = dateFormat(lang, { hour: 'numeric', minute: '2-digit' }).format(time)));
  }
  return text;
}

export function formatYear(date: Date, lang: Lang): string {
  return dateFormat(lang, { year: 'numeric' }).format(date);
}
