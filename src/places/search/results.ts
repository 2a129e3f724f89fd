// A search result, written from one list of members into both forms of an answer: the object
// (tRPC, in-process callers) and the JSON text (GET /api/places). Each member says its type (the
// answer's TypeScript type and its OpenAPI schema, rest/responses.ts, come from it) and its value;
// a result field is one line here. The JSON text is a few concatenations: the card's fixed
// members are text already (cards.ts), and what depends on the place alone is written once a card.
import { z } from 'zod';
import { categoryName } from '../model/categories.js';
import { CATEGORY_IDS, type CategoryId } from '../model/category-ids.js';
import { statusLabel, type OpenStatus } from '../model/hours.js';
import { LANGUAGES, type Lang } from '../../i18n.js';
import type { PlaceCard } from './cards.js';

/** What a result is written from: a place and what the question makes of it. */
export interface ResultSource {
  place: PlaceCard;
  /** the most specific of the place's categories that were asked */
  category: CategoryId;
  status: OpenStatus;
  lang: Lang;
  distanceKm: number;
  /** when the search says how the visitor travels */
  trip?: Trip;
}

/** The trip's members of a result, when the search says how the visitor travels. */
export interface Trip {
  travel_minutes: number;
  status_on_arrival: OpenStatus;
  status_on_arrival_label: string;
}

interface Member<T extends z.ZodTypeAny> {
  type: T;
  /** the member's value; undefined leaves it out of the result */
  value: (r: ResultSource) => z.infer<T>;
  /** the value as JSON text (default: JSON.stringify of the value) */
  json?: (r: ResultSource) => string | undefined;
  /** depends on the place alone: its text is written once a card and kept with the card */
  fixed?: true;
  /** one of the card's stored members (cards.ts): its text is the card's */
  card?: true;
}

/** A member that depends on the question. */
const asked = <T extends z.ZodTypeAny>(type: T, value: Member<T>['value'], json?: Member<T>['json']): Member<T> => ({
  type,
  value,
  json,
});
/** A member that depends on the place alone. */
const fixed = <T extends z.ZodTypeAny>(type: T, value: Member<T>['value']): Member<T> => ({ type, value, fixed: true });
/** A member stored in the card's text; its value is read back from that text. */
const card = <T extends z.ZodTypeAny>(type: T): Member<T> => ({
  type,
  value: () => undefined,
  fixed: true,
  card: true,
});

const STATUS = z.enum(['open', 'closing_soon', 'closed', 'unknown']);

/** Kilometres to the metre: what a result's `distance` says. */
const roundedKm = (km: number) => Math.round(km * 1000) / 1000;

/** The result's members, in the answer's order. */
const MEMBERS = {
  name: asked(
    z
      .string()
      .describe(
        "in the request's language when the place has a name in it; without a name, its brand's or operator's, else its category's",
      ),
    (r) => nameOf(r),
    nameJson,
  ),
  unnamed: fixed(
    z.boolean().describe('true when nothing names the place: `name` is then its category in the singular'),
    (r) => r.place.name === null,
  ),
  category: asked(z.enum(CATEGORY_IDS), (r) => r.category),
  id: card(
    z
      .string()
      .describe("OpenStreetMap element, `node/123`, `way/4`, `relation/5`, or `own/6` for the admin's own places"),
  ),
  address: card(z.string().nullable()),
  address_source: card(
    z
      .enum(['osm', 'building', 'nearby'])
      .nullable()
      .describe(
        "`osm`: the place's own; `building`: the building or area it stands in; " +
          '`nearby`: the nearest address or street (approximate); null: none',
      ),
  ),
  phone_number: card(z.string().nullable()),
  opening_hours: card(z.string().nullable().describe('the raw OSM value')),
  website: card(z.string().nullable()),
  wheelchair: card(z.enum(['yes', 'limited', 'no']).nullable()),
  source: card(
    z.enum(['osm', 'own']).describe("`osm`: OpenStreetMap data (imported or live); `own`: the admin's own place"),
  ),
  lat: fixed(z.number(), (r) => r.place.lat),
  lon: fixed(z.number(), (r) => r.place.lon),
  distance: asked(z.number().describe('kilometres from the search position'), (r) => roundedKm(r.distanceKm)),
  status: asked(STATUS, (r) => r.status),
  status_label: asked(
    z.string().describe("the status in the request's language"),
    (r) => statusLabel(r.status, r.lang),
    (r) => LABELS[r.lang][r.status],
  ),
  travel_minutes: asked(
    z.number().int().optional().describe('with `travel`: minutes to get there (distance x 1.3 at 5, 15 or 25 km/h)'),
    (r) => r.trip?.travel_minutes,
  ),
  status_on_arrival: asked(
    STATUS.optional().describe('with `travel`: the status when the visitor gets there'),
    (r) => r.trip?.status_on_arrival,
  ),
  status_on_arrival_label: asked(
    z
      .string()
      .optional()
      .describe("with `travel`: it in the request's language, e.g. `Open, closes 19:30 (you arrive 19:12 on foot)`"),
    (r) => r.trip?.status_on_arrival_label,
  ),
};

type Members = typeof MEMBERS;
/** The zod shape of a result (the OpenAPI document's, and the API tests'). */
export const RESULT_SHAPE = Object.fromEntries(Object.entries(MEMBERS).map(([key, m]) => [key, m.type])) as {
  [K in keyof Members]: Members[K]['type'];
};
export type PlaceResult = z.infer<z.ZodObject<typeof RESULT_SHAPE>>;

/** The place's name in the request's language, else its own, else its category's. */
function nameOf({ place, category, lang }: ResultSource): string {
  return place.names?.[lang] ?? place.name ?? categoryName(category, lang);
}

/** The name as JSON text, kept on the card by language while it is the place's own. */
function nameJson(r: ResultSource): string {
  const { place, lang } = r;
  let name = place.nameJson?.[lang];
  if (name === undefined) {
    name = JSON.stringify(nameOf(r));
    // a name from the category depends on the category asked: not kept
    if ((place.names?.[lang] ?? place.name) !== null) (place.nameJson ??= {})[lang] = name;
  }
  return name;
}

/** The status labels as JSON strings, made once. */
const LABELS = Object.fromEntries(
  LANGUAGES.map((lang) => [
    lang,
    Object.fromEntries(STATUS.options.map((status) => [status, JSON.stringify(statusLabel(status, lang))])),
  ]),
) as Record<Lang, Record<OpenStatus, string>>;

const ENTRIES = Object.entries(MEMBERS) as [string, Member<z.ZodTypeAny>][];
const FIXED = ENTRIES.filter(([, m]) => m.fixed && !m.card);

/** A result as an object. */
export function resultOf(r: ResultSource): PlaceResult {
  const result: Record<string, unknown> = {};
  for (const [key, member] of ENTRIES) {
    const value = member.card ? r.place.field(key) : member.value(r);
    if (value !== undefined) result[key] = value;
  }
  return result as PlaceResult;
}

/** The JSON text of the card's members and of those that depend on the place alone. */
function fixedJson(place: PlaceCard, r: ResultSource): string {
  let text = place.json;
  for (const [key, member] of FIXED) {
    const value = member.value(r);
    if (value !== undefined) text += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
  }
  return text;
}

/** The text of each member in turn: `"key":value`, '' for one written with the fixed ones, undefined for none. */
const PARTS: ((r: ResultSource) => string | undefined)[] = ENTRIES.map(([key, member], i) => {
  if (member.fixed) {
    // the fixed members' text goes where the first of them stands
    const first = ENTRIES.findIndex(([, m]) => m.fixed) === i;
    return first ? (r) => (r.place.fixedJson ??= fixedJson(r.place, r)) : () => '';
  }
  const prefix = `${JSON.stringify(key)}:`;
  const json = member.json ?? ((r: ResultSource) => JSON.stringify(member.value(r)));
  return (r) => {
    const text = json(r);
    return text === undefined ? undefined : prefix + text;
  };
});

/** A result as JSON text: resultOf(), written without the object. */
export function resultJson(r: ResultSource): string {
  let text = '{';
  for (const part of PARTS) {
    const member = part(r);
    if (!member) continue;
    if (text.length > 1) text += ',';
    text += member;
  }
  return `${text}}`;
}

export interface SearchResponse {
  results: PlaceResult[];
  city_center: { lat: number; lon: number };
  error?: string;
  /** only when the index holds no place of any category around the search, and no live source answered */
  coverage?: 'none';
}

/**
 * A search's places, nearest first, and the centre it names: written as objects or as JSON text.
 * `noCoverage`: the site holds no place at all around the search (the answer says `coverage: none`).
 */
export class SearchAnswer {
  constructor(
    readonly places: readonly ResultSource[],
    readonly city_center: { lat: number; lon: number },
    readonly noCoverage = false,
  ) {}

  objects(): SearchResponse {
    const answer: SearchResponse = { results: this.places.map(resultOf), city_center: this.city_center };
    return this.noCoverage ? { ...answer, coverage: 'none' } : answer;
  }

  json(): string {
    let json = '{"results":[';
    for (let i = 0; i < this.places.length; i++) {
      if (i > 0) json += ',';
      json += resultJson(this.places[i]);
    }
    const centre = `"city_center":{"lat":${this.city_center.lat},"lon":${this.city_center.lon}}`;
    return `${json}],${centre}${this.noCoverage ? ',"coverage":"none"' : ''}}`;
  }
}
