// What the REST paths answer, as zod schemas: the routes table names one per route and the
// OpenAPI document (openapi.ts) is generated from them. The API tests check every answer they
// receive against that document, so a schema here that drifts from a procedure fails a test.
import { z } from 'zod';
import { CATEGORY_IDS } from '../places/model/category-ids.js';
import { MAP_BASES } from '../map/base-map.js';
import { RESULT_SHAPE } from '../places/search/results.js';
import { DEFAULT_SETTINGS, DISTANCE_UNITS, type Settings } from '../site-settings.js';

export const errorBody = z
  .object({
    error: z.string().describe('a human-readable message; for 400 it starts with the field, `field: problem`'),
    coverage: z
      .literal('none')
      .optional()
      .describe(
        "a place search's 503 only: the live source failed where the site holds no places at all around the search",
      ),
  })
  .strict()
  .describe('Every error answer');

const success = { success: z.literal(true) };
export const ok = z.object(success).strict();
export const created = z.object({ ...success, id: z.number().int() }).strict();
export const withMessage = z.object({ ...success, message: z.string() }).strict();
export const createdWithMessage = z.object({ ...success, id: z.number().int(), message: z.string() }).strict();

export const placeResult = z.object(RESULT_SHAPE).passthrough();

const hhmm = z.string().regex(/^\d\d:\d\d$/);
export const placeDetail = placeResult
  .extend({
    distance: z.number().optional().describe('kilometres from lat/lon, when given'),
    categories: z.array(z.enum(CATEGORY_IDS)).describe('every category of the place, most specific first'),
    timezone: z.string().nullable().describe('IANA zone the hours are in'),
    hours: z
      .object({
        timezone: z.string(),
        days: z
          .array(
            z.object({
              date: z.string().describe('the local date, YYYY-MM-DD'),
              weekday: z.number().int().min(0).max(6).describe('0 = Monday'),
              today: z.boolean(),
              intervals: z.array(z.object({ from: hhmm, to: hhmm })),
            }),
          )
          .length(7),
        next_change: z
          .object({
            at: z.string(),
            local_time: hhmm,
            weekday: z.number().int(),
            opens: z.boolean(),
            in_minutes: z.number().int(),
          })
          .nullable(),
      })
      .nullable()
      .describe("Monday to Sunday of the current week in the place's time zone; null when the hours are unknown"),
  })
  .strict();

export const searchResponse = z
  .object({
    results: z.array(placeResult),
    city_center: z.object({ lat: z.number(), lon: z.number() }),
    error: z.string().optional().describe('a search that found nothing for a reason the visitor can act on'),
    coverage: z
      .literal('none')
      .optional()
      .describe(
        'present when the site holds no place of any category around the search and no live source answered for it',
      ),
  })
  .strict();

/** The settings as stored, each typed from its default (site-settings.ts); the two lists of names as enums. */
const SETTING_CHOICES: Partial<Record<keyof Settings, readonly [string, ...string[]]>> = {
  distance_unit: DISTANCE_UNITS,
  map_base: MAP_BASES,
};
export const settingsResponse = z
  .object(
    Object.fromEntries(
      Object.entries(DEFAULT_SETTINGS).map(([key, value]) => {
        const choices = SETTING_CHOICES[key as keyof Settings];
        const type = choices
          ? z.enum(choices)
          : Array.isArray(value)
            ? z.array(z.string())
            : typeof value === 'number'
              ? z.number().int()
              : typeof value === 'object'
                ? z.record(z.string()) // a text by language, a link by network
                : z.string();
        return [key, type];
      }),
    ),
  )
  .passthrough();

const ad = z
  .object({ id: z.number().int(), media: z.string(), title: z.string(), link: z.string(), interval: z.number().int() })
  .strict();
const video = z
  .object({ id: z.number().int(), title: z.string(), link: z.string(), media: z.string(), enabled: z.number().int() })
  .strict();
export const adsResponse = z
  .object({
    carousel: z.array(ad),
    static: z.array(ad),
    background_videos: z.array(video),
    carousel_enabled: z.number().int(),
  })
  .strict();

const structuredDescription = z.object({ features: z.array(z.string()), languages: z.array(z.string()) });
export const plansResponse = z.array(
  z
    .object({
      id: z.number().int(),
      name: z.string(),
      price: z.number(),
      type: z.enum(['basic', 'pro', 'premium']),
      description: z.union([z.string(), structuredDescription]),
      link: z.string(),
    })
    .strict(),
);

export const visitsResponse = z
  .object({ current_visits: z.number().int(), total_visits: z.number().int(), last_reset: z.string().nullable() })
  .strict();
export const dailyResponse = z.array(
  z.object({ day: z.string().describe('YYYY-MM-DD, UTC'), count: z.number().int() }).strict(),
);

export const messagesResponse = z.array(
  z
    .object({
      id: z.number().int(),
      name: z.string(),
      email: z.string(),
      subject: z.string(),
      body: z.string(),
      status: z.enum(['unread', 'read']),
      date: z.string(),
    })
    .strict(),
);

export const statusResponse = z
  .object({
    logged_in: z.boolean(),
    username: z.string().nullable(),
    must_change_password: z.boolean(),
    login_hint: z
      .object({
        username: z.string(),
        password_source: z
          .enum(['file', 'env'])
          .describe("`file`: generated, in `password_file` on the server; `env`: the server's ADMIN_PASSWORD"),
        password_file: z.string().nullable(),
      })
      .nullable()
      .describe(
        'the first administrator, and where its password comes from, until the administrator changes it (then null); never the password',
      ),
  })
  .strict();
export const loginResponse = z.object({ ...success, must_change_password: z.boolean() }).strict();
export const usersResponse = z.array(
  z.object({ id: z.number().int(), username: z.string(), created_at: z.string() }).strict(),
);

export const keysResponse = z.array(
  z
    .object({
      id: z.number().int(),
      name: z.string(),
      key: z.string().describe('sent as the X-Api-Key header or the key query parameter'),
      origins: z.array(z.string()).describe('origins whose pages may use the key, such as https://example.org'),
      daily_limit: z.number().int().describe('requests per UTC day'),
      used_today: z.number().int(),
      created_at: z.string(),
    })
    .strict(),
);
export const createdKey = z.object({ ...success, id: z.number().int(), key: z.string() }).strict();

export const uploadResponse = z
  .object({ ...success, url: z.string(), type: z.string(), size: z.number().int() })
  .strict();
