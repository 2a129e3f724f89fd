// Carousel and static ads, background videos and the carousel switch.
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { Db } from '../../db/index.js';
import { isAcceptableMediaUrl } from '../media/store.js';
import type { Context } from '../trpc/context.js';
import { adminProcedure, publicProcedure, router } from '../trpc/init.js';
import { audit } from './audit.js';
import { bumpVersion, readVersioned } from '../shared/settings-cache.js';
import { flag, id, ok, optionalHttpUrl } from './schemas.js';

const adType = z.enum(['carousel', 'static'], { message: "must be 'carousel' or 'static'" });
const mediaUrl = z
  .string()
  .trim()
  .min(1, 'a file or a media URL is required')
  .max(2000)
  .refine(isAcceptableMediaUrl, 'must be an http(s) URL or an /uploads/ path');
const title = z.string().trim().max(200);
const interval = z.coerce
  .number()
  .int('must be whole milliseconds')
  .min(1000, 'must be at least 1000 ms')
  .max(600_000, 'must be at most 600000 ms');

const notFound = (what: string) => new TRPCError({ code: 'NOT_FOUND', message: `${what} not found` });

/** Deletes an upload once no ad or video points at it any more. */
async function releaseMedia(ctx: Context, media: string): Promise<void> {
  if (!ctx.services.media.isOurs(media)) return;
  const [ad, video] = await Promise.all([
    ctx.db.selectFrom('ads').select('id').where('media', '=', media).executeTakeFirst(),
    ctx.db.selectFrom('background_videos').select('id').where('media', '=', media).executeTakeFirst(),
  ]);
  if (!ad && !video) await ctx.services.media.remove(media);
}

/** The data_versions row that says when the ads, videos or the carousel switch last changed. */
const ADS_VERSION = 'ads';

/** The ads; one frozen answer per process until one changes anywhere (as listPlans). */
export function listAds(db: Db) {
  return readVersioned(db, ADS_VERSION, () => readAds(db));
}

async function readAds(db: Db) {
  const [ads, videos, carousel] = await Promise.all([
    db.selectFrom('ads').select(['id', 'kind', 'media', 'title', 'link', 'interval']).orderBy('id').execute(),
    db.selectFrom('background_videos').select(['id', 'title', 'link', 'media', 'enabled']).orderBy('id').execute(),
    db.selectFrom('carousel').select('enabled').where('id', '=', 1).executeTakeFirstOrThrow(),
  ]);
  const shape = ({ kind: _kind, ...ad }: (typeof ads)[number]) => ad;
  return {
    carousel: ads.filter((ad) => ad.kind === 'carousel').map(shape),
    static: ads.filter((ad) => ad.kind === 'static').map(shape),
    background_videos: videos,
    carousel_enabled: carousel.enabled,
  };
}

export const adsRouter = router({
  list: publicProcedure.query(({ ctx }) => listAds(ctx.db)),

  create: adminProcedure
    .input(
      z.object({
        type: adType,
        title: title.default(''),
        link: optionalHttpUrl.default(''),
        interval: interval.default(5000),
        media_url: mediaUrl,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const row = await ctx.db
        .insertInto('ads')
        .values({
          kind: input.type,
          title: input.title,
          link: input.link,
          interval: input.interval,
          media: input.media_url,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await bumpVersion(ctx.db, ADS_VERSION);
      await audit(ctx.db, ctx.session, 'ads.create', { id: row.id, type: input.type });
      return { ...ok, id: row.id };
    }),

  update: adminProcedure
    .input(
      z.object({
        id,
        type: adType.optional(),
        title: title.optional(),
        link: optionalHttpUrl.optional(),
        interval: interval.optional(),
        media_url: mediaUrl.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const before = await ctx.db.selectFrom('ads').select(['media']).where('id', '=', input.id).executeTakeFirst();
      if (!before) throw notFound('Ad');
      await ctx.db
        .updateTable('ads')
        .set({
          kind: input.type,
          title: input.title,
          link: input.link,
          interval: input.interval,
          media: input.media_url,
        })
        .where('id', '=', input.id)
        .execute();
      await bumpVersion(ctx.db, ADS_VERSION);
      await audit(ctx.db, ctx.session, 'ads.update', { id: input.id });
      if (input.media_url && input.media_url !== before.media) await releaseMedia(ctx, before.media);
      return ok;
    }),

  delete: adminProcedure.input(z.object({ id, type: adType.optional() })).mutation(async ({ ctx, input }) => {
    let query = ctx.db.deleteFrom('ads').where('id', '=', input.id);
    if (input.type) query = query.where('kind', '=', input.type);
    const row = await query.returning('media').executeTakeFirst();
    if (!row) throw notFound('Ad');
    await bumpVersion(ctx.db, ADS_VERSION);
    await audit(ctx.db, ctx.session, 'ads.delete', { id: input.id });
    await releaseMedia(ctx, row.media);
    return ok;
  }),

  setCarouselEnabled: adminProcedure.input(z.object({ enabled: flag })).mutation(async ({ ctx, input }) => {
    await ctx.db.updateTable('carousel').set({ enabled: input.enabled }).where('id', '=', 1).execute();
    await bumpVersion(ctx.db, ADS_VERSION);
    await audit(ctx.db, ctx.session, 'carousel.toggle', { enabled: input.enabled });
    return ok;
  }),
});

export const videosRouter = router({
  create: adminProcedure
    .input(
      z.object({
        title: title.default(''),
        link: optionalHttpUrl.default(''),
        enabled: flag.default(1),
        media_url: mediaUrl,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const row = await ctx.db
        .insertInto('background_videos')
        .values({ title: input.title, link: input.link, enabled: input.enabled, media: input.media_url })
        .returning('id')
        .executeTakeFirstOrThrow();
      await bumpVersion(ctx.db, ADS_VERSION);
      await audit(ctx.db, ctx.session, 'videos.create', { id: row.id });
      return { ...ok, id: row.id };
    }),

  /** Partial update: a body of only {id, enabled} is the admin's on/off toggle. */
  update: adminProcedure
    .input(
      z.object({
        id,
        title: title.optional(),
        link: optionalHttpUrl.optional(),
        enabled: flag.optional(),
        media_url: mediaUrl.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const before = await ctx.db
        .selectFrom('background_videos')
        .select('media')
        .where('id', '=', input.id)
        .executeTakeFirst();
      if (!before) throw notFound('Background video');
      await ctx.db
        .updateTable('background_videos')
        .set({ title: input.title, link: input.link, enabled: input.enabled, media: input.media_url })
        .where('id', '=', input.id)
        .execute();
      await bumpVersion(ctx.db, ADS_VERSION);
      await audit(ctx.db, ctx.session, 'videos.update', { id: input.id });
      if (input.media_url && input.media_url !== before.media) await releaseMedia(ctx, before.media);
      return ok;
    }),

  toggle: adminProcedure.input(z.object({ id, enabled: flag })).mutation(async ({ ctx, input }) => {
    const result = await ctx.db
      .updateTable('background_videos')
      .set({ enabled: input.enabled })
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (!result.numUpdatedRows) throw notFound('Background video');
    await bumpVersion(ctx.db, ADS_VERSION);
    await audit(ctx.db, ctx.session, 'videos.toggle', { id: input.id, enabled: input.enabled });
    return ok;
  }),

  delete: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    const row = await ctx.db
      .deleteFrom('background_videos')
      .where('id', '=', input.id)
      .returning('media')
      .executeTakeFirst();
    if (!row) throw notFound('Background video');
    await bumpVersion(ctx.db, ADS_VERSION);
    await audit(ctx.db, ctx.session, 'videos.delete', { id: input.id });
    await releaseMedia(ctx, row.media);
    return ok;
  }),
});
