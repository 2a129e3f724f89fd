// Site settings: one key/value row each, JSON-encoded; defaults fill what was never saved.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { Db } from '../../db/index.js';
import { CATEGORY_IDS } from '../places/model/category-ids.js';
import { LANGUAGES, type Lang } from '../i18n.js';
import { adminProcedure, publicProcedure, router } from '../trpc/init.js';
import { audit } from './audit.js';
import { listOf, ok, optionalHttpUrl } from './schemas.js';
import { FONTS } from '../fonts.js';
import { bumpVersion, readVersioned } from '../shared/settings-cache.js';
import { MAP_BASES, MAX_ZOOM_LIMIT, attributionProblem, tileKeyProblem, tileTemplateProblem } from '../map/base-map.js';
import {
  DEFAULT_SETTINGS,
  DISTANCE_UNITS,
  LEGAL_TEXT_MAX,
  noTexts,
  SOCIAL_NETWORKS,
  type Settings,
  type SocialNetwork,
} from '../site-settings.js';

/** The data_versions row that says when the settings last changed. */
const SETTINGS_VERSION = 'settings';

const colour = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #3B82F6');

/** A zod check from one of base-map.ts's `...Problem` functions. */
const checked = (max: number, problem: (value: string) => string | null) =>
  z
    .string()
    .trim()
    .max(max)
    .superRefine((value, context) => {
      const found = problem(value);
      if (found) context.addIssue({ code: z.ZodIssueCode.custom, message: found });
    });

const ZOOM_RANGE = `must be a whole number from 1 to ${MAX_ZOOM_LIMIT}`;

/** A legal page's texts: any of the five languages (one left out is empty), plain text with blank lines between paragraphs. */
const legalTexts = z
  .object(
    Object.fromEntries(
      LANGUAGES.map((lang) => [lang, z.string().max(LEGAL_TEXT_MAX, `must be at most ${LEGAL_TEXT_MAX} characters`)]),
    ) as Record<Lang, z.ZodString>,
    {
      invalid_type_error: `must be an object of texts by language (${LANGUAGES.join(', ')})`,
    },
  )
  .partial()
  .strict()
  .transform((texts) => ({
    ...noTexts(),
    ...Object.fromEntries(Object.entries(texts).map(([lang, text]) => [lang, text.trim()])),
  }));

const socialLinks = z
  .object(
    Object.fromEntries(SOCIAL_NETWORKS.map((network) => [network, optionalHttpUrl])) as Record<
      SocialNetwork,
      typeof optionalHttpUrl
    >,
    {
      invalid_type_error: `must be an object of links by network (${SOCIAL_NETWORKS.join(', ')})`,
    },
  )
  .partial()
  .strict()
  .transform((links) => ({ ...DEFAULT_SETTINGS.social_links, ...links }));

const settingsInput = z
  .object({
    site_title: z.string().trim().min(1, 'is required').max(100),
    siteTitle: z.string().trim().min(1, 'is required').max(100),
    logo_url: optionalHttpUrl,
    primary_color: colour,
    secondary_color: colour,
    font_family: z.enum(FONTS, { message: `must be one of: ${FONTS.join('; ')}` }),
    fontFamily: z.enum(FONTS, { message: `must be one of: ${FONTS.join('; ')}` }),
    default_city: z.string().trim().max(100),
    allowed_categories: listOf(z.enum(CATEGORY_IDS, { message: 'contains an unknown category' })),
    contact_email: z.union([z.literal(''), z.string().trim().email('must be an email address').max(254)]),
    languages: listOf(z.enum(LANGUAGES, { message: `must be among ${LANGUAGES.join(', ')}` })),
    distance_unit: z.enum(DISTANCE_UNITS, { message: "must be 'auto', 'km' or 'mi'" }),
    map_base: z.enum(MAP_BASES, { message: `must be one of: ${MAP_BASES.join(', ')}` }),
    map_provider_url: z.union([z.literal(''), checked(2000, tileTemplateProblem)]),
    map_provider_attribution: checked(300, attributionProblem),
    map_provider_max_zoom: z.coerce.number().int(ZOOM_RANGE).min(1, ZOOM_RANGE).max(MAX_ZOOM_LIMIT, ZOOM_RANGE),
    map_provider_key: checked(200, tileKeyProblem),
    privacy_policy: legalTexts,
    terms_of_service: legalTexts,
    social_links: socialLinks,
  })
  .partial()
  .strip();

/**
 * The settings: read on every search, so cached per process and checked for changes each time.
 * One object shared by every request of the process, frozen (see readVersioned).
 */
export async function readSettings(db: Db): Promise<Readonly<Settings>> {
  return readVersioned(db, SETTINGS_VERSION, async () => {
    const rows = await db.selectFrom('settings').select(['key', 'value']).execute();
    const loaded: Settings = structuredClone(DEFAULT_SETTINGS);
    for (const row of rows) {
      if (row.key in loaded) (loaded as Record<string, unknown>)[row.key] = JSON.parse(row.value);
    }
    return loaded;
  });
}

/** A provider chosen as the base map needs its tiles' address, its attribution and, when its URL takes one, its key. */
function requireCompleteProvider(settings: Settings): void {
  if (settings.map_base !== 'provider') return;
  const missing = !settings.map_provider_url
    ? 'map_provider_url'
    : !settings.map_provider_attribution
      ? 'map_provider_attribution'
      : settings.map_provider_url.includes('{key}') && !settings.map_provider_key
        ? 'map_provider_key'
        : null;
  if (missing) throw new TRPCError({ code: 'BAD_REQUEST', message: `${missing}: is required` });
}

export const settingsRouter = router({
  get: publicProcedure.query(({ ctx }) => readSettings(ctx.db)),

  save: adminProcedure.input(settingsInput).mutation(async ({ ctx, input }) => {
    const { siteTitle, fontFamily, ...rest } = input;
    const values: Partial<Settings> = { ...rest };
    // The snake_case name wins when a client sends both spellings.
    if (values.site_title === undefined && siteTitle !== undefined) values.site_title = siteTitle;
    if (values.font_family === undefined && fontFamily !== undefined) values.font_family = fontFamily;
    if (values.allowed_categories) values.allowed_categories = [...new Set(values.allowed_categories)];
    if (values.languages) values.languages = [...new Set(values.languages)];

    requireCompleteProvider({ ...(await readSettings(ctx.db)), ...values });
    await ctx.db.transaction().execute(async (trx) => {
      for (const [key, value] of Object.entries(values)) {
        if (value === undefined) continue;
        await trx
          .insertInto('settings')
          .values({ key, value: JSON.stringify(value) })
          .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value) }))
          .execute();
      }
      await audit(trx, ctx.session, 'settings.save', { keys: Object.keys(values) });
      // In the same transaction: every process sees the new settings with the new version.
      await bumpVersion(trx, SETTINGS_VERSION);
    });
    return ok;
  }),
});
