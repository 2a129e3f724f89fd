// The 34 category ids of the locator, in the order the site lists them. Shared by the
// server (validation, the OSM tag table in categories.ts) and the web app (checkboxes).
export const CATEGORY_IDS = [
  'healthcare',
  'amenity',
  'shop',
  'tourism',
  'education',
  'transport',
  'entertainment',
  'financial',
  'public_service',
  'restaurant',
  'hotel',
  'parking',
  'pharmacy',
  'hospital',
  'bank',
  'atm',
  'gas_station',
  'supermarket',
  'bakery',
  'butcher',
  'post_office',
  'police',
  'fire_station',
  'library',
  'gym',
  'swimming_pool',
  'park',
  'playground',
  'cinema',
  'theater',
  'museum',
  'public_toilets',
  'camping',
  'wifi',
] as const;

export type CategoryId = (typeof CATEGORY_IDS)[number];

/** The admin settings offer all but these three. */
export const ADMIN_CATEGORY_IDS = CATEGORY_IDS.filter(
  (id) => id !== 'public_toilets' && id !== 'camping' && id !== 'wifi',
);

export const isCategoryId = (value: unknown): value is CategoryId => CATEGORY_IDS.includes(value as CategoryId);
