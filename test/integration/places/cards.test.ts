// Issue 10: a search's answer is made from the places' cards (src/places/search/cards.ts): on
// SQLite written by the database's triggers (db/migrations/0007), elsewhere in JavaScript. The
// JSON text that GET /api/places sends must say exactly what the objects of places.search say,
// the two cards must agree, and on SQLite the in-memory grid must follow what other connections
// (other processes) write.
import Database from '../../../db/sqlite-driver.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskOf } from '../../../src/places/model/categories.js';
import { collect } from '../../../src/places/sources/import/collect.js';
import { pbfSource } from '../../../src/places/sources/import/pbf.js';
import { cardJson } from '../../../src/places/search/cards.js';
import { SqlitePlaceStore } from '../../../src/places/store/sqlite/store.js';
import type { StoredPlace } from '../../../src/places/store/types.js';
import { toPlace } from '../../../src/places/model/osm.js';
import { createPlacesService } from '../../../src/places/search/service.js';
import { LANGUAGES } from '../../../src/i18n.js';
import { createDb, migrate, type SqliteHandle } from '../../../db/index.js';
import { migrations } from '../../../db/migrations/index.js';
import { onlyOn } from '../../support/databases.js';
import { EXTRACTS, tempDb, writeImported, type TempDb } from '../../support/places.js';

/** Text that JSON must escape, and text in other scripts. */
const AWKWARD = [
  'Café "Le Bœuf" \\ sur le toit',
  'Line\nbreak\tand\u0001control',
  '東京 ラーメン 🍜',
  "O'Brien's </script>",
  '\u2028\u2029',
];

describe("search answers from the places' cards", () => {
  let db: TempDb;
  const now = Date.parse('2026-11-18T20:00:00Z');

  beforeAll(async () => {
    db = await tempDb({ extracts: [EXTRACTS.vancouver], now });
    // places whose every text needs escaping, in every way an answer shows text
    await writeImported(
      db.index,
      AWKWARD.map((text, i) =>
        toPlace('node', 9_000_000_000 + i, 49.2827 + i / 10_000, -123.1207, {
          amenity: 'restaurant',
          name: text,
          [`name:${LANGUAGES[i % LANGUAGES.length]}`]: `${text} (${LANGUAGES[i % LANGUAGES.length]})`,
          'addr:street': text,
          'addr:housenumber': String(i),
          phone: `+1 604 ${text}`,
          website: `https://example.com/${encodeURIComponent(text)}`,
          opening_hours: i % 2 ? 'Mo-Su 09:00-21:00' : 'Mo-Fr 08:00-12:00',
          wheelchair: ['yes', 'limited', 'no'][i % 3],
        })!,
      ),
    );
    await db.index.writeOwn(
      {
        upsert: [
          {
            name: AWKWARD[0],
            category: 'pharmacy',
            lat: 49.2828,
            lon: -123.1208,
            address: AWKWARD[1],
            phone: '"1"',
            website: 'https://example.com/"x"',
            openingHours: '24/7',
          },
        ],
        remove: [],
      },
      now,
    );
  }, 120_000);
  afterAll(() => db.close());

  it('JSON text and objects say the same, for every language, with and without open_now', async () => {
    const service = createPlacesService({
      index: db.index,
      overpassUrl: null,
      siteOrigin: 'http://localhost',
      now: () => now,
    });
    const settings = { allowedCategories: [], defaultCity: '' };
    let compared = 0;
    for (const [lat, lon] of [
      [49.2827, -123.1207],
      [49.25, -123.1],
      [49.3, -123.2],
      [0, 0],
    ]) {
      for (const lang of LANGUAGES) {
        for (const categories of [['restaurant', 'pharmacy'], ['amenity'], ['healthcare', 'shop', 'atm']]) {
          for (const openNow of [false, true]) {
            const params = {
              active_categories: categories,
              lat,
              lon,
              radius: 5000,
              limit: 100,
              open_now: openNow,
              lang,
            };
            const answer = await service.search(params, settings);
            const objects = answer.objects();
            const text = { json: answer.json(), found: answer.places.length };
            expect(JSON.parse(text.json)).toEqual(objects);
            expect(text.found).toBe(objects.results.length);
            compared += objects.results.length;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(5_000);
    const awkward = (
      await service.search(
        { active_categories: ['restaurant'], lat: 49.2827, lon: -123.1207, radius: 50, limit: 100, lang: 'fr' },
        settings,
      )
    ).objects();
    expect(awkward.results.map((r) => r.address)).toEqual(
      expect.arrayContaining([expect.stringContaining(AWKWARD[1])]),
    );
  });

  onlyOn('sqlite', () => {
    it("the triggers write every place's card as cardJson() does, byte for byte", async () => {
      const sqlite = (db.index as SqlitePlaceStore).sqlite;
      const cards = new Map(
        (
          sqlite
            .prepare('select id, card, name, names, opening_hours, country, timezone from place_cards')
            .all() as Record<string, unknown>[]
        ).map((r) => [r.id, r]),
      );
      const places = sqlite
        .prepare(
          'select id, osm_type as osmType, osm_id as osmId, name, names, address, address_source as addressSource, phone, website, opening_hours as openingHours, wheelchair, country, timezone from places',
        )
        .all() as (StoredPlace & { names: string | null })[];
      expect(cards.size).toBe(places.length);
      let escaped = 0;
      for (const place of places) {
        const card = cards.get(place.id)!;
        const expected = cardJson(place);
        expect(card.card).toBe(expected);
        if (/\\[nt"\\u]/.test(expected)) escaped++;
        const hours = place.openingHours !== null;
        expect(card).toMatchObject({
          name: place.name,
          names: place.names,
          opening_hours: place.openingHours,
          country: hours ? place.country : null,
          timezone: hours ? place.timezone : null,
        });
      }
      expect(escaped).toBeGreaterThanOrEqual(3); // quotes and backslashes, line breaks and controls, the own place
    });

    it('follows what another connection writes: added, moved, re-filed, removed, and a log it fell behind', async () => {
      const index = db.index as SqlitePlaceStore;
      const other = new SqlitePlaceStore(new Database(db.url.replace(/^sqlite:/, '')));
      try {
        const at = [49.2, -123.0] as const;
        // Another process's commits show from the next turn of the event loop (the log is looked
        // at once a turn): the turn's requests arrived together with the commit.
        const ids = async (mask = maskOf(['bakery'])) => {
          await new Promise((resolve) => setImmediate(resolve));
          return (await (await index.feed.reads()).nearest(at[0], at[1], 1, mask, 10)).map((n) => n.place.name);
        };
        expect(await ids()).toEqual([]);
        const bakery = (id: number, lat: number, tags: Record<string, string> = {}) =>
          toPlace('node', id, lat, at[1], { shop: 'bakery', name: `Bakery ${id}`, ...tags })!;
        await writeImported(other, [bakery(8_000_000_001, at[0]), bakery(8_000_000_002, at[0] + 0.001)]);
        expect(await ids()).toEqual(['Bakery 8000000001', 'Bakery 8000000002']);
        // moved and renamed: the cached card goes too
        await writeImported(other, [bakery(8_000_000_001, at[0] + 0.002, { name: 'Moved' })]);
        expect(await ids()).toEqual(['Bakery 8000000002', 'Moved']);
        // re-filed: now a butcher's only
        await writeImported(other, [
          toPlace('node', 8_000_000_002, at[0] + 0.001, at[1], { shop: 'butcher', name: 'Now a butcher' })!,
        ]);
        expect(await ids()).toEqual(['Moved']);
        expect(await ids(maskOf(['butcher']))).toEqual(['Now a butcher']);
        // the log pruned past what this process saw: it reads every place again
        other.sqlite.prepare('delete from places where osm_id = 8000000001').run();
        other.sqlite.prepare('delete from place_changes').run();
        other.sqlite.prepare("update places set name = 'Renamed' where osm_id = 8000000002").run();
        expect(await ids()).toEqual([]);
        expect(await ids(maskOf(['butcher']))).toEqual(['Renamed']);
      } finally {
        other.sqlite.close();
      }
    });
  });

  onlyOn('sqlite', () => {
    it('a full card cache takes no more, starts afresh after ten times its size turned away, and never shows an old card', async () => {
      const path = db.url.replace(/^sqlite:/, '');
      const small = new SqlitePlaceStore(new Database(path), 40);
      const uncached = new SqlitePlaceStore(new Database(path), 0);
      const writer = new Database(path);
      try {
        const mask = maskOf(['amenity', 'shop']);
        const points = Array.from(
          { length: 12 },
          (_, i) => [49.26 + (i % 4) * 0.01, -123.14 + Math.floor(i / 4) * 0.01] as const,
        );
        const shown = async (index: SqlitePlaceStore, at: readonly [number, number]) =>
          (await (await index.feed.reads()).nearest(at[0], at[1], 1, mask, 30)).map(
            (n) => `${n.place.name} ${n.place.json}`,
          );
        const sizes: number[] = [];
        const compare = async () => {
          for (const at of points) {
            // another connection's commits show from the next turn (as in the test above)
            await new Promise((resolve) => setImmediate(resolve));
            expect(await shown(small, at)).toEqual(await shown(uncached, at));
            sizes.push((await small.feed.reads()).cachedCards);
          }
        };
        // no writes: it fills to its size and no further, then is emptied once 400 were turned away
        for (let round = 0; round < 4; round++) await compare();
        expect(Math.max(...sizes)).toBe(40);
        const emptied = sizes.findIndex((size, i) => i > 0 && size < sizes[i - 1]);
        expect(emptied).toBeGreaterThan(0);
        expect((await uncached.feed.reads()).cachedCards).toBe(0);
        // the places it holds renamed by another process: never shown with their old card
        for (let round = 0; round < 4; round++) {
          const before = (await small.feed.reads()).cachedCards;
          writer
            .prepare(
              `update places set name = coalesce(name, '') || ' (renamed ${round})' where lat between 49.24 and 49.31 and lon between -123.16 and -123.1`,
            )
            .run();
          await compare();
          expect(before).toBeGreaterThan(0);
        }
      } finally {
        small.sqlite.close();
        uncached.sqlite.close();
        writer.close();
      }
    });

    it('a site whose places came before the cards gets a card for each of them, and searches them', async () => {
      const dir = db.dir;
      const handle = createDb({ kind: 'sqlite', path: `${dir}/older.db` }) as SqliteHandle;
      try {
        const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0007'));
        await migrate(handle, before);
        // the places alone, as an import of that time wrote them (no address context yet)
        const writer = new SqlitePlaceStore(handle.sqlite).importWriter(now);
        await collect(pbfSource(EXTRACTS.monaco), writer);
        await writer.commit();
        expect(
          handle.sqlite.prepare("select count(*) from sqlite_master where name = 'place_cards'").pluck().get(),
        ).toBe(0);
        expect(await migrate(handle)).toEqual(Object.keys(migrations).filter((name) => name >= '0007'));
        const places = handle.sqlite.prepare('select count(*) from places').pluck().get() as number;
        expect(places).toBeGreaterThan(100);
        expect(handle.sqlite.prepare('select count(*) from place_cards').pluck().get()).toBe(places);
        const service = createPlacesService({
          index: new SqlitePlaceStore(handle.sqlite),
          overpassUrl: null,
          siteOrigin: 'http://localhost',
          now: () => now,
        });
        const params = {
          active_categories: ['restaurant'],
          lat: 43.7384,
          lon: 7.4246,
          radius: 5000,
          limit: 100,
          lang: 'en' as const,
        };
        const search = await service.search(params, { allowedCategories: [], defaultCity: '' });
        const answer = search.objects();
        const text = { json: search.json() };
        expect(answer.results.length).toBeGreaterThan(20);
        expect(JSON.parse(text.json)).toEqual(answer);
      } finally {
        await handle.close();
      }
    });
  });
});
