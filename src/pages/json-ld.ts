// A place page's schema.org description (JSON-LD): the most fitting type for its category, and
// what the page shows of it: name, address, position, hours, phone, its page and website.
import type { CategoryId } from '../places/model/category-ids.js';
import { formatAddress } from '../places/model/osm.js';
import type { AddressParts } from '../places/store/addresses.js';
import { openingHoursSpecification } from './opening-hours-spec.js';

/**
 * schema.org types by category: a LocalBusiness subtype for businesses; for what is no business
 * (a park, a museum, a police station) a Place or CivicStructure type.
 */
const SCHEMA_TYPES: Record<CategoryId, string> = {
  healthcare: 'MedicalBusiness',
  amenity: 'LocalBusiness',
  shop: 'Store',
  tourism: 'TouristAttraction',
  education: 'EducationalOrganization',
  transport: 'CivicStructure',
  entertainment: 'EntertainmentBusiness',
  financial: 'FinancialService',
  public_service: 'GovernmentOffice',
  restaurant: 'Restaurant',
  hotel: 'Hotel',
  parking: 'ParkingFacility',
  pharmacy: 'Pharmacy',
  hospital: 'Hospital',
  bank: 'BankOrCreditUnion',
  atm: 'AutomatedTeller',
  gas_station: 'GasStation',
  supermarket: 'GroceryStore',
  bakery: 'Bakery',
  butcher: 'Store',
  post_office: 'PostOffice',
  police: 'PoliceStation',
  fire_station: 'FireStation',
  library: 'Library',
  gym: 'ExerciseGym',
  swimming_pool: 'PublicSwimmingPool',
  park: 'Park',
  playground: 'Playground',
  cinema: 'MovieTheater',
  theater: 'PerformingArtsTheater',
  museum: 'Museum',
  public_toilets: 'PublicToilet',
  camping: 'Campground',
  wifi: 'Place',
};

export const schemaType = (category: CategoryId): string => SCHEMA_TYPES[category] ?? 'Place';

export interface JsonLdPlace {
  name: string;
  category: CategoryId;
  address: string | null;
  lat: number;
  lon: number;
  phone_number: string | null;
  website: string | null;
  opening_hours: string | null;
}

/** Seven decimals: a centimetre, more than the five Google asks for. */
const coordinate = (value: number) => Math.round(value * 1e7) / 1e7;

/**
 * The PostalAddress of a place, in parts. A `nearby` address (the street of the nearest address
 * point or street) is a guess that reads as "near ..." on the page: given as streetAddress it
 * would be taken for the exact one and shown so by search engines, so only its locality and
 * postcode go (the town a place is in and the postcode of its block are facts of the area).
 * Without parts (addr:full alone, an own place's free text) the text goes as it is.
 */
export function postalAddress(parts: AddressParts | null, text: string | null): Record<string, string> | null {
  if (!parts) return text ? { '@type': 'PostalAddress', streetAddress: text } : null;
  const address: Record<string, string> = { '@type': 'PostalAddress' };
  if (parts.source !== 'nearby' && parts.street) {
    const tags: Record<string, string> = { 'addr:street': parts.street };
    if (parts.housenumber) tags['addr:housenumber'] = parts.housenumber;
    address.streetAddress = formatAddress(tags, parts.country)!;
  }
  if (parts.city) address.addressLocality = parts.city;
  if (parts.postcode) address.postalCode = parts.postcode;
  if (Object.keys(address).length === 1) return null;
  if (parts.country) address.addressCountry = parts.country;
  return address;
}

export function placeJsonLd(place: JsonLdPlace, pageUrl: string, parts: AddressParts | null): Record<string, unknown> {
  const address = postalAddress(parts, place.address);
  const hours = openingHoursSpecification(place.opening_hours);
  return {
    '@context': 'https://schema.org',
    '@type': schemaType(place.category),
    '@id': pageUrl,
    name: place.name,
    url: pageUrl,
    ...(address ? { address } : {}),
    geo: { '@type': 'GeoCoordinates', latitude: coordinate(place.lat), longitude: coordinate(place.lon) },
    ...(hours ? { openingHoursSpecification: hours } : {}),
    ...(place.phone_number ? { telephone: place.phone_number } : {}),
    ...(place.website && /^https?:\/\//i.test(place.website) ? { sameAs: place.website } : {}),
  };
}
