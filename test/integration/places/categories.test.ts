// Issue 3, point 1: the 34 categories and their OSM tags, checked against real extracts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  categoriesInMask,
  categorize,
  categoryBit,
  categoryName,
  maskOf,
  mostSpecific,
} from '../../../src/places/model/categories.js';
import { CATEGORY_IDS, type CategoryId } from '../../../src/places/model/category-ids.js';
import { LANGUAGES } from '../../../src/i18n.js';
import type { PlaceStore } from '../../../src/places/store/index.js';
import { EXTRACTS, tempDb, type TempDb } from '../../support/places.js';

const inCategories = (tags: Record<string, string>) => categoriesInMask(categorize(tags));

describe('the category table', () => {
  it('has the 34 categories of SPEC.md, in its order, each with a name in the five languages', () => {
    expect(CATEGORIES.map((c) => c.id)).toEqual([...CATEGORY_IDS]);
    expect(CATEGORIES).toHaveLength(34);
    for (const category of CATEGORIES) {
      expect(category.filters.length).toBeGreaterThan(0);
      for (const lang of LANGUAGES) expect(category.names[lang].trim()).not.toBe('');
    }
    expect(categoryName('pharmacy', 'es')).toBe('Farmacia');
    expect(categoryName('theater', 'fr')).toBe('Théâtre');
  });

  it('maps the tags the issue names as an OSM mapper expects', () => {
    expect(inCategories({ amenity: 'pharmacy' })).toContain('pharmacy');
    expect(inCategories({ healthcare: 'pharmacy' })).toContain('pharmacy');
    expect(inCategories({ amenity: 'fuel' })).toContain('gas_station');
    expect(inCategories({ leisure: 'fitness_centre' })).toContain('gym');
    expect(inCategories({ amenity: 'theatre' })).toContain('theater');
    expect(inCategories({ amenity: 'toilets' })).toContain('public_toilets');
    expect(inCategories({ tourism: 'camp_site' })).toContain('camping');
    for (const value of ['wlan', 'yes', 'wifi'])
      expect(inCategories({ amenity: 'cafe', internet_access: value })).toContain('wifi');
    expect(inCategories({ amenity: 'cafe', internet_access: 'no' })).not.toContain('wifi');
    for (const value of ['hotel', 'motel', 'hostel', 'guest_house'])
      expect(inCategories({ tourism: value })).toContain('hotel');
    expect(inCategories({ tourism: 'camp_site' })).not.toContain('hotel');
  });

  it('makes the broad categories sensible unions, without street furniture', () => {
    expect(inCategories({ amenity: 'hospital' })).toEqual(['healthcare', 'amenity', 'hospital']);
    expect(inCategories({ shop: 'bakery' })).toEqual(['shop', 'bakery']);
    expect(inCategories({ amenity: 'bank', atm: 'yes' })).toEqual(['amenity', 'financial', 'bank', 'atm']);
    expect(inCategories({ railway: 'station' })).toEqual(['transport']);
    expect(inCategories({ amenity: 'cinema' })).toEqual(['amenity', 'entertainment', 'cinema']);
    expect(inCategories({ amenity: 'police' })).toEqual(['amenity', 'public_service', 'police']);
    expect(inCategories({ amenity: 'school' })).toEqual(['amenity', 'education']);
    expect(inCategories({ tourism: 'museum' })).toEqual(['tourism', 'museum']);
    // not places anyone searches for
    expect(categorize({ amenity: 'bench' })).toBe(0);
    expect(categorize({ amenity: 'waste_basket' })).toBe(0);
    expect(categorize({ shop: 'vacant' })).toBe(0);
    expect(categorize({ highway: 'residential', name: 'Main Street' })).toBe(0);
    // a backyard pool is not a swimming pool a visitor can use
    expect(inCategories({ leisure: 'swimming_pool', access: 'private' })).not.toContain('swimming_pool');
    expect(inCategories({ leisure: 'swimming_pool' })).toContain('swimming_pool');
  });

  it('shows a place under the most specific requested category it is in', () => {
    const pharmacy = categorize({ amenity: 'pharmacy', healthcare: 'pharmacy' });
    expect(mostSpecific(pharmacy, maskOf(['amenity', 'healthcare', 'pharmacy']))).toBe('pharmacy');
    expect(mostSpecific(pharmacy, maskOf(['amenity', 'healthcare']))).toBe('healthcare');
    expect(mostSpecific(pharmacy, maskOf(['amenity']))).toBe('amenity');
    const hotelWithWifi = categorize({ tourism: 'hotel', internet_access: 'wlan' });
    expect(mostSpecific(hotelWithWifi, maskOf(['wifi', 'hotel', 'tourism']))).toBe('hotel');
    expect(mostSpecific(hotelWithWifi, maskOf(['wifi', 'tourism']))).toBe('wifi');
    expect(mostSpecific(hotelWithWifi, maskOf(['bank']))).toBeNull();
  });

  it('keeps masks exact beyond 32 bits (wifi is bit 33)', () => {
    expect(categoryBit('wifi')).toBe(2 ** 33);
    expect(categoriesInMask(maskOf(['wifi', 'healthcare']))).toEqual(['healthcare', 'wifi']);
    expect(maskOf(CATEGORY_IDS)).toBe(2 ** 34 - 1);
  });
});

// Real objects of the four extracts, one (at least) per category, by OSM type/id and name.
const REAL_EXAMPLES: [CategoryId, string, string][] = [
  ['healthcare', 'node/799580956', 'London Drugs'],
  ['amenity', 'way/53559270', 'Queen Elizabeth Annex'],
  ['shop', 'node/582801864', 'Our Community Bikes'],
  ['tourism', 'relation/393226', 'Palais Princier de Monaco'],
  ['education', 'relation/1424987', 'University of British Columbia'],
  ['transport', 'node/324157646', 'Dupont Circle'],
  ['entertainment', 'relation/7947924', 'Naturlandia (cota 2000)'],
  ['financial', 'node/700544513', 'CIBC'],
  ['public_service', 'relation/10837845', "Oficina del Comú d'Encamp"],
  ['restaurant', 'node/267901435', 'Stars ’n’ Bars'],
  ['hotel', 'relation/2093796', 'Fairmont'],
  ['parking', 'node/1880130278', 'Parking des Carmes'],
  ['pharmacy', 'node/280489587', 'Pharmacie des Moulins'],
  ['hospital', 'way/31258861', 'Amherst Hospital and Nursing Home'],
  ['bank', 'node/780962634', 'BMO'],
  ['atm', 'node/983648513', 'HSBC'],
  ['gas_station', 'way/23776035', 'Chevron'],
  ['supermarket', 'node/690708590', 'Maxi Mercat'],
  ['bakery', 'node/753408187', 'Hello Cupcake'],
  ['butcher', 'node/925737291', 'Sing Chong Food Center'],
  ['post_office', 'node/1999205789', 'Monaco Ville'],
  ['police', 'way/30772650', "Policia D'Andorra"],
  ['fire_station', 'node/306011599', 'DC Fire Department Engine Company No. 1'],
  ['library', 'node/582801479', 'Mount Pleasant Branch'],
  ['gym', 'node/3365391450', 'Monaco Fitness Center'],
  ['swimming_pool', 'way/39368568', 'Second Beach Pool'],
  ['park', 'relation/1416614', 'Nitobe Memorial Garden'],
  ['playground', 'way/88310489', 'Water Park'],
  ['cinema', 'way/292391497', 'The Rio'],
  ['theater', 'way/65780645', 'DAR Constitution Hall'],
  ['museum', 'way/23715051', 'Musée Océanographique'],
  ['public_toilets', 'way/332994041', 'Bridgman Park Washrooms'],
  ['camping', 'way/330823764', 'Càmping Casal'],
  ['wifi', 'node/3328027775', 'Starbucks'],
];

describe('every category against the real extracts', () => {
  let db: TempDb;
  let store: PlaceStore;

  beforeAll(async () => {
    db = await tempDb({ extracts: [EXTRACTS.vancouver, EXTRACTS.monaco, EXTRACTS.andorra, EXTRACTS.dc] });
    store = db.index;
  });
  afterAll(() => db.close());

  it('names a real example for each of the 34 categories', () => {
    expect(new Set(REAL_EXAMPLES.map(([id]) => id))).toEqual(new Set(CATEGORY_IDS));
  });

  it.each(REAL_EXAMPLES)('%s: %s (%s) is in it', async (category, ref, name) => {
    const [type, id] = ref.split('/') as ['node' | 'way' | 'relation', string];
    const place = await store.getByOsmId(type, Number(id));
    expect(place, `${ref} was not imported`).not.toBeNull();
    expect(place!.name).toBe(name);
    expect(categoriesInMask(place!.categories)).toContain(category);
  });

  it('has places of every category in the extracts, each matching its category by its own tags', async () => {
    const rows = await db.rows<{ categories: number; tags: string }>(
      'select p.categories, t.tags from places p join place_tags t on t.id = p.id',
    );
    const counts = new Map<string, number>();
    for (const row of rows) {
      expect(categorize(JSON.parse(row.tags))).toBe(row.categories);
      for (const category of categoriesInMask(row.categories)) counts.set(category, (counts.get(category) ?? 0) + 1);
    }
    for (const category of CATEGORY_IDS) expect(counts.get(category) ?? 0, category).toBeGreaterThan(0);
  });

  it('leaves out the street furniture and private pools that are in the extracts', async () => {
    for (const ref of ['node/613049434', 'node/917978746', 'way/238793195', 'way/161752646']) {
      const [type, id] = ref.split('/') as ['node' | 'way', string];
      expect(await store.getByOsmId(type, Number(id)), ref).toBeNull();
    }
  });
});
