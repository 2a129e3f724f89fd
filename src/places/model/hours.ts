// opening_hours -> open / closing soon / closed / unknown, at the place's own local time, with
// its country's public holidays where the opening_hours library knows them.
//
// The library reads dates through the process's local time (getHours(), getDay()...). So the
// place's wall-clock time is rebuilt as a process-local Date ("shifted time") and the library
// works on that; nothing depends on the server's time zone.
import OpeningHours from 'opening_hours';
import type { Lang } from '../../i18n.js';

export type OpenStatus = 'open' | 'closing_soon' | 'closed' | 'unknown';

export const CLOSING_SOON_MS = 60 * 60 * 1000;

/** Evaluate as the opening_hours key (time ranges), warnings in English. */
const OPTIONS = {
  tag_key: 'opening_hours',
  mode: undefined,
  map_value: false,
  warnings_severity: undefined,
  locale: 'en',
};

export const STATUS_LABELS: Readonly<Record<Lang, Readonly<Record<OpenStatus, string>>>> = {
  en: { open: 'Open now', closing_soon: 'Closing soon', closed: 'Closed', unknown: 'Hours unknown' },
  es: { open: 'Abierto ahora', closing_soon: 'Cierra pronto', closed: 'Cerrado', unknown: 'Horario desconocido' },
  pt: { open: 'Aberto agora', closing_soon: 'Fecha em breve', closed: 'Fechado', unknown: 'Horário desconhecido' },
  it: { open: 'Aperto ora', closing_soon: 'Chiude a breve', closed: 'Chiuso', unknown: 'Orari sconosciuti' },
  fr: { open: 'Ouvert maintenant', closing_soon: 'Ferme bientôt', closed: 'Fermé', unknown: 'Horaires inconnus' },
};

export interface HoursPlace {
  openingHours: string | null;
  /** where openingStatus() keeps this place's status while it holds (a cached place's own memo) */
  held?: HeldStatus;
  lat: number;
  lon: number;
  /** IANA zone of the place, e.g. America/Vancouver */
  timezone: string | null;
  /** ISO 3166-1 alpha-2 (any case), for public holidays */
  country: string | null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClockParts(ms: number, timeZone: string): number[] {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(ms)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return [parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second];
}

/**
 * The last shift per zone and minute: a search evaluates many places of a few zones at one
 * instant, and the searches of one minute share it (zone offsets change on whole minutes).
 */
const lastShift = new Map<string, { minute: number; tz: string; shift: number }>();

/**
 * The process's own zone as the caches key it: process.env.TZ, or a NUL (no environment value
 * holds one) when unset, which is not the same zone as TZ=''. Read it once per search (each read
 * costs ~0.2 µs) and pass it on: a default parameter would read it again for an undefined.
 */
export const processZone = (): string => process.env.TZ ?? '\u0000';

/**
 * A Date whose process-local fields show the wall-clock time at `ms` in `timeZone`. (In the one
 * hour a year that the *server's* zone skips, the result is an hour late; servers run on UTC.)
 */
export function shiftedTime(ms: number, timeZone: string, tz = processZone()): Date {
  return new Date(shiftedMs(ms, timeZone, tz));
}

/** `tz`: the process's own zone (processZone(), read once by the caller). */
function shiftedMs(ms: number, timeZone: string, tz: string): number {
  const minuteOf = Math.floor(ms / 60_000);
  const last = lastShift.get(timeZone);
  // the process's own zone is part of the key: it shapes the result
  if (last && last.minute === minuteOf && last.tz === tz) return ms + last.shift;
  const [year, month, day, hour, minute, second] = wallClockParts(ms, timeZone);
  const shifted = new Date(year, month, day, hour, minute, second, ms % 1000).getTime();
  lastShift.set(timeZone, { minute: minuteOf, tz, shift: shifted - ms });
  return shifted;
}

// The library writes to console.error before throwing on some values (e.g. `PH` in a country
// it has no holidays for). Those are answered "unknown"; the noise would flood the log.
function quietly<T>(evaluate: () => T): T {
  const original = console.error;
  console.error = () => {};
  try {
    return evaluate();
  } finally {
    console.error = original;
  }
}

const holidaySupport = new Map<string, boolean>();

/** Whether the library has `PH` or `SH` days for a country. */
export function knowsHolidays(country: string, kind: 'PH' | 'SH'): boolean {
  const key = `${country}:${kind}`;
  let known = holidaySupport.get(key);
  if (known === undefined) {
    known = quietly(() => {
      try {
        new OpeningHours(
          `${kind} off`,
          { lat: 0, lon: 0, address: { country_code: country, state: '' } },
          OPTIONS,
        ).getState(new Date(2024, 0, 1));
        return true;
      } catch {
        return false;
      }
    });
    holidaySupport.set(key, known);
  }
  return known;
}

const SUN_WORDS = /sunrise|sunset|dawn|dusk/;
const PARSED_CACHE_SIZE = 5000;
/** Parsing costs ~0.3 ms and the same few thousand values come back on every search. */
const parsed = new Map<string, OpeningHours | null>();

/** What a parse depends on: the value and country, and for sun times the rough position. */
function parseKey(value: string, country: string, lat: number, lon: number): string {
  return SUN_WORDS.test(value) ? `${value}\n${country}\n${lat.toFixed(1)}\n${lon.toFixed(1)}` : `${value}\n${country}`;
}

function parse(value: string, country: string, lat: number, lon: number): OpeningHours | null {
  const key = parseKey(value, country, lat, lon);
  const hit = parsed.get(key);
  if (hit !== undefined) {
    parsed.delete(key); // re-inserted below: Map order is the LRU order
    parsed.set(key, hit);
    return hit;
  }
  let hours: OpeningHours | null;
  try {
    // The library only reads lat/lon given as strings (as Nominatim sends them), whatever its
    // types say; numbers silently give sunrise 06:00 and sunset 18:00 everywhere.
    const location = { lat: String(lat), lon: String(lon), address: { country_code: country, state: '' } };
    hours = quietly(
      () => new OpeningHours(value, location as unknown as ConstructorParameters<typeof OpeningHours>[1], OPTIONS),
    );
  } catch {
    hours = null;
  }
  parsed.set(key, hours);
  if (parsed.size > PARSED_CACHE_SIZE) parsed.delete(parsed.keys().next().value!);
  return hours;
}

/** Keeps a longitude within -180..180. */
function wrapLongitude(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/**
 * A status holds from one change of the hours to the next (or until "closing soon" starts), so
 * it is kept per value, zone and place-clock shift, and reused while the clock is within that
 * span: a search evaluates a hundred places, most of them sharing a few dozen values.
 */
export interface HeldStatus {
  status: OpenStatus;
  /** the zone it was worked out in, and the process's own (processZone()) */
  zone: string;
  tz: string;
  /** the place's wall clock minus the real clock when it was computed (a DST change misses) */
  shiftMs: number;
  from: number;
  until: number;
}
const HELD_MAX = 20_000;
/** How far ahead a held status is ever trusted, whatever the hours say. */
const HOLD_MS = 6 * 60 * 60 * 1000;
const held = new Map<string, HeldStatus>();

/**
 * The place's status at `nowMs`; "unknown" whenever the hours are missing or cannot be evaluated.
 * `tz` is the process's own zone: a search of a hundred places reads it once (processZone()).
 */
export function openingStatus(place: HoursPlace, nowMs: number, tz = processZone()): OpenStatus {
  return evaluateStatus(place, nowMs, true, tz);
}

/** openingStatus() without the held statuses: the tests compare the two. */
export function freshOpeningStatus(place: HoursPlace, nowMs: number): OpenStatus {
  return evaluateStatus(place, nowMs, false, processZone());
}

function evaluateStatus(place: HoursPlace, nowMs: number, useHeld: boolean, tz: string): OpenStatus {
  // The place's own memo first: no key to build (a search's hundred places, again and again).
  const memo = useHeld ? place.held : undefined;
  if (memo && nowMs >= memo.from && nowMs < memo.until && memo.tz === tz && stillShifted(memo, nowMs, tz))
    return memo.status;
  const value = place.openingHours?.trim();
  if (!value) return 'unknown';
  const country = (place.country ?? '').toLowerCase();
  // Without the country's holidays a `PH off` rule cannot be evaluated honestly.
  if (/\bPH\b/.test(value) && !(country && knowsHolidays(country, 'PH'))) return 'unknown';
  if (/\bSH\b/.test(value) && !(country && knowsHolidays(country, 'SH'))) return 'unknown';

  const timeZone = place.timezone ?? 'UTC';
  let at: Date;
  try {
    at = shiftedTime(nowMs, timeZone, tz);
  } catch {
    return 'unknown'; // a zone this runtime does not know
  }
  // Sun times come from the coordinates at real instants; moving the longitude by the shift
  // (15 degrees an hour) moves sunrise and sunset into the shifted time the library works in.
  const shiftMs = at.getTime() - nowMs;
  const lon = wrapLongitude(place.lon - (15 * shiftMs) / 3_600_000);
  const key = `${timeZone}\n${tz}\n${parseKey(value, country, place.lat, lon)}`;
  const hit = useHeld ? held.get(key) : undefined;
  if (hit && hit.shiftMs === shiftMs && nowMs >= hit.from && nowMs < hit.until) {
    if ('held' in place) place.held = hit;
    return hit.status;
  }

  const hours = parse(value, country, place.lat, lon);
  if (!hours) return 'unknown';
  let status: OpenStatus;
  let until: number; // in the place's shifted time
  try {
    [status, until] = quietly((): [OpenStatus, number] => {
      // The next change of state (or of knowing it), at most HOLD_MS ahead.
      const change = hours.getNextChange(at, new Date(at.getTime() + HOLD_MS));
      const next = change?.getTime() ?? at.getTime() + HOLD_MS;
      if (hours.getUnknown(at)) return ['unknown', next];
      if (!hours.getState(at)) return ['closed', next];
      // Open: "closing soon" within the hour before a change to closed (not to unknown).
      if (next - at.getTime() > CLOSING_SOON_MS) return ['open', next - CLOSING_SOON_MS];
      const closes = change !== undefined && !hours.getState(change) && !hours.getUnknown(change);
      return [closes ? 'closing_soon' : 'open', next];
    });
  } catch {
    return 'unknown';
  }
  if (!useHeld) return status;
  if (held.size >= HELD_MAX) held.clear();
  const entry: HeldStatus = { status, zone: timeZone, tz, shiftMs, from: nowMs, until: nowMs + (until - at.getTime()) };
  held.set(key, entry);
  if ('held' in place) place.held = entry;
  return status;
}

/** Whether the place's clock is still shifted as when `memo` was worked out (no DST change since). */
function stillShifted(memo: HeldStatus, nowMs: number, tz: string): boolean {
  try {
    return shiftedMs(nowMs, memo.zone, tz) - nowMs === memo.shiftMs;
  } catch {
    return false;
  }
}

export function statusLabel(status: OpenStatus, lang: Lang): string {
  return STATUS_LABELS[lang][status];
}

export interface DayHours {
  /** the place's local date, YYYY-MM-DD */
  date: string;
  /** 0 = Monday ... 6 = Sunday */
  weekday: number;
  today: boolean;
  /** local times "HH:MM"-"HH:MM" ("24:00" for the end of the day), in order */
  intervals: { from: string; to: string }[];
}

export interface WeekHours {
  timezone: string;
  /** Monday to Sunday of the place's current week, in its own time zone */
  days: DayHours[];
  /** the next opening or closing within a week; null when none or unknown */
  next_change: { at: string; local_time: string; weekday: number; opens: boolean; in_minutes: number } | null;
}

const pad = (n: number) => String(n).padStart(2, '0');
const localDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const localTime = (d: Date) => `${pad(d.getHours())}:${pad(d.getMinutes())}`;
const mondayFirst = (d: Date) => (d.getDay() + 6) % 7;

/**
 * The place's week of opening hours (the page's table) and its next change, at its own local
 * time. Null when the hours are missing or cannot be evaluated (the status is then `unknown`).
 */
export function weekHours(place: HoursPlace, nowMs: number): WeekHours | null {
  const value = place.openingHours?.trim();
  if (!value || openingStatus(place, nowMs) === 'unknown') return null;
  const timeZone = place.timezone ?? 'UTC';
  const at = shiftedTime(nowMs, timeZone);
  const shiftHours = (at.getTime() - nowMs) / 3_600_000;
  const hours = parse(
    value,
    (place.country ?? '').toLowerCase(),
    place.lat,
    wrapLongitude(place.lon - 15 * shiftHours),
  );
  if (!hours) return null;
  const monday = new Date(at.getFullYear(), at.getMonth(), at.getDate() - mondayFirst(at));
  try {
    return quietly(() => {
      const days: DayHours[] = [];
      for (let i = 0; i < 7; i++) {
        const start = new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + i);
        const end = new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + i + 1);
        const intervals = hours
          .getOpenIntervals(start, end)
          .filter(([, , unknown]) => !unknown)
          .map(([from, to]) => ({
            from: localTime(from),
            to: to.getTime() >= end.getTime() ? '24:00' : localTime(to),
          }));
        days.push({ date: localDate(start), weekday: i, today: localDate(start) === localDate(at), intervals });
      }
      const change = hours.getNextChange(at, new Date(at.getTime() + 7 * 86_400_000));
      const next_change = change
        ? {
            at: new Date(nowMs + (change.getTime() - at.getTime())).toISOString(),
            local_time: localTime(change),
            weekday: mondayFirst(change),
            opens: hours.getState(change),
            // from the server's clock, so a page need not trust the visitor's
            in_minutes: Math.round((change.getTime() - at.getTime()) / 60_000),
          }
        : null;
      return { timezone: timeZone, days, next_change };
    });
  } catch {
    return null;
  }
}

/** A place's state when the visitor gets there, in its own local time. */
export interface Arrival {
  status: OpenStatus;
  /** local "HH:MM" of the arrival */
  arrives: string;
  /**
   * open on arrival: when it closes next ("HH:MM", within the hold); closed on arrival but open
   * now: when it closes before the visitor gets there; else null
   */
  closes: string | null;
  /** closed on arrival: when it opens next ("HH:MM", within a day), else null */
  opens: string | null;
}

const DAY_MS = 86_400_000;

/**
 * The status at `arriveMs` (openingStatus() then), with the times a card says about it: "open,
 * closes 19:30" or "closed when you arrive (closes 19:00)".
 */
export function arrivalAt(place: HoursPlace, nowMs: number, arriveMs: number, tz = processZone()): Arrival {
  const status = openingStatus({ ...place, held: undefined }, arriveMs, tz);
  const timeZone = place.timezone ?? 'UTC';
  let at: Date;
  try {
    at = shiftedTime(arriveMs, timeZone, tz);
  } catch {
    return { status: 'unknown', arrives: '', closes: null, opens: null };
  }
  const arrival: Arrival = { status, arrives: localTime(at), closes: null, opens: null };
  if (status === 'unknown') return arrival;
  const shiftHours = (at.getTime() - arriveMs) / 3_600_000;
  const hours = parse(
    place.openingHours!.trim(),
    (place.country ?? '').toLowerCase(),
    place.lat,
    wrapLongitude(place.lon - 15 * shiftHours),
  );
  if (!hours) return arrival;
  quietly(() => {
    try {
      if (status !== 'closed') {
        const change = hours.getNextChange(at, new Date(at.getTime() + DAY_MS));
        if (change && !hours.getState(change)) arrival.closes = localTime(change);
        return;
      }
      // Closed on arrival: did it close on the way (open now)? Then when, else when it opens.
      const now = new Date(at.getTime() - (arriveMs - nowMs));
      if (hours.getState(now)) {
        const change = hours.getNextChange(now, at);
        if (change) arrival.closes = localTime(change);
      }
      const opening = hours.getNextChange(at, new Date(at.getTime() + DAY_MS));
      if (opening && hours.getState(opening)) arrival.opens = localTime(opening);
    } catch {
      // a value the library cannot step through: the status alone
    }
  });
  return arrival;
}
