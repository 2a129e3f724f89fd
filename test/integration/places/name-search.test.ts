// Search by name (q): any language the place has, case and accents aside, word prefixes, nearest
// first, within the radius, with or without categories; the name index follows every write.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskOf } from '../../../src/places/model/categories.js';
import type { CategoryId } from '../../../src/places/model/category-ids.js';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { NAME_MATCHES_SQL } from '../../../src/places/search/local-reads.js';
import { nameTerms } from '../../../src/places/search/name-query.js';
import type { PlaceRecord } from '../../../src/places/model/osm.js';
import { onlyOn } from '../../support/databases.js';
import { buildTestApp, type TestApp } from '../../helpers.js';
import { writeImported } from '../../support/places.js';

const AT = { lat: 38.9, lon: -77.03 };
let nextId = 1;
const place = (
  name: string,
  category: CategoryId,
  northKm: number,
  names: Record<string, string> | null = null,
): PlaceRecord => ({
  osmType: 'node',
  osmId: nextId++,
  lat: AT.lat + northKm / 111.2,
  lon: AT.lon,
  categories: maskOf([category]),
  name,
  names,
  address: null,
  phone: null,
  website: null,
  openingHours: null,
  wheelchair: null,
  country: 'US',
  timezone: 'America/New_York',
  tags: {},
});

describe('search by name', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await writeImported(createPlaceStore(t.handle), [
      place('Starbucks Reserve', 'restaurant', 2),
      place('Starbucks Coffee', 'restaurant', 0.5),
      place('Starbucks Far Away', 'restaurant', 12),
      place('Café Müller', 'restaurant', 1, { fr: 'Café Müller', es: 'Cafetería Muller' }),
      place('Farmácia São João', 'pharmacy', 0.7),
      place('Bank of Starbuckville', 'bank', 3),
    ]);
  });
  afterAll(() => t.close());

  const names = async (query: string) => {
    const response = await t.request({ method: 'GET', url: `/api/places?lat=${AT.lat}&lon=${AT.lon}&${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().results as { name: string }[]).map((r) => r.name);
  };

  it('finds word prefixes, nearest first, within the radius, across all categories without any', async () => {
    expect(await names('q=starb')).toEqual(['Starbucks Coffee', 'Starbucks Reserve', 'Bank of Starbuckville']);
    expect(await names('q=STARBUCKS%20res')).toEqual(['Starbucks Reserve']);
    expect(await names('q=starb&radius=20000')).toContain('Starbucks Far Away');
    expect(await names('q=tarbucks')).toEqual([]); // a prefix of a word, not any substring
  });

  it('keeps to the categories given', async () => {
    expect(await names('q=starb&active_categories=bank')).toEqual(['Bank of Starbuckville']);
    expect(await names('q=farm&active_categories=restaurant')).toEqual([]);
  });

  it('ignores case and accents, and reads every language the place has', async () => {
    expect(await names('q=cafe%20muller')).toEqual(['Café Müller']);
    expect(await names('q=M%C3%9CLLER')).toEqual(['Café Müller']);
    expect(await names('q=cafeteria&lang=es')).toEqual(['Cafetería Muller']);
    expect(await names('q=sao%20joao')).toEqual(['Farmácia São João']);
    expect(await names('q=Farm%C3%A1cia%20S%C3%A3o')).toEqual(['Farmácia São João']);
  });

  it('follows re-imports: a renamed place is found by its new name only', async () => {
    const renamed = { ...place('Starbucks Coffee', 'restaurant', 0.5), osmId: 2, name: 'Peet’s Coffee' };
    nextId--;
    await writeImported(createPlaceStore(t.handle), [renamed]);
    // written through an index of its own, as another process would: seen from the next turn
    await new Promise((resolve) => setImmediate(resolve));
    expect(await names('q=peet')).toEqual(['Peet’s Coffee']);
    expect(await names('q=starb')).toEqual(['Starbucks Reserve', 'Bank of Starbuckville']);
  });

  it('takes query syntax as plain words, and refuses a too long q naming it', async () => {
    expect(nameTerms('"star*" OR (x) NEAR: -1')).toEqual(['star', 'or', 'x', 'near', '1']);
    expect(await names('q=%22starb%22%20*')).toEqual(['Starbucks Reserve', 'Bank of Starbuckville']);
    const response = await t.request({ method: 'GET', url: `/api/places?lat=1&lon=1&q=${'a'.repeat(101)}` });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^q: /);
  });

  // SQLite's own word that a name search reads the full-text index, not every row (on both
  // engines the same statement, on PostgreSQL against each process's private file).
  onlyOn('sqlite', () => {
    it('reads the FTS5 name index (SQLite’s query plan)', async () => {
      const plan = await sql
        .raw<{ detail: string }>(`explain query plan ${NAME_MATCHES_SQL.replace('?', "'starb*'")}`)
        .execute(t.handle.db);
      expect(plan.rows.map((row) => row.detail)).toEqual([
        expect.stringMatching(/^SCAN places_names VIRTUAL TABLE INDEX \d+:M/),
      ]); // M: the match
    });
  });

  it('still needs a category when there is no q', async () => {
    const response = await t.request({ method: 'GET', url: `/api/places?lat=${AT.lat}&lon=${AT.lon}` });
    expect(response.statusCode).toBe(400);
  });
});
