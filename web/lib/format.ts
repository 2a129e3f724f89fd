// Numbers, distances, prices and dates in the visitor's language, through Intl.
import type { Lang } from './i18n';

/** A distance in km as "350 m" or "1.2 km" (in the language's own digits and separators). */
export function formatDistance(km: number, lang: Lang): string {
  if (km < 1) {
    const metres = Math.max(10, Math.round((km * 1000) / 10) * 10);
    return new Intl.NumberFormat(lang, { style: 'unit', unit: 'meter', maximumFractionDigits: 0 }).format(metres);
  }
  return new Intl.NumberFormat(lang, { style: 'unit', unit: 'kilometer', maximumFractionDigits: km < 10 ? 1 : 0 }).format(km);
}

/** US dollars: cents only when there are any ("$96", "$9.99"). */
export function formatPrice(amount: number, lang: Lang): string {
  const whole = Number.isInteger(amount);
  return new Intl.NumberFormat(lang, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(amount);
}

export function formatNumber(value: number, lang: Lang): string {
  return new Intl.NumberFormat(lang).format(value);
}

// 1 January 2024 was a Monday: day 0 of this reference week.
const MONDAY = new Date(2024, 0, 1);

/** The name of a weekday, 0 = Monday ... 6 = Sunday. */
export function weekdayName(day: number, lang: Lang, width: 'long' | 'short' = 'long'): string {
  const date = new Date(MONDAY);
  date.setDate(MONDAY.getDate() + day);
  return new Intl.DateTimeFormat(lang, { weekday: width }).format(date);
}

/** A time of day such as "9:00 AM" or "09:00", as the language writes it. */
export function formatTime(hour: number, minute: number, lang: Lang): string {
  return new Intl.DateTimeFormat(lang, { hour: 'numeric', minute: '2-digit' }).format(new Date(2024, 0, 1, hour, minute));
}

export function formatYear(date: Date, lang: Lang): string {
  return new Intl.DateTimeFormat(lang, { year: 'numeric' }).format(date);
}
