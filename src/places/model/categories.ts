// THE table: each of the 34 locator categories and the OpenStreetMap tags
// that put a place in it, with its display name in the five languages (category-names.ts).
// Import, search, the Overpass query and the tests all read this one table.
import { createHash } from 'node:crypto';
import type { Lang } from '../../i18n.js';
import { CATEGORY_IDS, type CategoryId } from './category-ids.js';
import { CATEGORY_NAMES } from './category-names.js';

export type Tags = Readonly<Record<string, string>>;

/**
 * One tag test: `key` has one of `values` (any value but `except` when `values` is absent), and
 * every `and` tag holds one of its values, and no `not` tag holds one of its values.
 */
export interface TagFilter {
  key: string;
  values?: readonly string[];
  except?: readonly string[];
  and?: Readonly<Record<string, readonly string[]>>;
  not?: Readonly<Record<string, readonly string[]>>;
}

/**
 * How specific a category is, to pick the one a result is shown under when it matches several
 * requested ones: a pharmacy asked for as [pharmacy, healthcare, amenity] shows as pharmacy.
 * 3: one kind of place; 2: a facility found on many kinds of place (wifi);
 * 1: a theme (healthcare, transport...); 0: a whole OSM key (amenity, shop, tourism).
 */
export type Specificity = 0 | 1 | 2 | 3;

export interface Category {
  id: CategoryId;
  specificity: Specificity;
  filters: readonly TagFilter[];
  names: Readonly<Record<Lang, string>>;
}

// Street furniture and other things nobody searches "nearby" for: they would drown the broad
// `amenity` category (OSM has far more benches than restaurants).
const AMENITY_NOISE = [
  'bench',
  'waste_basket',
  'waste_disposal',
  'recycling',
  'parking_space',
  'parking_entrance',
  'bicycle_parking',
  'motorcycle_parking',
  'vending_machine',
  'post_box',
  'clock',
  'grit_bin',
  'hunting_stand',
  'loading_dock',
  'shelter',
  'telephone',
  'drinking_water',
  'water_point',
  'fountain',
  'watering_place',
  'bbq',
  'lounger',
  'feeding_place',
  'game_feeding',
  'trolley_bay',
  'smoking_area',
  'letter_box',
  'sanitary_dump_station',
  'kneipp_water_cure',
  'no',
  'yes',
];
const NOT_PRIVATE = { access: ['private', 'no'] } as const;

const filter = (key: string, ...values: string[]): TagFilter => ({ key, values });

export const CATEGORIES: readonly Category[] = [
  {
    id: 'healthcare',
    specificity: 1,
    filters: [
      filter('amenity', 'hospital', 'clinic', 'doctors', 'dentist', 'pharmacy'),
      { key: 'healthcare', except: ['no'] },
    ],
    names: CATEGORY_NAMES.healthcare,
  },
  {
    id: 'amenity',
    specificity: 0,
    filters: [{ key: 'amenity', except: AMENITY_NOISE }],
    names: CATEGORY_NAMES.amenity,
  },
  {
    id: 'shop',
    specificity: 0,
    filters: [{ key: 'shop', except: ['no', 'vacant', 'disused'] }],
    names: CATEGORY_NAMES.shop,
  },
  {
    id: 'tourism',
    specificity: 0,
    // information boards and guideposts are tourism=information too; only offices are places
    filters: [
      { key: 'tourism', except: ['no', 'yes', 'information'] },
      { key: 'tourism', values: ['information'], and: { information: ['office', 'visitor_centre'] } },
    ],
    names: CATEGORY_NAMES.tourism,
  },
  {
    id: 'education',
    specificity: 1,
    filters: [
      filter(
        'amenity',
        'school',
        'university',
        'college',
        'kindergarten',
        'library',
        'language_school',
        'music_school',
        'driving_school',
        'training',
        'research_institute',
      ),
    ],
    names: CATEGORY_NAMES.education,
  },
  {
    id: 'transport',
    specificity: 1,
    filters: [
      filter(
        'amenity',
        'bus_station',
        'ferry_terminal',
        'taxi',
        'car_rental',
        'car_sharing',
        'bicycle_rental',
        'boat_rental',
        'fuel',
        'charging_station',
        'parking',
      ),
      filter('public_transport', 'station'),
      filter('railway', 'station', 'halt', 'tram_stop', 'subway_entrance'),
      filter('highway', 'bus_stop'),
      filter('aerialway', 'station'),
      filter('aeroway', 'aerodrome', 'terminal'),
    ],
    names: CATEGORY_NAMES.transport,
  },
  {
    id: 'entertainment',
    specificity: 1,
    filters: [
      filter(
        'amenity',
        'cinema',
        'theatre',
        'arts_centre',
        'nightclub',
        'casino',
        'music_venue',
        'events_venue',
        'planetarium',
        'gambling',
        'community_centre',
      ),
      filter(
        'leisure',
        'amusement_arcade',
        'bowling_alley',
        'water_park',
        'escape_game',
        'miniature_golf',
        'dance',
        'stadium',
        'ice_rink',
      ),
      filter('tourism', 'theme_park', 'zoo', 'aquarium'),
    ],
    names: CATEGORY_NAMES.entertainment,
  },
  {
    id: 'financial',
    specificity: 1,
    filters: [
      filter('amenity', 'bank', 'atm', 'bureau_de_change', 'money_transfer', 'payment_centre'),
      filter('office', 'financial', 'financial_advisor'),
    ],
    names: CATEGORY_NAMES.financial,
  },
  {
    id: 'public_service',
    specificity: 1,
    filters: [
      filter(
        'amenity',
        'townhall',
        'police',
        'fire_station',
        'post_office',
        'courthouse',
        'ranger_station',
        'social_facility',
        'embassy',
      ),
      filter('office', 'government', 'diplomatic'),
    ],
    names: CATEGORY_NAMES.public_service,
  },
  {
    id: 'restaurant',
    specificity: 3,
    filters: [filter('amenity', 'restaurant', 'fast_food', 'food_court')],
    names: CATEGORY_NAMES.restaurant,
  },
  {
    id: 'hotel',
    specificity: 3,
    filters: [filter('tourism', 'hotel', 'motel', 'hostel', 'guest_house')],
    names: CATEGORY_NAMES.hotel,
  },
  {
    id: 'parking',
    specificity: 3,
    filters: [{ key: 'amenity', values: ['parking'], not: NOT_PRIVATE }],
    names: CATEGORY_NAMES.parking,
  },
  {
    id: 'pharmacy',
    specificity: 3,
    filters: [filter('amenity', 'pharmacy'), filter('healthcare', 'pharmacy')],
    names: CATEGORY_NAMES.pharmacy,
  },
  {
    id: 'hospital',
    specificity: 3,
    filters: [filter('amenity', 'hospital'), filter('healthcare', 'hospital')],
    names: CATEGORY_NAMES.hospital,
  },
  {
    id: 'bank',
    specificity: 3,
    filters: [filter('amenity', 'bank')],
    names: CATEGORY_NAMES.bank,
  },
  {
    id: 'atm',
    specificity: 3,
    // a bank with a cash machine is tagged atm=yes rather than mapped twice
    filters: [filter('amenity', 'atm'), filter('atm', 'yes')],
    names: CATEGORY_NAMES.atm,
  },
  {
    id: 'gas_station',
    specificity: 3,
    filters: [filter('amenity', 'fuel')],
    names: CATEGORY_NAMES.gas_station,
  },
  {
    id: 'supermarket',
    specificity: 3,
    filters: [filter('shop', 'supermarket')],
    names: CATEGORY_NAMES.supermarket,
  },
  {
    id: 'bakery',
    specificity: 3,
    filters: [filter('shop', 'bakery')],
    names: CATEGORY_NAMES.bakery,
  },
  {
    id: 'butcher',
    specificity: 3,
    filters: [filter('shop', 'butcher')],
    names: CATEGORY_NAMES.butcher,
  },
  {
    id: 'post_office',
    specificity: 3,
    filters: [filter('amenity', 'post_office')],
    names: CATEGORY_NAMES.post_office,
  },
  {
    id: 'police',
    specificity: 3,
    filters: [filter('amenity', 'police')],
    names: CATEGORY_NAMES.police,
  },
  {
    id: 'fire_station',
    specificity: 3,
    filters: [filter('amenity', 'fire_station')],
    names: CATEGORY_NAMES.fire_station,
  },
  {
    id: 'library',
    specificity: 3,
    filters: [filter('amenity', 'library')],
    names: CATEGORY_NAMES.library,
  },
  {
    id: 'gym',
    specificity: 3,
    filters: [
      filter('leisure', 'fitness_centre'),
      { key: 'leisure', values: ['sports_centre'], and: { sport: ['fitness'] } },
    ],
    names: CATEGORY_NAMES.gym,
  },
  {
    id: 'swimming_pool',
    specificity: 3,
    // backyard pools are leisure=swimming_pool too; only the ones a visitor may use are places
    filters: [
      { key: 'leisure', values: ['swimming_pool', 'water_park'], not: NOT_PRIVATE },
      { key: 'leisure', values: ['sports_centre'], and: { sport: ['swimming'] }, not: NOT_PRIVATE },
    ],
    names: CATEGORY_NAMES.swimming_pool,
  },
  {
    id: 'park',
    specificity: 3,
    filters: [filter('leisure', 'park')],
    names: CATEGORY_NAMES.park,
  },
  {
    id: 'playground',
    specificity: 3,
    filters: [filter('leisure', 'playground')],
    names: CATEGORY_NAMES.playground,
  },
  {
    id: 'cinema',
    specificity: 3,
    filters: [filter('amenity', 'cinema')],
    names: CATEGORY_NAMES.cinema,
  },
  {
    id: 'theater',
    specificity: 3,
    filters: [filter('amenity', 'theatre')],
    names: CATEGORY_NAMES.theater,
  },
  {
    id: 'museum',
    specificity: 3,
    filters: [filter('tourism', 'museum')],
    names: CATEGORY_NAMES.museum,
  },
  {
    id: 'public_toilets',
    specificity: 3,
    filters: [{ key: 'amenity', values: ['toilets'], not: NOT_PRIVATE }],
    names: CATEGORY_NAMES.public_toilets,
  },
  {
    id: 'camping',
    specificity: 3,
    filters: [filter('tourism', 'camp_site')],
    names: CATEGORY_NAMES.camping,
  },
  {
    id: 'wifi',
    specificity: 2,
    filters: [filter('internet_access', 'wlan', 'yes', 'wifi')],
    names: CATEGORY_NAMES.wifi,
  },
];

// The table follows CATEGORY_IDS, so a category's bit in a place's mask is its index there.
if (CATEGORIES.length !== CATEGORY_IDS.length || CATEGORIES.some((c, i) => c.id !== CATEGORY_IDS[i])) {
  throw new Error('categories.ts: CATEGORIES must list CATEGORY_IDS in the same order');
}

const BY_ID = new Map(CATEGORIES.map((category, index) => [category.id, { category, index }]));

export function getCategory(id: CategoryId): Category {
  return BY_ID.get(id)!.category;
}

/** The bit of a category in a place's category mask; masks use 34 bits, beyond 32-bit JS bit ops. */
export function categoryBit(id: CategoryId): number {
  return 2 ** BY_ID.get(id)!.index;
}

export function maskOf(ids: Iterable<CategoryId>): number {
  let mask = 0;
  for (const id of new Set(ids)) mask += categoryBit(id);
  return mask;
}

/** Whether bit `index` is set. `&` reads only the low 32 bits, so the high ones are shifted down first. */
export function hasBit(mask: number, index: number): boolean {
  return index < 32 ? (mask & (1 << index)) !== 0 : (Math.floor(mask / 4294967296) & (1 << (index - 32))) !== 0;
}

export function categoriesInMask(mask: number): CategoryId[] {
  return CATEGORY_IDS.filter((_, index) => hasBit(mask, index));
}

export function matchesFilter(tags: Tags, f: TagFilter): boolean {
  const value = tags[f.key];
  if (value === undefined) return false;
  if (f.values ? !f.values.includes(value) : f.except?.includes(value)) return false;
  for (const [key, values] of Object.entries(f.and ?? {})) {
    if (!values.includes(tags[key])) return false;
  }
  for (const [key, values] of Object.entries(f.not ?? {})) {
    if (values.includes(tags[key])) return false;
  }
  return true;
}

/** Each tag key a filter tests first, with the filters on it and the bit of their category. */
const FILTERS_BY_KEY = new Map<string, { filter: TagFilter; bit: number }[]>();
CATEGORIES.forEach((category, index) => {
  for (const filter of category.filters) {
    const list = FILTERS_BY_KEY.get(filter.key) ?? [];
    list.push({ filter, bit: 2 ** index });
    FILTERS_BY_KEY.set(filter.key, list);
  }
});

/** The keys without which no tags are in any category: a reader may skip decoding the rest. */
export const CATEGORY_KEYS: ReadonlySet<string> = new Set(FILTERS_BY_KEY.keys());

/**
 * Every category the tags put a place in, as a mask (0: not a place we keep). Only the filters
 * on the element's own keys are tried (a dozen keys have filters; most elements have none).
 */
export function categorize(tags: Tags): number {
  let mask = 0;
  for (const key in tags) {
    const filters = FILTERS_BY_KEY.get(key);
    if (!filters) continue;
    for (const { filter, bit } of filters) {
      // a category with two filters on the key counts once
      if (Math.floor(mask / bit) % 2 === 0 && matchesFilter(tags, filter)) mask += bit;
    }
  }
  return mask;
}

/**
 * The requested categories, most specific first (ties: table order), to pick the category a
 * result is shown under: the first of them the place is in.
 */
export function bySpecificity(requestedMask: number): readonly { id: CategoryId; index: number }[] {
  let ranked = rankings.get(requestedMask);
  if (!ranked) {
    if (rankings.size > 1000) rankings.clear();
    rankings.set(requestedMask, (ranked = Object.freeze(rank(requestedMask))));
  }
  return ranked;
}

/** bySpecificity() by mask: every search asks it, of a few common masks. */
const rankings = new Map<number, readonly { id: CategoryId; index: number }[]>();

function rank(requestedMask: number): { id: CategoryId; index: number }[] {
  return CATEGORIES.map((category, index) => ({ category, index }))
    .filter(({ index }) => hasBit(requestedMask, index))
    .sort((a, b) => b.category.specificity - a.category.specificity || a.index - b.index)
    .map(({ category, index }) => ({ id: category.id, index }));
}

/** The most specific of the requested categories that the place is in (ties: table order). */
export function mostSpecific(placeMask: number, requestedMask: number): CategoryId | null {
  return bySpecificity(requestedMask).find(({ index }) => hasBit(placeMask, index))?.id ?? null;
}

export function categoryName(id: CategoryId, lang: Lang): string {
  return getCategory(id).names[lang];
}

/**
 * Changes whenever a filter changes, so stored masks computed with an older table are
 * recomputed (store.ts) instead of silently answering with the old definitions.
 */
export const CATEGORIES_VERSION = createHash('sha256')
  .update(JSON.stringify(CATEGORIES.map((c) => [c.id, c.filters])))
  .digest('hex')
  .slice(0, 16);
