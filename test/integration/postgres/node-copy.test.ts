// Issue 28: a process's own copy of the places on PostgreSQL (src/places/store/postgres/node-copy.ts),
// against what PostgreSQL holds: text that COPY escapes comes back as it was written, a process
// that falls far behind reads everything again, and another process's copy sees the same.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type PostgresHandle } from '../../../db/index.js';
import { parseDatabaseUrl } from '../../../src/config.js';
import { maskOf } from '../../../src/places/model/categories.js';
import { distanceKm } from '../../../src/places/model/geo.js';
import { cardJson } from '../../../src/places/search/cards.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { NodeCopy } from '../../../src/places/store/postgres/node-copy.js';
import type { PlaceRecord } from '../../../src/places/model/osm.js';
import { caughtUp, tempDb, writeImported, type TempDb } from '../../support/places.js';

const RESTAURANT = maskOf(['restaurant']);

const place = (
  osmId: number,
  name: string,
  lat: number,
  lon: number,
  extra: Partial<PlaceRecord> = {},
): PlaceRecord => ({
  osmType: 'node',
  osmId,
  lat,
  lon,
  categories: RESTAURANT,
  name,
  names: null,
  address: null,
  phone: null,
  website: null,
  openingHours: null,
  wheelchair: null,
  country: null,
  timezone: null,
  tags: { amenity: 'restaurant', name },
  ...extra,
});

describe('a process’s copy of the places on PostgreSQL', () => {
  let db: TempDb;
  /** a second process: a handle (pool, copy) of its own on the same database */
  let other: PostgresHandle;

  beforeAll(async () => {
    db = await tempDb();
    other = createDb(parseDatabaseUrl(db.url)!, { poolSize: 2 }) as PostgresHandle;
  });
  afterAll(async () => {
    await other?.close();
    await db?.close();
  });

  it('loads and follows text that COPY escapes as it was written', async () => {
    const awkward = place(1, 'Tab\there, new\nline, back\\slash \\N, «ça» 🍜', 10, 10, {
      names: { fr: 'Le \\t "quoted"', ja: 'ラーメン\r\n' },
      address: '1\\2\t3',
      openingHours: 'Mo-Su 10:00-22:00',
      country: 'CA',
      timezone: 'America/Vancouver',
      wheelchair: 'limited',
    });
    await writeImported(db.index, [awkward]);
    // a copy loaded after the write (COPY), and one loaded before it that follows the log
    const before = createPlaceStore(other);
    await before.feed.reads();
    const { position } = await writeImported(db.index, [place(2, 'Then\tthis one', 10.001, 10)]);
    const after = createDb(parseDatabaseUrl(db.url)!, { poolSize: 2 }) as PostgresHandle;
    try {
      await before.feed.caughtUp(position);
      for (const index of [before, createPlaceStore(after)]) {
        const found = await (await index.feed.reads()).nearest(10, 10, 1, RESTAURANT, 10);
        const stored = await db.index.getByOsmId('node', 1);
        expect(found.map((n) => n.place.name)).toEqual([awkward.name, 'Then\tthis one']);
        const [card] = found;
        expect(card.place.json).toBe(cardJson(stored!));
        expect(card.place.names).toEqual(awkward.names);
        expect([card.place.openingHours, card.place.country, card.place.timezone]).toEqual([
          'Mo-Su 10:00-22:00',
          'CA',
          'America/Vancouver',
        ]);
      }
    } finally {
      await after.close();
    }
  });

  it('reads everything again when more changes wait than applying them is worth', async () => {
    const index = createPlaceStore(other);
    await index.feed.reads();
    const copy = other.shared(NodeCopy);
    const loads = copy.loads;
    // 60,000 places written by another process in one statement: past the copy's 50,000
    await db.rows(`insert into places (osm_type, osm_id, lat, lon, categories, name, source, fetched_at)
      select 'node', 1000000 + i, 20 + (i % 300) * 0.001, 20 + (i / 300) * 0.001, ${RESTAURANT}, 'Bulk ' || i, 'import', 0 from generate_series(1, 60000) as i`);
    await caughtUp(other);
    expect(copy.loads).toBe(loads + 1);
    const found = await (await index.feed.reads()).nearest(20, 20, 0.5, RESTAURANT, 1000);
    const bulk = await db.rows<{ id: number; lat: number; lon: number }>(
      `select id, lat, lon from places where name like 'Bulk %'`,
    );
    const expected = bulk
      .filter((p) => distanceKm(20, 20, p.lat, p.lon) <= 0.5)
      .map((p) => p.id)
      .sort((x, y) => x - y);
    expect(found.map((n) => n.place.id).sort((x, y) => x - y)).toEqual(expected);
    expect(found.length).toBeGreaterThan(0);
    // and a removal of all of them is followed the same way
    await db.rows(`delete from places where name like 'Bulk %'`);
    await caughtUp(other);
    expect(await (await index.feed.reads()).nearest(20, 20, 5, RESTAURANT, 10)).toEqual([]);
  });

  it('searches the places of a live fetch it waited for, without waiting for the notification', async () => {
    // A search that waited while another node fetched its area from Overpass finds the area
    // covered (search.ts), then searches again: that fetch's places must be in its copy by then.
    const index = createPlaceStore(other);
    await index.feed.reads();
    // the copies of this test process hear nothing for a second: their listening sessions are cut
    await db.rows(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'nearby-place-finder listen'`,
    );
    const now = Date.now();
    await db.index.writeLive(
      [place(70, 'Fetched by the other node', -30.001, -30)],
      { lat: -30, lon: -30, radiusM: 1000, categories: RESTAURANT },
      now,
      now - 86_400_000,
    );
    expect(await index.liveCovered(-30, -30, 1000, RESTAURANT, now - 1)).toBe(true);
    expect((await (await index.feed.reads()).nearest(-30, -30, 1, RESTAURANT, 10)).map((n) => n.place.name)).toEqual([
      'Fetched by the other node',
    ]);
  });
});
