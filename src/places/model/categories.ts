// THE table: each of the 34 locator categories (SPEC.md section 3) and the OpenStreetMap tags
// that put a place in it, with its display name in the five languages (shown for unnamed places).
// Import, search, the Overpass query and the tests all read this one table.
import { createHash } from 'node:crypto';
import type { Lang } from '../../i18n.js';
import { CATEGORY_IDS, type CategoryId } from './category-ids.js';

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
  'bench', 'waste_basket', 'waste_disposal', 'recycling', 'parking_space', 'parking_entrance',
  'bicycle_parking', 'motorcycle_parking', 'vending_machine', 'post_box', 'clock', 'grit_bin',
  'hunting_stand', 'loading_dock', 'shelter', 'telephone', 'drinking_water', 'water_point',
  'fountain', 'watering_place', 'bbq', 'lounger', 'feeding_place', 'game_feeding', 'trolley_bay',
  'smoking_area', 'letter_box', 'sanitary_dump_station', 'kneipp_water_cure', 'no', 'yes',
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
    names: { en: 'Healthcare', es: 'Salud', pt: 'Saúde', it: 'Sanità', fr: 'Santé' },
  },
  {
    id: 'amenity',
    specificity: 0,
    filters: [{ key: 'amenity', except: AMENITY_NOISE }],
    names: { en: 'Amenity', es: 'Servicio', pt: 'Comodidade', it: 'Servizio', fr: 'Équipement' },
  },
  {
    id: 'shop',
    specificity: 0,
    filters: [{ key: 'shop', except: ['no', 'vacant', 'disused'] }],
    names: { en: 'Shop', es: 'Tienda', pt: 'Loja', it: 'Negozio', fr: 'Commerce' },
  },
  {
    id: 'tourism',
    specificity: 0,
    // information boards and guideposts are tourism=information too; only offices are places
    filters: [
      { key: 'tourism', except: ['no', 'yes', 'information'] },
      { key: 'tourism', values: ['information'], and: { information: ['office', 'visitor_centre'] } },
    ],
    names: { en: 'Tourism', es: 'Turismo', pt: 'Turismo', it: 'Turismo', fr: 'Tourisme' },
  },
  {
    id: 'education',
    specificity: 1,
    filters: [
      filter(
        'amenity', 'school', 'university', 'college', 'kindergarten', 'library', 'language_school',
        'music_school', 'driving_school', 'training', 'research_institute',
      ),
    ],
    names: { en: 'Education', es: 'Educación', pt: 'Educação', it: 'Istruzione', fr: 'Éducation' },
  },
  {
    id: 'transport',
    specificity: 1,
    filters: [
      filter(
        'amenity', 'bus_station', 'ferry_terminal', 'taxi', 'car_rental', 'car_sharing',
        'bicycle_rental', 'boat_rental', 'fuel', 'charging_station', 'parking',
      ),
      filter('public_transport', 'station'),
      filter('railway', 'station', 'halt', 'tram_stop', 'subway_entrance'),
      filter('highway', 'bus_stop'),
      filter('aerialway', 'station'),
      filter('aeroway', 'aerodrome', 'terminal'),
    ],
    names: { en: 'Transport', es: 'Transporte', pt: 'Transporte', it: 'Trasporti', fr: 'Transports' },
  },
  {
    id: 'entertainment',
    specificity: 1,
    filters: [
      filter(
        'amenity', 'cinema', 'theatre', 'arts_centre', 'nightclub', 'casino', 'music_venue',
        'events_venue', 'planetarium', 'gambling', 'community_centre',
      ),
      filter(
        'leisure', 'amusement_arcade', 'bowling_alley', 'water_park', 'escape_game',
        'miniature_golf', 'dance', 'stadium', 'ice_rink',
      ),
      filter('tourism', 'theme_park', 'zoo', 'aquarium'),
    ],
    names: { en: 'Entertainment', es: 'Ocio', pt: 'Entretenimento', it: 'Intrattenimento', fr: 'Loisirs' },
  },
  {
    id: 'financial',
    specificity: 1,
    filters: [
      filter('amenity', 'bank', 'atm', 'bureau_de_change', 'money_transfer', 'payment_centre'),
      filter('office', 'financial', 'financial_advisor'),
    ],
    names: { en: 'Financial services', es: 'Servicios financieros', pt: 'Serviços financeiros', it: 'Servizi finanziari', fr: 'Services financiers' },
  },
  {
    id: 'public_service',
    specificity: 1,
    filters: [
      filter(
        'amenity', 'townhall', 'police', 'fire_station', 'post_office', 'courthouse',
        'ranger_station', 'social_facility', 'embassy',
      ),
      filter('office', 'government', 'diplomatic'),
    ],
    names: { en: 'Public service', es: 'Servicio público', pt: 'Serviço público', it: 'Servizio pubblico', fr: 'Service public' },
  },
  {
    id: 'restaurant',
    specificity: 3,
    filters: [filter('amenity', 'restaurant', 'fast_food', 'food_court')],
    names: { en: 'Restaurant', es: 'Restaurante', pt: 'Restaurante', it: 'Ristorante', fr: 'Restaurant' },
  },
  {
    id: 'hotel',
    specificity: 3,
    filters: [filter('tourism', 'hotel', 'motel', 'hostel', 'guest_house')],
    names: { en: 'Hotel', es: 'Hotel', pt: 'Hotel', it: 'Albergo', fr: 'Hôtel' },
  },
  {
    id: 'parking',
    specificity: 3,
    filters: [{ key: 'amenity', values: ['parking'], not: NOT_PRIVATE }],
    names: { en: 'Parking', es: 'Aparcamiento', pt: 'Estacionamento', it: 'Parcheggio', fr: 'Parking' },
  },
  {
    id: 'pharmacy',
    specificity: 3,
    filters: [filter('amenity', 'pharmacy'), filter('healthcare', 'pharmacy')],
    names: { en: 'Pharmacy', es: 'Farmacia', pt: 'Farmácia', it: 'Farmacia', fr: 'Pharmacie' },
  },
  {
    id: 'hospital',
    specificity: 3,
    filters: [filter('amenity', 'hospital'), filter('healthcare', 'hospital')],
    names: { en: 'Hospital', es: 'Hospital', pt: 'Hospital', it: 'Ospedale', fr: 'Hôpital' },
  },
  {
    id: 'bank',
    specificity: 3,
    filters: [filter('amenity', 'bank')],
    names: { en: 'Bank', es: 'Banco', pt: 'Banco', it: 'Banca', fr: 'Banque' },
  },
  {
    id: 'atm',
    specificity: 3,
    // a bank with a cash machine is tagged atm=yes rather than mapped twice
    filters: [filter('amenity', 'atm'), filter('atm', 'yes')],
    names: { en: 'ATM', es: 'Cajero automático', pt: 'Caixa eletrônico', it: 'Bancomat', fr: 'Distributeur de billets' },
  },
  {
    id: 'gas_station',
    specificity: 3,
    filters: [filter('amenity', 'fuel')],
    names: { en: 'Gas station', es: 'Gasolinera', pt: 'Posto de gasolina', it: 'Distributore di benzina', fr: 'Station-service' },
  },
  {
    id: 'supermarket',
    specificity: 3,
    filters: [filter('shop', 'supermarket')],
    names: { en: 'Supermarket', es: 'Supermercado', pt: 'Supermercado', it: 'Supermercato', fr: 'Supermarché' },
  },
  {
    id: 'bakery',
    specificity: 3,
    filters: [filter('shop', 'bakery')],
    names: { en: 'Bakery', es: 'Panadería', pt: 'Padaria', it: 'Panetteria', fr: 'Boulangerie' },
  },
  {
    id: 'butcher',
    specificity: 3,
    filters: [filter('shop', 'butcher')],
    names: { en: 'Butcher', es: 'Carnicería', pt: 'Açougue', it: 'Macelleria', fr: 'Boucherie' },
  },
  {
    id: 'post_office',
    specificity: 3,
    filters: [filter('amenity', 'post_office')],
    names: { en: 'Post office', es: 'Oficina de correos', pt: 'Agência dos correios', it: 'Ufficio postale', fr: 'Bureau de poste' },
  },
  {
    id: 'police',
    specificity: 3,
    filters: [filter('amenity', 'police')],
    names: { en: 'Police', es: 'Policía', pt: 'Polícia', it: 'Polizia', fr: 'Police' },
  },
  {
    id: 'fire_station',
    specificity: 3,
    filters: [filter('amenity', 'fire_station')],
    names: { en: 'Fire station', es: 'Estación de bomberos', pt: 'Quartel de bombeiros', it: 'Caserma dei vigili del fuoco', fr: 'Caserne de pompiers' },
  },
  {
    id: 'library',
    specificity: 3,
    filters: [filter('amenity', 'library')],
    names: { en: 'Library', es: 'Biblioteca', pt: 'Biblioteca', it: 'Biblioteca', fr: 'Bibliothèque' },
  },
  {
    id: 'gym',
    specificity: 3,
    filters: [
      filter('leisure', 'fitness_centre'),
      { key: 'leisure', values: ['sports_centre'], and: { sport: ['fitness'] } },
    ],
    names: { en: 'Gym', es: 'Gimnasio', pt: 'Academia', it: 'Palestra', fr: 'Salle de sport' },
  },
  {
    id: 'swimming_pool',
    specificity: 3,
    // backyard pools are leisure=swimming_pool too; only the ones a visitor may use are places
    filters: [
      { key: 'leisure', values: ['swimming_pool', 'water_park'], not: NOT_PRIVATE },
      { key: 'leisure', values: ['sports_centre'], and: { sport: ['swimming'] }, not: NOT_PRIVATE },
    ],
    names: { en: 'Swimming pool', es: 'Piscina', pt: 'Piscina', it: 'Piscina', fr: 'Piscine' },
  },
  {
    id: 'park',
    specificity: 3,
    filters: [filter('leisure', 'park')],
    names: { en: 'Park', es: 'Parque', pt: 'Parque', it: 'Parco', fr: 'Parc' },
  },
  {
    id: 'playground',
    specificity: 3,
    filters: [filter('leisure', 'playground')],
    names: { en: 'Playground', es: 'Parque infantil', pt: 'Parquinho', it: 'Parco giochi', fr: 'Aire de jeux' },
  },
  {
    id: 'cinema',
    specificity: 3,
    filters: [filter('amenity', 'cinema')],
    names: { en: 'Cinema', es: 'Cine', pt: 'Cinema', it: 'Cinema', fr: 'Cinéma' },
  },
  {
    id: 'theater',
    specificity: 3,
    filters: [filter('amenity', 'theatre')],
    names: { en: 'Theater', es: 'Teatro', pt: 'Teatro', it: 'Teatro', fr: 'Théâtre' },
  },
  {
    id: 'museum',
    specificity: 3,
    filters: [filter('tourism', 'museum')],
    names: { en: 'Museum', es: 'Museo', pt: 'Museu', it: 'Museo', fr: 'Musée' },
  },
  {
    id: 'public_toilets',
    specificity: 3,
    filters: [{ key: 'amenity', values: ['toilets'], not: NOT_PRIVATE }],
    names: { en: 'Public toilets', es: 'Aseos públicos', pt: 'Banheiros públicos', it: 'Bagni pubblici', fr: 'Toilettes publiques' },
  },
  {
    id: 'camping',
    specificity: 3,
    filters: [filter('tourism', 'camp_site')],
    names: { en: 'Campsite', es: 'Camping', pt: 'Área de camping', it: 'Campeggio', fr: 'Camping' },
  },
  {
    id: 'wifi',
    specificity: 2,
    filters: [filter('internet_access', 'wlan', 'yes', 'wifi')],
    names: { en: 'Wi-Fi', es: 'Wi-Fi', pt: 'Wi-Fi', it: 'Wi-Fi', fr: 'Wi-Fi' },
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
