// The public pages as a crawler without JavaScript and a link preview see them, over real HTTP on
// the imported Andorra extract: each page's content and head in every language, a place's
// JSON-LD, the 404 of an unknown place, robots.txt and the sitemap, redirects, the icon, and
// compression of every text answer. Both engines.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import OpeningHours from 'opening_hours';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../src/i18n.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { openingHoursSpecification } from '../../../src/pages/opening-hours-spec.js';
import { SITE_PAGES } from '../../../src/pages/sitemap.js';
import { EXTRACTS, writeImported } from '../../support/places.js';
import { maskOf } from '../../../src/places/model/categories.js';
import { CATEGORY_IDS } from '../../../src/places/model/category-ids.js';
import { headOf, ORIGIN, rawGet, startPageServer, tags, textOf, xmlTexts, type PageServer } from './support.js';
import { renderPage } from '../../../web/entry-server.js';
import type { PageData } from '../../../web/lib/pageData.js';

/** A restaurant in La Massana with an address, phone, split hours and wheelchair access in the extract. */
const RESTAURANT = '/place/node/2966865383';
/** A pharmacy in Andorra la Vella: no hours or phone in the extract. */
const PHARMACY = '/place/node/4984643122';
/** The group page it is in. */
const PHARMACIES = '/places/pharmacy/andorra-la-vella';

/** Whether schema.org specifications say open at `minute` of weekday `day` (0 = Monday). */
function openBySpecs(
  specs: { dayOfWeek: string[]; opens: string; closes: string }[],
  day: number,
  minute: number,
): boolean {
  const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
  const at = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
  return specs.some((spec) => {
    const opens = at(spec.opens);
    const closes = spec.closes === '23:59' ? 24 * 60 : at(spec.closes);
    if (spec.opens === '00:00' && spec.closes === '00:00') return false;
    if (spec.dayOfWeek.includes(DAYS[day]) && minute >= opens && (closes > opens ? minute < closes : true)) return true;
    // the part past midnight of the day before's
    return closes < opens && spec.dayOfWeek.includes(DAYS[(day + 6) % 7]) && minute < closes;
  });
}

describe('public pages without JavaScript', () => {
  let server: PageServer;
  let cookie: string;
  beforeAll(async () => {
    server = await startPageServer({}, { extracts: [EXTRACTS.andorra] });
    cookie = await server.login();
    await server.request({
      method: 'POST',
      url: '/api/plans',
      cookie,
      payload: {
        name: 'Local Pro',
        price: 29,
        type: 'pro',
        description: { features: ['Ten listings'], languages: ['Català'] },
        link: 'https://example.com/pro',
      },
    });
    await server.request({
      method: 'POST',
      url: '/api/settings',
      cookie,
      payload: { contact_email: 'hello@places.example' },
    });
  }, 180_000);
  afterAll(() => server?.close());

  const html = async (path: string, status = 200) => {
    const response = await server.get(path);
    expect(response.status, path).toBe(status);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    return response.text();
  };

  it('a place page holds the place: name, category, address, phone, the week of hours, wheelchair access', async () => {
    const place = (await (
      await server.get(`/api/places${RESTAURANT.slice('/place'.length)}?lang=en`)
    ).json()) as Record<string, any>;
    expect(place.category).toBe('restaurant');
    const page = await html(RESTAURANT);
    const text = textOf(page);
    expect(text).toContain(place.name);
    expect(tags(page, 'h1')).toHaveLength(1);
    expect(text).toContain('Restaurant');
    if (place.address) expect(text).toContain(place.address);
    expect(place.phone_number).toBeTruthy();
    expect(text).toContain(place.phone_number);
    expect(place.hours).not.toBeNull();
    expect(tags(page, 'tr')).toHaveLength(7);
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])
      expect(text).toContain(day);
    expect(text).toContain('Wheelchair access');
    expect(text).toContain('Wheelchair accessible');
    expect(text).toContain(place.status_label);
    // the map's box is there, drawn later by the browser
    expect(tags(page, 'div', { class: 'place-map' })).toHaveLength(1);

    const pharmacy = textOf(await html(PHARMACY));
    expect(pharmacy).toContain('Guitart');
    expect(pharmacy).toContain('Pharmacy');
    expect(pharmacy).toContain('Opening hours unknown');
    const french = textOf(await html(`/fr${RESTAURANT}`));
    expect(french).toContain('Horaires d’ouverture'.slice(0, 8));
    expect(french).toContain('lundi');
  });

  it("a place page's JSON-LD parses and says what the page shows, hours converted", async () => {
    for (const [path, type] of [
      [RESTAURANT, 'Restaurant'],
      [PHARMACY, 'Pharmacy'],
    ]) {
      const place = (await (await server.get(`/api/places${path.slice('/place'.length)}?lang=en`)).json()) as Record<
        string,
        any
      >;
      const head = headOf(await html(path));
      expect(head.jsonLd).toHaveLength(1);
      const ld = head.jsonLd[0] as Record<string, any>;
      expect(ld['@context']).toBe('https://schema.org');
      expect(ld['@type']).toBe(type);
      expect(ld.name).toBe(place.name);
      expect(ld.url).toBe(`${ORIGIN}${path}`);
      expect(ld.url).toBe(head.canonical);
      expect(ld.geo).toEqual({
        '@type': 'GeoCoordinates',
        latitude: expect.closeTo(place.lat, 6),
        longitude: expect.closeTo(place.lon, 6),
      });
      expect(ld.telephone).toBe(place.phone_number ?? undefined);
      expect(ld.address['@type']).toBe('PostalAddress');
      for (const part of [ld.address.streetAddress, ld.address.addressLocality, ld.address.postalCode]) {
        if (part) expect(place.address).toContain(part);
      }
      expect(ld.openingHoursSpecification).toEqual(openingHoursSpecification(place.opening_hours) ?? undefined);
    }
    const restaurant = headOf(await html(RESTAURANT)).jsonLd[0] as Record<string, any>;
    // Mo-Su 12:30-15:30, 20:00-23:30
    expect(restaurant.openingHoursSpecification).toEqual([
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
        opens: '12:30',
        closes: '15:30',
      },
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
        opens: '20:00',
        closes: '23:30',
      },
    ]);
  });

  it('a JSON-LD address is in parts, and a nearby one never claims the street', async () => {
    const one = async (source: string, where = '') => {
      const rows = await sql<{ osm_type: string; osm_id: string }>`select osm_type, osm_id from places
        where address_source = ${source} ${sql.raw(where)} order by osm_id limit 1`.execute(server.handle.db);
      const path = `/place/${rows.rows[0].osm_type}/${rows.rows[0].osm_id}`;
      const place = (await (await server.get(`/api/places${path.slice('/place'.length)}?lang=en`)).json()) as Record<
        string,
        any
      >;
      return { place, address: (headOf(await html(path)).jsonLd[0] as Record<string, any>).address };
    };
    // the building's: its street and number, the town, the postcode, each in its own part
    const building = await one('building', "and address like '%, %, %'");
    expect(building.place.address_source).toBe('building');
    expect(building.address.streetAddress).toBeTruthy();
    expect(building.address.addressCountry).toBe('AD');
    expect(building.place.address.startsWith(building.address.streetAddress)).toBe(true);
    expect(building.place.address).toContain(building.address.addressLocality ?? building.address.postalCode);
    // a nearby street is a guess the page says as "Near ...": the locality and postcode only
    const nearby = await one('nearby', "and address like '%, %'");
    expect(nearby.place.address_source).toBe('nearby');
    expect(nearby.address.streetAddress).toBeUndefined();
    expect(nearby.address.addressLocality ?? nearby.address.postalCode).toBeTruthy();
    expect(nearby.place.address).toContain(nearby.address.addressLocality ?? nearby.address.postalCode);
    expect(nearby.place.address.startsWith(nearby.address.addressLocality ?? nearby.address.postalCode)).toBe(false);
  });

  it("converts the extract's opening hours exactly, or not at all", async () => {
    const { rows } = await sql<{
      value: string;
    }>`select distinct opening_hours as value from places where opening_hours is not null`.execute(server.handle.db);
    expect(rows.length).toBeGreaterThan(50);
    let converted = 0;
    for (const { value } of rows) {
      const specs = openingHoursSpecification(value);
      if (!specs) continue;
      converted++;
      const hours = new OpeningHours(value, null as never, { tag_key: 'opening_hours' } as never);
      // every quarter of an hour of a week: the specifications say what the value says
      for (let day = 0; day < 7; day++) {
        for (let minute = 0; minute < 24 * 60; minute += 15) {
          const at = new Date(2024, 0, 8 + day, 0, minute);
          expect(openBySpecs(specs, day, minute), `${value} on day ${day} at ${minute} min`).toBe(hours.getState(at));
        }
      }
    }
    expect(converted).toBeGreaterThan(rows.length / 2);
    // Google's forms: past midnight in one, a whole day 00:00-23:59, a closed day 00:00-00:00
    const spec = (dayOfWeek: string[], opens: string, closes: string) => ({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek,
      opens,
      closes,
    });
    const week = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
    expect(openingHoursSpecification('24/7')).toEqual([spec(week, '00:00', '23:59')]);
    expect(openingHoursSpecification('Mo-Su 11:00-00:00')).toEqual([spec(week, '11:00', '23:59')]);
    expect(openingHoursSpecification('Fr,Sa 22:00-02:00')).toEqual([
      spec(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Sunday'], '00:00', '00:00'),
      spec(['Friday', 'Saturday'], '22:00', '02:00'),
    ]);
    expect(openingHoursSpecification('Mo-Fr 09:00-18:00; Sa 10:00-14:00')).toEqual([
      spec(week.slice(0, 5), '09:00', '18:00'),
      spec(['Saturday'], '10:00', '14:00'),
      spec(['Sunday'], '00:00', '00:00'),
    ]);
    // not the same every week, not a time, open-ended, a comment: nothing rather than a guess
    for (const value of [
      'Mo-Fr 08:00-18:00; PH off',
      'sunrise-sunset',
      'Mo-Fr 09:00+',
      'Mo 10:00-12:00 "by appointment"',
      'Jan-Mar 10:00-12:00',
      'closed',
      '',
    ]) {
      expect(openingHoursSpecification(value), value).toBeNull();
    }
  });

  it('the home, plans and contact pages hold their content', async () => {
    const home = textOf(await html('/'));
    expect(home).toContain('Find Services Near You');
    expect(home).toContain('Search nearby places');
    expect(home).toContain('Local Pro');
    const plans = textOf(await html('/plans'));
    expect(plans).toContain('Local Pro');
    expect(plans).toContain('Ten listings');
    expect(plans).toContain('Frequently asked questions'.slice(0, 10));
    const contact = await html('/contact');
    expect(textOf(contact)).toContain('hello@places.example');
    expect(textOf(contact)).toMatch(/9:00\s?AM/);
    expect(tags(contact, 'input', { name: 'email' })).toHaveLength(1);
    const italian = textOf(await html('/it/contact'));
    expect(italian).toContain('hello@places.example');
    expect(italian).toContain('lunedì');
  });

  it('a group page lists its places with links to their pages; the home page links to the groups', async () => {
    const page = await html(PHARMACIES);
    const text = textOf(page);
    expect(tags(page, 'h1')).toHaveLength(1);
    expect(text).toContain('Pharmacies in Andorra la Vella');
    expect(text).toContain('Guitart');
    const links = tags(page, 'a').map((a) => a.href);
    expect(links).toContain(PHARMACY);
    const placeLinks = links.filter((href) => href.startsWith('/place/'));
    expect(placeLinks.length).toBeGreaterThan(3);
    for (const href of placeLinks.slice(0, 5)) expect((await server.get(href)).status, href).toBe(200);
    const head = headOf(page);
    expect(head.title).toBe('Pharmacies in Andorra la Vella · Find Services Near You');
    expect(head.canonical).toBe(ORIGIN + PHARMACIES);
    expect(head.description).toContain('Pharmacies in Andorra la Vella');

    const french = await html(`/fr${PHARMACIES}`);
    expect(textOf(french)).toContain('Pharmacies à Andorra la Vella');
    expect(tags(french, 'a').map((a) => a.href)).toContain(`/fr${PHARMACY}`);
    expect(textOf(await html(`/es${PHARMACIES}`))).toContain('Farmacias en Andorra la Vella');

    // from / a crawler reaches the groups, and from them the places
    const home = tags(await html('/'), 'a').map((a) => a.href);
    expect(home).toContain(PHARMACIES);
    expect(home.filter((href) => href.startsWith('/places/')).length).toBeGreaterThan(20);
    expect(tags(await html('/it/'), 'a').map((a) => a.href)).toContain(`/it${PHARMACIES}`);
  });

  it('a group with no places, or an unknown one, answers 404 not to be indexed', async () => {
    const { towns } = (await (await server.get('/api/groups')).json()) as {
      towns: { slug: string; categories: { id: string }[] }[];
    };
    const town = towns.find((t) => t.slug === 'andorra-la-vella')!;
    const empty = CATEGORY_IDS.find((id) => !town.categories.some((category) => category.id === id));
    expect(empty).toBeDefined();
    // a category the town has no place of; no such town; no such category
    for (const path of [
      `/places/${empty}/andorra-la-vella`,
      `/fr/places/${empty}/andorra-la-vella`,
      '/fr/places/pharmacy/atlantis',
      '/places/castle/andorra-la-vella',
    ]) {
      const page = await html(path, 404);
      expect(headOf(page).robots, path).toBe('noindex');
      expect(textOf(page)).toMatch(/Nothing listed here|Rien à afficher ici/);
    }
    expect((await server.get('/api/groups/pharmacy/atlantis')).status).toBe(404);
    const group = (await (await server.get(`/api/groups${PHARMACIES.slice('/places'.length)}?lang=en`)).json()) as {
      places: { id: string }[];
    };
    expect(group.places.map((place) => place.id)).toContain(PHARMACY.slice('/place/'.length));
  });

  it('every page names its five versions and x-default; each is its own canonical and names the others back', async () => {
    for (const rest of ['/', '/contact', '/plans', RESTAURANT, PHARMACIES]) {
      const seen = new Map<string, Record<string, string>>();
      for (const lang of LANGUAGES) {
        const path = lang === 'en' ? rest : rest === '/' ? `/${lang}/` : `/${lang}${rest}`;
        const page = await html(path);
        const head = headOf(page);
        expect(head.canonical, path).toBe(ORIGIN + path);
        expect(Object.keys(head.alternates).sort(), path).toEqual([...LANGUAGES, 'x-default'].sort());
        expect(head.alternates[lang]).toBe(head.canonical);
        expect(head.alternates['x-default']).toBe(ORIGIN + rest);
        expect(/<html lang="([^"]+)"/.exec(page)?.[1]).toBe(lang);
        seen.set(lang, head.alternates);
        // a title and description of its own, Open Graph and Twitter
        expect(head.title.length).toBeGreaterThan(3);
        expect(head.description?.length).toBeGreaterThan(10);
        expect(head.og['og:title']).toBe(head.title);
        expect(head.og['og:description']).toBe(head.description);
        expect(head.og['og:url']).toBe(head.canonical);
        expect(head.og['og:type']).toBe('website');
        expect(head.og['og:locale']).toMatch(new RegExp(`^${lang}_`));
        expect(head.og['og:image']).toBe(`${ORIGIN}/og-image.png`);
        expect(head.twitterCard).toBe('summary_large_image');
        expect(head.robots).toBeUndefined();
      }
      // reciprocal: every version names the same set
      for (const alternates of seen.values()) expect(alternates).toEqual(seen.get('en'));
    }
    // the titles differ between pages
    const titles = await Promise.all(
      ['/', '/contact', '/plans', PHARMACY, PHARMACIES].map(async (path) => headOf(await html(path)).title),
    );
    expect(new Set(titles).size).toBe(5);
    const image = await server.get('/og-image.png');
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('an unknown place answers 404 with a page that says so, not to be indexed', async () => {
    for (const path of ['/place/node/1', '/fr/place/way/999999999', '/place/node/abc', '/place/shop/5']) {
      const page = await html(path, 404);
      const head = headOf(page);
      expect(head.robots).toBe('noindex');
      expect(head.canonical).toBeUndefined();
      expect(textOf(page)).toMatch(/Place not found|Lieu introuvable/);
    }
  });

  it('robots.txt names the sitemap and keeps /admin and /api out', async () => {
    const response = await server.get('/robots.txt');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const lines = (await response.text()).split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Disallow: /admin');
    expect(lines).toContain('Disallow: /api/');
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });

  it('the sitemap lists every page in every language; its URLs answer 200', async () => {
    const response = await server.get('/sitemap.xml');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const xml = await response.text();
    const urls = xmlTexts(xml, 'loc');
    const count = (await server.handle.db
      .selectFrom('places' as never)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()) as { n: number | string };
    const groups = urls.filter((url) => url.startsWith(`${ORIGIN}/places/`));
    expect(groups.length).toBeGreaterThan(20);
    expect(urls.length).toBe((Number(count.n) + SITE_PAGES.length + groups.length) * LANGUAGES.length);
    expect(new Set(urls).size).toBe(urls.length);
    for (const url of [
      '/',
      '/fr/',
      '/plans',
      '/es/contact',
      '/privacy',
      '/it/terms',
      PHARMACY,
      `/pt${PHARMACY}`,
      PHARMACIES,
      `/fr${PHARMACIES}`,
    ])
      expect(urls).toContain(ORIGIN + url);
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="it" href="${ORIGIN}/it${PHARMACY}"/>`);
    // an import is no change: no lastmod
    expect(xml).not.toContain('<lastmod>');
    // every site page, a sample of the groups and of the places
    const sample = urls.filter(
      (url, i) =>
        (!url.includes('/place/') && !url.includes('/places/')) ||
        i % 97 === 0 ||
        (url.includes('/places/') && i % 23 === 0),
    );
    expect(sample.filter((url) => url.includes('/places/')).length).toBeGreaterThan(2);
    expect(sample.length).toBeGreaterThan(50);
    for (const url of sample) expect((await server.get(url)).status, url).toBe(200);
  });

  it('gives an own place a lastmod: when it was last edited', async () => {
    const {
      places: [own],
    } = await createPlaceStore(server.handle).writeOwn(
      { upsert: [{ name: 'Farmàcia Nova', category: 'pharmacy', lat: 42.507, lon: 1.52 }], remove: [] },
      Date.parse('2026-11-20T10:00:00Z'),
    );
    const xml = await (await server.get('/sitemap.xml')).text();
    expect(xml).toContain(
      `<url><loc>${ORIGIN}/place/own/${own.osmId}</loc><lastmod>2026-11-20T10:00:00.000Z</lastmod>`,
    );
    expect((await server.get(`/place/own/${own.osmId}`)).status).toBe(200);
  });

  it('redirects any other path to /, the page sources and the template included; /favicon.ico is an icon', async () => {
    for (const path of [
      '/Locator.tsx',
      '/public/Locator.tsx',
      '/PlacePage.tsx',
      '/entry-server.tsx',
      '/index.html',
      '/nowhere',
      '/contact/x',
      '/de/contact',
    ]) {
      const response = await server.get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe('/');
    }
    expect((await server.get('/fr')).headers.get('location')).toBe('/fr/');
    const icon = await server.get('/favicon.ico');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)$/);
    expect(Buffer.from(await icon.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    // the admin panel is drawn in the browser, and never indexed
    const admin = await html('/admin');
    expect(headOf(admin).robots).toBe('noindex');
  });

  it('compresses every text answer as the client accepts: pages, scripts, styles, JSON, XML', async () => {
    const home = await html('/');
    // the entry and the chunks it preloads: the largest of them
    const scripts = [
      tags(home, 'script', { type: 'module' })[0].src,
      ...tags(home, 'link', { rel: 'modulepreload' }).map((link) => link.href),
    ];
    const sizes = await Promise.all(scripts.map(async (src) => (await rawGet(server.baseUrl + src, {})).body.length));
    const script = scripts[sizes.indexOf(Math.max(...sizes))];
    const style = tags(home, 'link', { rel: 'stylesheet' })[0].href;
    const search =
      '/api/places?active_categories=pharmacy&active_categories=restaurant&lat=42.5078&lon=1.5211&limit=100';
    for (const path of ['/', '/fr/contact', PHARMACY, script, style, search, '/sitemap.xml']) {
      const plain = await rawGet(server.baseUrl + path, { 'accept-encoding': 'identity' });
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(plain.body.length, path).toBeGreaterThan(1024);
      const br = await rawGet(server.baseUrl + path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(String(br.headers.vary).toLowerCase(), path).toContain('accept-encoding');
      expect(br.body.length, path).toBeLessThan(plain.body.length / 2);
      expect(brotliDecompressSync(br.body).equals(plain.body), path).toBe(true);
      const gzip = await rawGet(server.baseUrl + path, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding'], path).toBe('gzip');
      expect(gunzipSync(gzip.body).equals(plain.body), path).toBe(true);
    }
    // a 100-result answer: 30 KB of JSON, a fraction of it sent
    const answer = await rawGet(server.baseUrl + search, { 'accept-encoding': 'br' });
    expect(JSON.parse(brotliDecompressSync(answer.body).toString()).results).toHaveLength(100);
  });

  it('a place or group page, its main content rendered into a kept shell, is the page rendered whole', async () => {
    const rootOf = (page: string) => /<div id="root">(.*)<\/div>\s*<script type="application\/json"/s.exec(page)![1];
    const dataOf = (page: string) =>
      JSON.parse(/<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(page)![1]) as PageData;
    const same = async (path: string) => {
      const page = await html(path);
      expect(rootOf(page), path).toBe(renderPage(path, dataOf(page)).html);
      return page;
    };
    for (const lang of LANGUAGES) {
      const base = lang === 'en' ? '' : `/${lang}`;
      // the first page of a kind in a language makes its shell, the others are rendered into it
      for (const path of [RESTAURANT, PHARMACY, PHARMACIES]) await same(`${base}${path}`);
    }
    // a change of the settings makes a new shell
    await server.request({ method: 'POST', url: '/api/settings', cookie, payload: { site_title: 'Valleys Guide' } });
    for (const path of [PHARMACY, `/it${RESTAURANT}`, PHARMACIES])
      expect(rootOf(await same(path)), path).toContain('<span class="brand__name">Valleys Guide</span>');
  });

  it('a kept page follows a change of the settings, the plans and the place itself', async () => {
    expect(textOf(await html('/plans'))).toContain('Local Pro');
    await server.request({
      method: 'POST',
      url: '/api/plans',
      cookie,
      payload: {
        name: 'Village Starter',
        price: 9,
        type: 'basic',
        description: 'One listing',
        link: 'https://example.com/s',
      },
    });
    expect(textOf(await html('/plans'))).toContain('Village Starter');

    await server.request({ method: 'POST', url: '/api/settings', cookie, payload: { site_title: 'Andorra Finder' } });
    expect(headOf(await html('/contact')).title).toBe('Contact us · Andorra Finder');

    const page = '/place/node/990000001';
    await html(page, 404);
    const place = {
      osmType: 'node' as const,
      osmId: 990000001,
      lat: 42.5063,
      lon: 1.5218,
      categories: maskOf(['bakery']),
      name: 'Forn del Poble',
      names: null,
      address: null,
      phone: null,
      website: null,
      openingHours: '24/7',
      wheelchair: null,
      country: 'AD',
      timezone: 'Europe/Andorra',
      tags: { shop: 'bakery' },
    };
    await writeImported(createPlaceStore(server.handle), [place], Date.now());
    expect(textOf(await html(page))).toContain('Forn del Poble');
    await writeImported(createPlaceStore(server.handle), [{ ...place, name: 'Forn de la Plaça' }], Date.now());
    expect(textOf(await html(page))).toContain('Forn de la Plaça');
    // and the group page it is in, once the groups are made again (at once on a store this size)
    await expect
      .poll(async () => textOf(await html('/places/bakery/andorra-la-vella')), { timeout: 5_000 })
      .toContain('Forn de la Plaça');
  });
});
