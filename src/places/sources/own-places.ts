// The admin's own places: what one must hold, and the CSV they come in and go
// out as (`name,category,lat,lon,address,phone,website,opening_hours`, a header row, UTF-8,
// RFC 4180 quoting). Used by the admin procedures and by `npm run import -- places.csv`.
import OpeningHours from 'opening_hours';
import { CATEGORY_IDS } from '../model/category-ids.js';
import type { OwnPlace, StoredPlace } from '../store/types.js';

export const CSV_COLUMNS = ['name', 'category', 'lat', 'lon', 'address', 'phone', 'website', 'opening_hours'] as const;

/** The fields of an own place, as text (a form or a CSV line). */
export type OwnPlaceText = Partial<Record<(typeof CSV_COLUMNS)[number], string>>;

export interface FieldProblem {
  field: (typeof CSV_COLUMNS)[number];
  message: string;
}

const LIMITS = { name: 200, address: 300, phone: 50, website: 500, opening_hours: 500 } as const;

/** Why an opening_hours value is not one, or null when it is (the library's own words). */
export function openingHoursProblem(value: string): string | null {
  try {
    // Checked as the opening_hours key, with no country: the syntax is what matters here.
    new OpeningHours(value, null, { tag_key: 'opening_hours', locale: 'en' } as unknown as ConstructorParameters<
      typeof OpeningHours
    >[2]);
    return null;
  } catch (error) {
    const message = String((error as Error).message ?? error)
      .split('\n')[0]
      .trim();
    return message ? `is not valid: ${message}` : 'is not valid';
  }
}

function httpUrlProblem(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'must be an http(s) URL';
  } catch {
    return 'must be an http(s) URL';
  }
}

/** An own place from its fields as text, or every problem, by field. */
export function parseOwnPlace(
  text: OwnPlaceText,
): { place: OwnPlace; problems: [] } | { place: null; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const value = (field: (typeof CSV_COLUMNS)[number]) => (text[field] ?? '').trim();
  const optional = (field: keyof typeof LIMITS) => {
    const v = value(field);
    if (v.length > LIMITS[field]) problems.push({ field, message: `must be at most ${LIMITS[field]} characters` });
    return v || null;
  };
  const name = value('name');
  if (!name) problems.push({ field: 'name', message: 'is required' });
  else if (name.length > LIMITS.name)
    problems.push({ field: 'name', message: `must be at most ${LIMITS.name} characters` });
  const category = value('category');
  if (!category) problems.push({ field: 'category', message: 'is required' });
  else if (!(CATEGORY_IDS as readonly string[]).includes(category))
    problems.push({ field: 'category', message: `"${category}" is not one of the 34 categories` });
  const coordinate = (field: 'lat' | 'lon', limit: number) => {
    const v = value(field);
    const n = Number(v);
    if (!v) problems.push({ field, message: 'is required' });
    else if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(v) || !Number.isFinite(n))
      problems.push({ field, message: 'must be a number' });
    else if (Math.abs(n) > limit) problems.push({ field, message: `must be between -${limit} and ${limit}` });
    return Math.round(n * 1e7) / 1e7;
  };
  const lat = coordinate('lat', 90);
  const lon = coordinate('lon', 180);
  const address = optional('address');
  const phone = optional('phone');
  const website = optional('website');
  if (website && httpUrlProblem(website)) problems.push({ field: 'website', message: httpUrlProblem(website)! });
  const openingHours = optional('opening_hours');
  if (openingHours) {
    const problem = openingHoursProblem(openingHours);
    if (problem) problems.push({ field: 'opening_hours', message: problem });
  }
  if (problems.length) return { place: null, problems };
  return { place: { name, category, lat, lon, address, phone, website, openingHours }, problems: [] };
}

/** One CSV record per line of the file, RFC 4180 (quoted fields may hold commas, quotes, line breaks). */
export function parseCsvRecords(csv: string): { line: number; fields: string[] }[] {
  const text = csv.replace(/^\uFEFF/, '');
  const records: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let sawAny = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      sawAny = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      sawAny = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      if (sawAny || field !== '') records.push({ line: start, fields });
      fields = [];
      field = '';
      sawAny = false;
      line++;
      start = line;
    } else {
      field += c;
      sawAny = true;
    }
  }
  if (quoted) throw new CsvError([{ line: start, message: 'a quoted field is not closed' }]);
  if (sawAny || field !== '') {
    fields.push(field);
    records.push({ line: start, fields });
  }
  return records;
}

export class CsvError extends Error {
  override name = 'CsvError';
  constructor(readonly problems: { line: number; message: string }[]) {
    super(problems.map((p) => `line ${p.line}: ${p.message}`).join('; '));
  }
}

/** A spreadsheet formula is never written out as one: such a cell gets a leading quote, taken off on the way in. */
const FORMULA = /^[=@]/;

/** The own places of a CSV file, or a CsvError listing every problem by line (then nothing is imported). */
export function parseOwnPlacesCsv(csv: string, maxRows = 10_000): OwnPlace[] {
  const records = parseCsvRecords(csv);
  if (records.length === 0)
    throw new CsvError([{ line: 1, message: 'the file is empty; it needs the header row ' + CSV_COLUMNS.join(',') }]);
  const header = records[0].fields.map((f) => f.trim().toLowerCase());
  const missing = CSV_COLUMNS.filter((c) => !header.includes(c));
  const unknown = header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h));
  if (missing.length || unknown.length) {
    throw new CsvError([
      {
        line: records[0].line,
        message:
          `the header row must be ${CSV_COLUMNS.join(',')}` +
          (missing.length ? ` (missing: ${missing.join(', ')})` : '') +
          (unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''),
      },
    ]);
  }
  if (records.length - 1 > maxRows)
    throw new CsvError([{ line: records[maxRows + 1].line, message: `more than ${maxRows} places in one file` }]);
  const problems: { line: number; message: string }[] = [];
  const places: OwnPlace[] = [];
  for (const record of records.slice(1)) {
    if (record.fields.length !== header.length) {
      problems.push({
        line: record.line,
        message: `has ${record.fields.length} fields; the header has ${header.length}`,
      });
      continue;
    }
    const text: OwnPlaceText = {};
    header.forEach((column, i) => {
      const v = record.fields[i];
      text[column as (typeof CSV_COLUMNS)[number]] = v.startsWith("'") && FORMULA.test(v.slice(1)) ? v.slice(1) : v;
    });
    const parsed = parseOwnPlace(text);
    if (parsed.place) places.push(parsed.place);
    else for (const p of parsed.problems) problems.push({ line: record.line, message: `${p.field} ${p.message}` });
  }
  if (problems.length) throw new CsvError(problems);
  return places;
}

function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Own places as CSV, the header first, CRLF line ends (RFC 4180). */
export function ownPlacesCsv(places: StoredPlace[], categoryOf: (place: StoredPlace) => string): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const p of places) {
    rows.push(
      [p.name, categoryOf(p), p.lat, p.lon, p.address, p.phone, p.website, p.openingHours].map(csvField).join(','),
    );
  }
  return `${rows.join('\r\n')}\r\n`;
}
