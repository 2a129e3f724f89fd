// The admin's data page: the sources of the places index with their
// freshness, updating a source now and importing from a URL as background jobs the page polls,
// removing a source, and the admin's own places (one by one, or as CSV).
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { CATEGORIES, hasBit } from '../places/model/categories.js';
import { importInputs } from '../places/sources/import/index.js';
import type { PlaceStore, StoredPlace } from '../places/store/index.js';
import {
  CsvError,
  openingHoursProblem,
  ownPlacesCsv,
  parseOwnPlace,
  parseOwnPlacesCsv,
  type OwnPlaceText,
} from '../places/sources/own-places.js';
import { OutboundRefused } from '../net/outbound.js';
import { adminProcedure, router } from '../trpc/init.js';
import { audit } from './audit.js';
import { id, ok } from './schemas.js';

/** The most an import from a URL may download. */
export const MAX_IMPORT_BYTES = 512 * 2 ** 20;
/** The most a CSV of own places may hold (characters). */
const MAX_CSV_CHARS = 5 * 2 ** 20;

const ownCategory = (place: StoredPlace) => CATEGORIES.find((_, i) => hasBit(place.categories, i))?.id ?? '';

const ownView = (place: StoredPlace) => ({
  id: place.osmId,
  name: place.name ?? '',
  category: ownCategory(place),
  lat: place.lat,
  lon: place.lon,
  address: place.address,
  phone: place.phone,
  website: place.website,
  opening_hours: place.openingHours,
});

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).optional().nullable();
const ownPlaceInput = z.object({
  name: z.string().max(200, 'must be at most 200 characters'),
  category: z.string().max(50),
  lat: z.union([z.number(), z.string().max(30)]),
  lon: z.union([z.number(), z.string().max(30)]),
  address: text(300),
  phone: text(50),
  website: text(500),
  opening_hours: text(500),
});

/** Validates a form's own place the way a CSV line is validated; the first problem names its field. */
function ownPlaceOf(input: z.infer<typeof ownPlaceInput>) {
  const fields: OwnPlaceText = {
    name: input.name,
    category: input.category,
    lat: String(input.lat),
    lon: String(input.lon),
    address: input.address ?? '',
    phone: input.phone ?? '',
    website: input.website ?? '',
    opening_hours: input.opening_hours ?? '',
  };
  const parsed = parseOwnPlace(fields);
  if (!parsed.place) {
    const [first] = parsed.problems;
    throw new TRPCError({ code: 'BAD_REQUEST', message: `${first.field}: ${first.message}` });
  }
  return parsed.place;
}

async function totals(index: PlaceStore) {
  const sources = await index.listSources();
  const perCategory: Record<string, number> = {};
  for (const source of sources)
    for (const [category, n] of Object.entries(source.perCategory))
      perCategory[category] = (perCategory[category] ?? 0) + n;
  return { sources, totals: { places: sources.reduce((sum, s) => sum + s.places, 0), perCategory } };
}

export const dataRouter = router({
  /** Every source of the index, its freshness and places per category, and the index's totals. */
  sources: adminProcedure.query(({ ctx }) => totals(ctx.services.placeIndex)),

  /** Starts updating one source from its replication feed; poll `job` for progress and the result. */
  update: adminProcedure.input(z.object({ source: z.string().min(1).max(2000) })).mutation(async ({ ctx, input }) => {
    const source = await ctx.services.placeIndex.getSource(input.source);
    if (!source || source.kind !== 'osm') throw new TRPCError({ code: 'NOT_FOUND', message: 'Source not found' });
    if (!source.replicationUrl && !ctx.config.replicationUrl) {
      throw new TRPCError({
        code: 'BAD_REQUEST',
        message: 'This source names no replication feed (set REPLICATION_URL, or import an extract that names one)',
      });
    }
    const jobId = await ctx.services.dataJobs.start('update', async (report) => {
      const [summary] = await ctx.services.replication.update(
        { source: input.source, onProgress: (p) => report(p) },
        5_000,
      );
      return summary;
    });
    await audit(ctx.db, ctx.session, 'data.update', { source: input.source });
    return { ...ok, job: jobId };
  }),

  /** Starts importing an extract from an http(s) URL (at most MAX_IMPORT_BYTES); poll `job`. */
  importUrl: adminProcedure
    .input(
      z.object({
        url: z
          .string()
          .trim()
          .max(2000, 'must be at most 2000 characters')
          .refine((value) => {
            try {
              const url = new URL(value);
              return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
            } catch {
              return false;
            }
          }, 'must be an http(s) URL'),
        source: z.string().trim().min(1).max(2000).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      // Refused at once, with nothing fetched, when the host is a private or local address; the
      // download checks every address again as it connects, and every redirect.
      try {
        await ctx.services.outbound.check(input.url);
      } catch (error) {
        if (error instanceof OutboundRefused)
          throw new TRPCError({ code: 'BAD_REQUEST', message: `url: ${error.message}` });
        throw error;
      }
      const jobId = await ctx.services.dataJobs.start('import', async (report) => {
        const summary = await importInputs(ctx.services.placeIndex, [input.url], {
          source: input.source,
          maxDownloadBytes: MAX_IMPORT_BYTES,
          fetch: ctx.services.outbound.fetch,
          progress: {
            start: (label) => report({ stage: label.startsWith('downloading') ? 'download' : 'read' }),
            pass: (number, of) => report({ stage: 'read', pass: number, passes: of, done: 0, total: 0 }),
            update: (done, total) => report({ stage: 'read', done, total }),
            finish: () => report({ stage: 'write' }),
          },
        });
        const { inputs, added, replaced, removed, places, seconds } = summary;
        return {
          source: inputs[0]?.source ?? null,
          places,
          added,
          replaced,
          removed,
          seconds: Math.round(seconds * 10) / 10,
        };
      });
      await audit(ctx.db, ctx.session, 'data.import', { url: input.url });
      return { ...ok, job: jobId };
    }),

  job: adminProcedure.input(z.object({ id: z.string().uuid('is not a job id') })).query(async ({ ctx, input }) => {
    const job = await ctx.services.dataJobs.get(input.id);
    if (!job) throw new TRPCError({ code: 'NOT_FOUND', message: 'Job not found' });
    return job;
  }),

  removeSource: adminProcedure
    .input(z.object({ source: z.string().min(1).max(2000) }))
    .mutation(async ({ ctx, input }) => {
      const source = await ctx.services.placeIndex.getSource(input.source);
      if (!source) throw new TRPCError({ code: 'NOT_FOUND', message: 'Source not found' });
      if (source.kind !== 'osm')
        throw new TRPCError({
          code: 'BAD_REQUEST',
          message: "The live fallback's and your own places cannot be removed as a source",
        });
      const { removed } = await ctx.services.placeIndex.removeSource(input.source);
      await audit(ctx.db, ctx.session, 'data.removeSource', { source: input.source, removed });
      return { ...ok, removed };
    }),

  own: router({
    list: adminProcedure.query(async ({ ctx }) => (await ctx.services.placeIndex.listOwn()).map(ownView)),

    save: adminProcedure.input(ownPlaceInput.extend({ id: id.optional() })).mutation(async ({ ctx, input }) => {
      const place = ownPlaceOf(input);
      try {
        const {
          places: [stored],
        } = await ctx.services.placeIndex.writeOwn({ upsert: [{ ...place, id: input.id }], remove: [] }, ctx.now());
        await audit(ctx.db, ctx.session, input.id ? 'own.update' : 'own.create', { id: stored.osmId });
        return { ...ok, place: ownView(stored) };
      } catch (error) {
        if (error instanceof RangeError) throw new TRPCError({ code: 'NOT_FOUND', message: 'Place not found' });
        throw error;
      }
    }),

    delete: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
      if (!(await ctx.services.placeIndex.getByOsmId('own', input.id)))
        throw new TRPCError({ code: 'NOT_FOUND', message: 'Place not found' });
      await ctx.services.placeIndex.writeOwn({ upsert: [], remove: [input.id] }, ctx.now());
      await audit(ctx.db, ctx.session, 'own.delete', { id: input.id });
      return ok;
    }),

    /** Adds the CSV's places, or replaces all own places by them; all or nothing, problems by line. */
    importCsv: adminProcedure
      .input(
        z.object({
          csv: z.string().max(MAX_CSV_CHARS, 'is too large (at most 5 MB)'),
          mode: z.enum(['add', 'replace'], { message: "must be 'add' or 'replace'" }),
        }),
      )
      .mutation(async ({ ctx, input }) => {
        let places;
        try {
          places = parseOwnPlacesCsv(input.csv);
        } catch (error) {
          if (!(error instanceof CsvError)) throw error;
          const shown = error.problems.slice(0, 20).map((p) => `line ${p.line}: ${p.message}`);
          const more = error.problems.length > 20 ? `; and ${error.problems.length - 20} more` : '';
          throw new TRPCError({ code: 'BAD_REQUEST', message: `Nothing was imported. ${shown.join('; ')}${more}` });
        }
        const remove = input.mode === 'replace' ? (await ctx.services.placeIndex.listOwn()).map((p) => p.osmId) : [];
        const { places: stored } = await ctx.services.placeIndex.writeOwn({ upsert: places, remove }, ctx.now());
        await audit(ctx.db, ctx.session, 'own.importCsv', {
          mode: input.mode,
          places: stored.length,
          removed: remove.length,
        });
        return { ...ok, imported: stored.length, removed: remove.length };
      }),

    /** Checks opening hours as the admin types them (the library lives on the server, not in the page). */
    checkHours: adminProcedure
      .input(z.object({ value: z.string().max(500, 'must be at most 500 characters') }))
      .query(({ input }) => {
        const problem = input.value.trim() ? openingHoursProblem(input.value.trim()) : null;
        return { valid: problem === null, problem };
      }),

    exportCsv: adminProcedure.query(async ({ ctx }) => ({
      csv: ownPlacesCsv(await ctx.services.placeIndex.listOwn(), ownCategory),
    })),
  }),
});
