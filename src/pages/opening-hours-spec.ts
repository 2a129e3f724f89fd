// OSM `opening_hours` -> schema.org `openingHoursSpecification`, as Google's local-business
// guidance writes hours: one specification per set of days with the same opening and closing;
// past midnight as one specification whose `closes` is before its `opens` (Fr 22:00 -> 02:00);
// a whole day as 00:00-23:59; a day closed all day as 00:00-00:00. Only a value whose every week
// is the same (no public or school holidays, dates, sunrise, or open-ended or commented times)
// converts exactly; for anything else there is no specification rather than a wrong one.
import OpeningHours from 'opening_hours';

export interface HoursSpecification {
  '@type': 'OpeningHoursSpecification';
  dayOfWeek: string[];
  opens: string;
  closes: string;
}

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const DAY_MS = 86_400_000;
const OPTIONS = {
  tag_key: 'opening_hours',
  mode: undefined,
  map_value: false,
  warnings_severity: undefined,
  locale: 'en',
};

// A week without a daylight-saving change in either hemisphere: Monday 8 January 2024 (local
// time: the library reads and answers wall-clock times in the process's zone).
const weekStart = () => new Date(2024, 0, 8);
const dayStart = (at: Date) => new Date(at.getFullYear(), at.getMonth(), at.getDate());
const nextDay = (day: Date) => new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1);
const hhmm = (at: Date) => `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
const weekday = (at: Date) => (at.getDay() + 6) % 7;

function parse(value: string): OpeningHours | null {
  const original = console.error;
  console.error = () => {}; // the library writes to the console before throwing on some values
  try {
    const hours = new OpeningHours(value, null as never, OPTIONS as never);
    return hours.isWeekStable() ? hours : null;
  } catch {
    return null;
  } finally {
    console.error = original;
  }
}

/** The specifications of `value`, or null when it cannot be said exactly (or is empty). */
const SPECIFICATIONS_KEPT = 5000;
/**
 * A value's specification, worked out once (the same values come back on many pages, and a place's
 * in each of its languages): the same array is given each time, to be read, never changed.
 */
const specifications = new Map<string, HoursSpecification[] | null>();

export function openingHoursSpecification(value: string | null | undefined): HoursSpecification[] | null {
  const text = value?.trim();
  if (!text) return null;
  let specification = specifications.get(text);
  if (specification === undefined) {
    specification = specify(text);
    specifications.set(text, specification);
    if (specifications.size > SPECIFICATIONS_KEPT) specifications.delete(specifications.keys().next().value!);
  }
  return specification;
}

function specify(text: string): HoursSpecification[] | null {
  const hours = parse(text);
  if (!hours) return null;
  const monday = weekStart();
  const nextMonday = new Date(monday.getTime() + 7 * DAY_MS);
  const sunday = new Date(monday.getTime() - DAY_MS);
  // From the Sunday before to the Tuesday after: every interval of the week is seen whole.
  const intervals = hours.getOpenIntervals(sunday, new Date(nextMonday.getTime() + DAY_MS));
  // (day, opens, closes) per open stretch of a day, by the day it opens on
  const stretches: [number, string, string][] = [];
  for (const [from, to, unknown, comment] of intervals) {
    if (unknown || comment) return null;
    // the tail of last Sunday's past-midnight stretch: this week's Sunday gives it already
    if (from.getTime() < monday.getTime()) {
      if (from.getTime() > sunday.getTime() && to.getTime() < monday.getTime() + DAY_MS) continue;
    }
    let cursor = from.getTime() < monday.getTime() ? monday : from;
    while (cursor.getTime() < to.getTime() && cursor.getTime() < nextMonday.getTime()) {
      const end = nextDay(dayStart(cursor));
      if (to.getTime() <= end.getTime()) {
        stretches.push([weekday(cursor), hhmm(cursor), to.getTime() === end.getTime() ? '23:59' : hhmm(to)]);
        break;
      }
      // ends during the next day, having opened during this one: one stretch past midnight
      if (cursor.getTime() !== dayStart(cursor).getTime() && to.getTime() < end.getTime() + DAY_MS) {
        stretches.push([weekday(cursor), hhmm(cursor), hhmm(to)]);
        break;
      }
      stretches.push([weekday(cursor), hhmm(cursor), '23:59']);
      cursor = end;
    }
  }
  if (stretches.length === 0) return null;
  const openDays = new Set(stretches.map(([day]) => day));
  for (let day = 0; day < 7; day++) if (!openDays.has(day)) stretches.push([day, '00:00', '00:00']);
  // one specification per (opens, closes), its days in week order
  const byTimes = new Map<string, { days: Set<number>; opens: string; closes: string }>();
  for (const [day, opens, closes] of stretches) {
    const key = `${opens}-${closes}`;
    const entry = byTimes.get(key) ?? { days: new Set<number>(), opens, closes };
    entry.days.add(day);
    byTimes.set(key, entry);
  }
  return [...byTimes.values()]
    .map((entry) => ({ first: Math.min(...entry.days), entry }))
    .sort((a, b) => a.first - b.first || a.entry.opens.localeCompare(b.entry.opens))
    .map(({ entry }) => ({
      '@type': 'OpeningHoursSpecification' as const,
      dayOfWeek: [...entry.days].sort((a, b) => a - b).map((day) => DAY_NAMES[day]),
      opens: entry.opens,
      closes: entry.closes,
    }));
}
