// What the page tests share: a listening server with the built web app and a public origin of its
// own, and small readers of the HTML it answers (no browser: what a crawler without JavaScript sees).
import { existsSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { buildTestApp, type TestApp } from '../../helpers.js';
import type { Imported } from '../../support/templates.js';

export const WEB_ROOT = join(import.meta.dirname, '..', '..', '..', 'dist', 'web');
export const ORIGIN = 'https://places.example';

/** The bytes as sent (fetch would undo the compression) and the headers. */
export function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    // a connection of its own: a kept-alive one may be closed by the server (5 s idle) as it is reused
    get(url, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    }).on('error', reject);
  });
}

export interface PageServer extends TestApp {
  baseUrl: string;
  /** GET on the server, no redirect followed; `url` may be on ORIGIN (an absolute URL of its pages) */
  get(url: string, headers?: Record<string, string>): Promise<Response>;
}

export async function startPageServer(env: Record<string, string> = {}, imported?: Imported): Promise<PageServer> {
  if (!existsSync(join(WEB_ROOT, 'index.html'))) throw new Error('dist/web is not built: run npx vite build');
  // connections kept a minute: fetch reusing one the server closes as it is sent fails (ECONNRESET)
  const t = await buildTestApp({
    webRoot: WEB_ROOT,
    env: { PUBLIC_ORIGIN: ORIGIN, ...env },
    timeouts: { keepAliveMs: 60_000 },
    imported,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const get = (url: string, headers: Record<string, string> = {}) =>
    fetch(url.startsWith(ORIGIN) ? baseUrl + url.slice(ORIGIN.length) : url.startsWith('/') ? baseUrl + url : url, {
      redirect: 'manual',
      headers,
    });
  return { ...t, baseUrl, get };
}

const decode = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39|#x27|apos);/g,
    (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", apos: "'" })[name]!,
  );

/** The attributes of every `<tag ...>` in `html` whose attributes include all of `where`. */
export function tags(html: string, tag: string, where: Record<string, string> = {}): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const match of html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'g'))) {
    const attributes: Record<string, string> = {};
    for (const [, name, value] of match[1].matchAll(/([\w:-]+)="([^"]*)"/g)) attributes[name] = decode(value);
    if (Object.entries(where).every(([name, value]) => attributes[name] === value)) found.push(attributes);
  }
  return found;
}

/** The text of the page, tags removed and entities decoded (what it reads without JavaScript). */
export function textOf(html: string): string {
  return decode(
    html
      .replace(/<script[\s\S]*?<\/script>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' '),
  );
}

export interface PageHeadSeen {
  title: string;
  description: string | undefined;
  canonical: string | undefined;
  robots: string | undefined;
  /** hreflang -> href */
  alternates: Record<string, string>;
  og: Record<string, string>;
  twitterCard: string | undefined;
  jsonLd: unknown[];
}

export function headOf(html: string): PageHeadSeen {
  const meta = (attribute: string, key: string) => tags(html, 'meta', { [attribute]: key })[0]?.content;
  const og: Record<string, string> = {};
  for (const tag of tags(html, 'meta'))
    if (tag.property?.startsWith('og:') && !(tag.property in og)) og[tag.property] = tag.content;
  return {
    title: decode(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? ''),
    description: meta('name', 'description'),
    canonical: tags(html, 'link', { rel: 'canonical' })[0]?.href,
    robots: meta('name', 'robots'),
    alternates: Object.fromEntries(tags(html, 'link', { rel: 'alternate' }).map((link) => [link.hreflang, link.href])),
    og,
    twitterCard: meta('name', 'twitter:card'),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
      JSON.parse(m[1]),
    ),
  };
}

/** Well-formed XML, or throws; the texts of every element named `name`. */
export function xmlTexts(xml: string, name: string): string[] {
  const parser = new SaxesParser({ xmlns: false });
  const texts: string[] = [];
  let inside = false;
  let text = '';
  parser.on('opentag', (tag) => {
    if (tag.name !== name) return;
    inside = true;
    text = '';
  });
  parser.on('text', (value) => {
    if (inside) text += value;
  });
  parser.on('closetag', (tag) => {
    if (tag.name !== name) return;
    inside = false;
    texts.push(text);
  });
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
  return texts;
}
