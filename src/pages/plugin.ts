// The public pages, rendered on the server (web/entry-server.tsx) into the built web app's
// index.html, in the path's language, with their head; the admin panel's shell (drawn in the
// browser); a real redirect to / for any other path. Rendered pages are kept per path and sent
// again while what they were made from is the same (see PageCache).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { QueryKey } from '@tanstack/react-query';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/index.js';
import { LANGUAGES, type Lang } from '../i18n.js';
import { listAds } from '../procedures/ads.js';
import { listPlans } from '../procedures/plans.js';
import { readSettings } from '../procedures/settings.js';
import type { Services } from '../services.js';
import { placeChangeCount } from '../places/search/local-reads.js';
import type { PlaceStore } from '../places/store/index.js';
import { renderPage, renderPageAndShell, renderPageInShell, type PageShell } from '../../web/entry-server.js';
import { translate } from '../../web/i18n/index.js';
import { isAdminPath, localizedPath, splitLanguage } from '../../web/lib/languagePath.js';
import {
  DEFAULT_SITE_TITLE,
  normalizeSettings,
  SETTINGS_QUERY_KEY,
  type SiteSettings,
} from '../../web/lib/settings.js';
import { groupPath } from '../../web/lib/groups.js';
import type { PageData } from '../../web/lib/pageData.js';
import { PUBLIC_PAGES, type PageKind } from '../../web/pages.js';
import { PlaceGroups, type GroupIndex } from './groups.js';
import { headHtml } from './head.js';
import { PAGE_LOADERS, type PageDeps } from './pages.js';
import { PageCache, sendPage, type RenderedPage } from './page-cache.js';
import { Sitemap, sitemapRoutes } from './sitemap.js';

export interface PagesOptions {
  db: Db;
  services: Services;
  origin: string;
  webRoot: string;
  now: () => number;
  /** the most URLs in one sitemap file (tests lower it) */
  sitemapMaxUrls?: number;
}

/** index.html cut where the page goes: before the head's slot, between it and the root, after. */
interface Template {
  start: string;
  middle: string;
  end: string;
}

function readTemplate(webRoot: string): Template {
  const html = readFileSync(join(webRoot, 'index.html'), 'utf8');
  const [start, rest] = html.split('<!--app-head-->');
  const [middle, end] = (rest ?? '').split('<!--app-html-->');
  if (end === undefined) throw new Error(`${webRoot}/index.html has no <!--app-head--> and <!--app-html--> slots`);
  return { start, middle, end };
}

/** A path pattern of web/pages.ts ("/place/:type/:id") as a matcher of its parameters. */
function matcher(pattern: string): (path: string) => Record<string, string> | null {
  const names: string[] = [];
  const source = pattern
    .split('/')
    .map((part) =>
      part.startsWith(':') ? (names.push(part.slice(1)), '([^/]+)') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  const regex = new RegExp(`^${source}$`);
  return (path) => {
    const match = regex.exec(path);
    if (!match) return null;
    return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
  };
}

const MATCHERS = (Object.keys(PUBLIC_PAGES) as PageKind[]).map((kind) => ({
  kind,
  match: matcher(PUBLIC_PAGES[kind].path),
}));

export function matchPage(rest: string): { kind: PageKind; params: Record<string, string> } | null {
  for (const { kind, match } of MATCHERS) {
    const params = match(rest);
    if (params) return { kind, params };
  }
  return null;
}

/**
 * A number that moves whenever a place may have changed (written by this process or any other),
 * once this process's reads have taken the change in.
 */
async function placesChangeMark(store: PlaceStore): Promise<number> {
  await store.feed.reads();
  return placeChangeCount();
}

/** The settings' title, or the default one in the page's language (as the app's useSiteTitle). */
const siteTitleIn = (settings: SiteSettings, lang: Lang) =>
  settings.siteTitle === DEFAULT_SITE_TITLE ? translate(lang, 'hero.defaultTitle') : settings.siteTitle;

/**
 * The kinds of page whose header and footer are the same on every page of the kind (no link of the
 * header is theirs): their shell is rendered once per language, settings and year, and each page
 * renders only what <main> holds.
 */
const SHELL_KINDS: ReadonlySet<PageKind> = new Set(['place', 'group']);

// normalizeSettings once per settings object (the settings cache gives the same one until a change)
const normalized = new WeakMap<object, SiteSettings>();
function siteSettings(raw: object): SiteSettings {
  let settings = normalized.get(raw);
  if (!settings) normalized.set(raw, (settings = normalizeSettings(raw)));
  return settings;
}

export async function pagesPlugin(app: FastifyInstance, options: PagesOptions): Promise<void> {
  const { db, services, origin, now } = options;
  const template = readTemplate(options.webRoot);
  const cache = new PageCache();
  // per settings object (a change saved anywhere gives a new one): per kind, language and year
  const shells = new WeakMap<object, Map<string, PageShell | null>>();
  const deps: PageDeps = { db, services, origin };
  const groups = new PlaceGroups(db);
  const groupIndex = async () => groups.current(await placesChangeMark(services.placeIndex));
  const sitemap = new Sitemap({
    db,
    origin,
    languages: async () => siteSettings(await readSettings(db)).languages,
    maxUrls: options.sitemapMaxUrls,
    groupPaths: async () =>
      Array.from((await groupIndex()).groups(), ({ category, town }) => groupPath(category, town)),
  });
  sitemapRoutes(app, sitemap, origin);

  const page = (lang: Lang, head: string, html: string, dataBlock: string) =>
    template.start.replace(/<html lang="[^"]*"/, `<html lang="${lang}"`) +
    head +
    template.middle +
    html +
    template.end.replace('</body>', `${dataBlock}</body>`);

  async function render(
    path: string,
    lang: Lang,
    kind: PageKind,
    params: Record<string, string>,
    rawSettings: object,
    groupIndex: GroupIndex | null,
  ): Promise<RenderedPage> {
    const settings = siteSettings(rawSettings);
    const siteTitle = siteTitleIn(settings, lang);
    const loaded = await PAGE_LOADERS[kind].load(deps, { lang, params, siteTitle, groups: groupIndex });
    const data = { queries: [[SETTINGS_QUERY_KEY, settings], ...loaded.queries] as [QueryKey, unknown][] };
    const { html, dataBlock } = renderMarkup(path, kind, lang, settings, data);
    const head = headHtml(loaded.head, lang, origin, settings.languages, siteTitle);
    return { status: loaded.status, html: Buffer.from(page(lang, head, html, dataBlock)), timely: loaded.timely };
  }

  /** The page's markup: in its kind's kept shell where it has one, else whole. */
  function renderMarkup(path: string, kind: PageKind, lang: Lang, settings: SiteSettings, data: PageData) {
    if (!SHELL_KINDS.has(kind)) return renderPage(path, data);
    let kept = shells.get(settings);
    if (!kept) shells.set(settings, (kept = new Map()));
    // the footer's copyright year is the server's, as the component reads it
    const key = `${kind} ${lang} ${new Date().getFullYear()}`;
    const shell = kept.get(key);
    if (shell) return renderPageInShell(path, data, shell);
    if (shell === null) return renderPage(path, data);
    const rendered = renderPageAndShell(path, data);
    kept.set(key, rendered.shell);
    return rendered;
  }

  /** The admin panel: drawn in the browser, never indexed. */
  function adminShell(settings: SiteSettings): Buffer {
    const head = `<title>${siteTitleIn(settings, 'en').replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))}</title>\n    <meta name="robots" content="noindex">`;
    return Buffer.from(template.start + head + template.middle + template.end);
  }

  async function answer(req: FastifyRequest, reply: FastifyReply) {
    const path = req.url.split('?')[0];
    const { lang, rest } = splitLanguage(path);
    const rawSettings = await readSettings(db);
    const settings = siteSettings(rawSettings);
    if (lang === 'en' && isAdminPath(rest)) {
      return reply
        .code(200)
        .header('Cache-Control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(adminShell(settings));
    }
    const found = matchPage(rest);
    if (!found) return reply.redirect('/', 302);
    // "/fr" is "/fr/"; a language the site does not offer is its first one's page
    if (lang !== 'en' && path === `/${lang}`) return reply.redirect(`/${lang}/`, 301);
    if (!settings.languages.includes(lang)) {
      const fallback = settings.languages.includes('en') ? 'en' : settings.languages[0];
      return reply.redirect(localizedPath(fallback, rest), 302);
    }
    const { usesPlaces, usesGroups } = PAGE_LOADERS[found.kind];
    // The marks before the data: a change landing in between makes the kept page stale, not wrong.
    const [plans, ads, placesMark, index] = await Promise.all([
      listPlans(db),
      listAds(db),
      usesPlaces ? placesChangeMark(services.placeIndex) : 0,
      usesGroups ? groupIndex() : null,
    ]);
    const sources = [rawSettings, plans, ads, placesMark, index];
    const minute = Math.floor(now() / 60_000);
    let rendered = cache.get(path, sources, minute);
    if (!rendered) {
      rendered = await render(path, lang, found.kind, found.params, rawSettings, index);
      cache.set(path, rendered, sources, minute);
    }
    return sendPage(req, reply, rendered);
  }

  // The groups for a page reached in the browser (the server's pages carry them already).
  app.get('/api/groups', async (_req, reply) =>
    reply.header('Cache-Control', 'no-cache').send((await groupIndex()).list()),
  );
  app.get<{ Params: { category: string; town: string }; Querystring: { lang?: string } }>(
    '/api/groups/:category/:town',
    async (req, reply) => {
      const lang = (LANGUAGES as readonly string[]).includes(req.query.lang ?? '') ? (req.query.lang as Lang) : 'en';
      const group = await (await groupIndex()).group(db, req.params.category, req.params.town, lang);
      if (!group) return reply.code(404).send({ error: 'Not found' });
      return reply.header('Cache-Control', 'no-cache').send(group);
    },
  );

  app.setNotFoundHandler(async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply.code(404).send({ error: 'Not found' });
    if (/^\/(api|trpc|uploads|assets|tiles)\//.test(req.url)) return reply.code(404).send({ error: 'Not found' });
    return answer(req, reply);
  });
}
