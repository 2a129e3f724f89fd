// robots.txt and the sitemap. The sitemap lists every page worth indexing in every language the
// site offers, each with its language versions (xhtml:link hreflang): the pages of web/pages.ts
// that are not per place, the group pages (a category in a town), and a page per place (OpenStreetMap and the admin's own; not the live
// source's, which are kept for a day only). Up to one file's limits (50,000 URLs, 50 MB) it is
// /sitemap.xml itself; past them /sitemap.xml is an index of /sitemap-pages-<n>.xml (the pages
// that are not per place, as many files as their number needs) and one /sitemap-places-<n>.xml
// per block of place ids. Each file is written as it is read from the
// store, a page of rows at a time: never whole in memory. `lastmod` only where it is true: an own
// place's last edit, an OSM place's last change applied after its import (not the import itself).
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import type { Lang } from '../i18n.js';
import { localizedPath } from '../../web/lib/languagePath.js';

/** The sitemap protocol's limits for one file. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** Rows read from the store at a time. */
const ROWS_PER_READ = 2_000;

/** The pages that are neither per place nor per group, as paths without language (all indexable). */
export const SITE_PAGES = ['/', '/plans', '/contact', '/privacy', '/terms'];

interface PlaceRow {
  id: number;
  osm_type: string;
  osm_id: number | string;
  fetched_at: number | string;
  source: string;
  kind: string | null;
  imported_at: number | string | null;
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

const URLSET_START =
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n';
const URLSET_END = '</urlset>\n';

export interface SitemapOptions {
  db: Db;
  origin: string;
  /** the languages the site offers now */
  languages: () => Promise<readonly Lang[]>;
  /** the largest file: tests lower it to see the index on a smaller store */
  maxUrls?: number;
  /** the group pages' paths without language (a category in a town) */
  groupPaths: () => Promise<string[]>;
}

export class Sitemap {
  private readonly maxUrls: number;

  constructor(private readonly options: SitemapOptions) {
    this.maxUrls = options.maxUrls ?? SITEMAP_MAX_URLS;
  }

  /** One page in every language: a <url> per language, each naming all of them. */
  private entries(rest: string, languages: readonly Lang[], lastmod: string | null): string {
    const { origin } = this.options;
    const links = languages.map(
      (lang) =>
        `<xhtml:link rel="alternate" hreflang="${lang}" href="${escapeXml(origin + localizedPath(lang, rest))}"/>`,
    );
    const fallback = languages.includes('en') ? 'en' : languages[0];
    links.push(
      `<xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(origin + localizedPath(fallback, rest))}"/>`,
    );
    const alternates = links.join('');
    const modified = lastmod ? `<lastmod>${lastmod}</lastmod>` : '';
    return languages
      .map((lang) => `<url><loc>${escapeXml(origin + localizedPath(lang, rest))}</loc>${modified}${alternates}</url>\n`)
      .join('');
  }

  /**
   * Places per file: as many as keep a file within both limits, with each place's entries at
   * their longest (the longest OSM id, every language).
   */
  placesPerFile(languages: readonly Lang[]): number {
    const longest = this.entries('/place/relation/9007199254740991', languages, '2026-01-01T00:00:00.000Z');
    const byBytes = Math.floor(
      (SITEMAP_MAX_BYTES - URLSET_START.length - URLSET_END.length) / Buffer.byteLength(longest),
    );
    return Math.max(1, Math.min(Math.floor(this.maxUrls / languages.length), byBytes));
  }

  /** Pages per file (site and group pages): as many as keep a file within both limits, each as long as the longest. */
  pagesPerFile(languages: readonly Lang[], pages: readonly string[]): number {
    const size = (rest: string) => Buffer.byteLength(escapeXml(rest));
    const longest = pages.reduce((most, rest) => (size(rest) > size(most) ? rest : most), '/');
    const byBytes = Math.floor(
      (SITEMAP_MAX_BYTES - URLSET_START.length - URLSET_END.length) /
        Buffer.byteLength(this.entries(longest, languages, null)),
    );
    return Math.max(1, Math.min(Math.floor(this.maxUrls / languages.length), byBytes));
  }

  /** Every page that is not per place: the site's, then the groups'. */
  private async pages(): Promise<string[]> {
    return [...SITE_PAGES, ...(await this.options.groupPaths())];
  }

  /** Places of ids (from, to], a page of rows at a time. */
  private async *placeRows(from: number, to: number): AsyncGenerator<PlaceRow> {
    let after = from;
    for (;;) {
      const { rows } = await sql<PlaceRow>`
        select p.id, p.osm_type, p.osm_id, p.fetched_at, p.source, s.kind, s.imported_at
        from places p left join place_sources s on s.id = p.source_id
        where p.id > ${after} and p.id <= ${to} and p.source <> 'overpass'
        order by p.id limit ${ROWS_PER_READ}`.execute(this.options.db);
      for (const row of rows) yield row;
      if (rows.length < ROWS_PER_READ) return;
      after = rows[rows.length - 1].id;
    }
  }

  private static lastmod(row: PlaceRow): string | null {
    const fetched = Number(row.fetched_at);
    if (row.kind === 'own') return new Date(fetched).toISOString();
    const imported = row.imported_at === null ? null : Number(row.imported_at);
    return imported !== null && fetched > imported ? new Date(fetched).toISOString() : null;
  }

  private async placeCount(): Promise<{ count: number; maxId: number }> {
    const { rows } = await sql<{ n: number | string; max_id: number | string | null }>`
      select count(*) as n, max(id) as max_id from places where source <> 'overpass'`.execute(this.options.db);
    return { count: Number(rows[0].n), maxId: Number(rows[0].max_id ?? 0) };
  }

  /** A urlset, written while read: the site's pages and/or the places of ids (from, to]. */
  private urlset(languages: readonly Lang[], sitePages: string[] | null, places: [number, number] | null): Readable {
    return Readable.from(this.urlsetChunks(languages, sitePages, places), { objectMode: false });
  }

  private async *urlsetChunks(
    languages: readonly Lang[],
    sitePages: string[] | null,
    places: [number, number] | null,
  ): AsyncGenerator<string> {
    yield URLSET_START;
    if (sitePages) for (const rest of sitePages) yield this.entries(rest, languages, null);
    if (places) {
      let chunk = '';
      for await (const row of this.placeRows(places[0], places[1])) {
        chunk += this.entries(`/place/${row.osm_type}/${row.osm_id}`, languages, Sitemap.lastmod(row));
        if (chunk.length > 64 * 1024) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    }
    yield URLSET_END;
  }

  /** /sitemap.xml: everything when it fits one file, else the index. */
  async root(): Promise<Readable | string> {
    const languages = await this.options.languages();
    const { count, maxId } = await this.placeCount();
    const perFile = this.placesPerFile(languages);
    const pages = await this.pages();
    const pagesPerFile = this.pagesPerFile(languages, pages);
    if ((count + pages.length) * languages.length <= this.maxUrls && count <= perFile && pages.length <= pagesPerFile)
      return this.urlset(languages, pages, [0, maxId]);
    const { rows } = await sql<{ block: number | string }>`
      select distinct (id - 1) / cast(${perFile} as integer) as block from places where source <> 'overpass' order by block`.execute(
      this.options.db,
    );
    const { origin } = this.options;
    const files = [
      ...Array.from({ length: Math.ceil(pages.length / pagesPerFile) }, (_, i) => `/sitemap-pages-${i + 1}.xml`),
      ...rows.map((row) => `/sitemap-places-${Number(row.block) + 1}.xml`),
    ];
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      files.map((file) => `<sitemap><loc>${escapeXml(origin + file)}</loc></sitemap>\n`).join('') +
      '</sitemapindex>\n'
    );
  }

  /** /sitemap-pages-<n>.xml: the n-th block of the pages that are not per place; null past the last. */
  async pagesFile(n: number): Promise<Readable | null> {
    const languages = await this.options.languages();
    const pages = await this.pages();
    const perFile = this.pagesPerFile(languages, pages);
    if (!Number.isSafeInteger(n) || n < 1 || (n - 1) * perFile >= pages.length) return null;
    return this.urlset(languages, pages.slice((n - 1) * perFile, n * perFile), null);
  }

  /** /sitemap-places-<n>.xml: the places of the n-th block of ids; null past the last. */
  async placesFile(n: number): Promise<Readable | null> {
    const languages = await this.options.languages();
    const perFile = this.placesPerFile(languages);
    const { maxId } = await this.placeCount();
    if (!Number.isSafeInteger(n) || n < 1 || (n - 1) * perFile >= maxId) return null;
    return this.urlset(languages, null, [(n - 1) * perFile, n * perFile]);
  }
}

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Disallow: /admin',
    'Disallow: /api/',
    'Disallow: /trpc/',
    'Allow: /',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

export function sitemapRoutes(app: FastifyInstance, sitemap: Sitemap, origin: string): void {
  const xml = 'application/xml; charset=utf-8';
  app.get('/robots.txt', (_req, reply) =>
    reply.type('text/plain; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(robotsTxt(origin)),
  );
  app.get('/sitemap.xml', async (_req, reply) => reply.type(xml).send(await sitemap.root()));
  app.get<{ Params: { n: string } }>('/sitemap-pages-:n.xml', async (req, reply) => {
    const file = /^\d{1,9}$/.test(req.params.n) ? await sitemap.pagesFile(Number(req.params.n)) : null;
    if (!file) return reply.code(404).send({ error: 'Not found' });
    return reply.type(xml).send(file);
  });
  app.get<{ Params: { n: string } }>('/sitemap-places-:n.xml', async (req, reply) => {
    const file = /^\d{1,9}$/.test(req.params.n) ? await sitemap.placesFile(Number(req.params.n)) : null;
    if (!file) return reply.code(404).send({ error: 'Not found' });
    return reply.type(xml).send(file);
  });
}
