// Rendered pages kept per path (the language is in it), with their brotli and gzip forms made
// when first asked for: a page sent again costs a lookup, not a render and a compression. A page
// is first sent at a brotli level that costs little (most pages a crawler asks for are asked for
// once), and compressed better once, when it is asked for again.
// A kept page is sent while what it was made from is the same:
// - the settings, plans and ads: the same frozen objects from the versioned cache
//   (src/shared/settings-cache.ts), which a change saved on any process or node replaces;
// - the places (pages that show them): the index's change mark, which moves when this process's
//   copy takes in a change from the change log, whoever wrote it;
// - the minute, for pages that show the time now (a place's "open now", "closes in 5 minutes").
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface RenderedPage {
  status: number;
  html: Buffer;
  /** good for the minute it was made in only */
  timely: boolean;
  br?: Buffer;
  /** the brotli quality `br` was made at */
  brQuality?: number;
  gzip?: Buffer;
}

interface Entry {
  page: RenderedPage;
  sources: readonly unknown[];
  minute: number;
}

/** Paths kept at most (then the oldest go): unknown places' 404 pages must not grow it without end. */
export const PAGE_CACHE_MAX = 5_000;

/**
 * A page's first sending. Brotli 1 compresses in one pass with tables sized to the page, where
 * brotli 2 and up clear a 256 KB hash table at each call: alone in a loop the two cost about the
 * same on a place page (~35 and ~45 µs), but among a server's other work (its tables out of the
 * CPU's cache) brotli 1 costs 100-200 µs less a page, for 7% more bytes (3.9 KB instead of 3.6;
 * brotli 4 gives 3.3).
 */
export const PAGE_FIRST_BROTLI_QUALITY = 1;
/**
 * A page asked for again is compressed once more at this level and kept so: the per-request
 * level, a third cheaper than brotli 5 for 6% more bytes (~200 on a place page).
 */
export const PAGE_BROTLI_QUALITY = 4;
export const PAGE_GZIP_LEVEL = 6;

const brotli = (html: Buffer, quality: number) =>
  brotliCompressSync(html, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: html.length,
    },
  });

export class PageCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly max = PAGE_CACHE_MAX) {}

  get(path: string, sources: readonly unknown[], minute: number): RenderedPage | null {
    const entry = this.entries.get(path);
    if (!entry) return null;
    const same = entry.sources.length === sources.length && entry.sources.every((source, i) => source === sources[i]);
    if (!same || (entry.page.timely && entry.minute !== minute)) {
      this.entries.delete(path);
      return null;
    }
    return entry.page;
  }

  set(path: string, page: RenderedPage, sources: readonly unknown[], minute: number): void {
    this.entries.delete(path);
    this.entries.set(path, { page, sources, minute });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** br, gzip or nothing, as the request accepts (q=0 refuses). */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const accepted = new Set(
    acceptEncoding
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => name.trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

export function sendPage(req: FastifyRequest, reply: FastifyReply, page: RenderedPage) {
  reply
    .code(page.status)
    .header('Cache-Control', 'no-cache')
    .header('Vary', 'Accept-Encoding')
    .type('text/html; charset=utf-8');
  const encoding = pickEncoding(req.headers['accept-encoding']);
  if (encoding === 'br') {
    const quality = page.brQuality === undefined ? PAGE_FIRST_BROTLI_QUALITY : PAGE_BROTLI_QUALITY;
    if (page.brQuality !== quality) {
      page.br = brotli(page.html, quality);
      page.brQuality = quality;
    }
    return reply.header('Content-Encoding', 'br').send(page.br);
  }
  if (encoding === 'gzip') {
    page.gzip ??= gzipSync(page.html, { level: PAGE_GZIP_LEVEL });
    return reply.header('Content-Encoding', 'gzip').send(page.gzip);
  }
  return reply.send(page.html);
}
