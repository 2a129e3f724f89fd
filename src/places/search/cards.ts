// A place as an answer shows it: what both indexes hand to the search. The fixed members of the
// result's JSON are text made once (on SQLite by the triggers of db/migrations/0007, stored in
// place_cards; here, for PostgreSQL and the name search, from the row), so a search only adds
// what depends on the question: name in the visitor's language, category, distance, status.
import type { HeldStatus, HoursPlace } from '../model/hours.js';
import type { AddressSource, PlaceType, StoredPlace, Wheelchair } from '../model/osm.js';

/** The members of cardJson(), parsed back (for the answers built as objects). */
interface CardFields {
  id: string;
  address: string | null;
  address_source: AddressSource | null;
  phone_number: string | null;
  opening_hours: string | null;
  website: string | null;
  wheelchair: Wheelchair | null;
  source: 'osm' | 'own';
}

export class PlaceCard implements HoursPlace {
  /** the open-now status last worked out, while it holds (hours.ts) */
  held: HeldStatus | undefined = undefined;
  /** the card's text and the result's members that depend on the place alone (results.ts) */
  fixedJson: string | undefined = undefined;
  /** the name as JSON, by language (only while it is the place's own, not its category's) */
  nameJson: Partial<Record<string, string>> | undefined = undefined;
  private fields: CardFields | undefined = undefined;

  constructor(
    /** the index's row id */
    readonly id: number,
    readonly lat: number,
    readonly lon: number,
    /** category mask */
    readonly categories: number,
    /** `"id":...,"address":...,"address_source":...,"phone_number":...,"opening_hours":...,"website":...,"wheelchair":...,"source":...` */
    readonly json: string,
    readonly name: string | null,
    /** every name:xx tag, keyed by xx */
    readonly names: Record<string, string> | null,
    readonly openingHours: string | null,
    /** for the hours only: null when the place has none */
    readonly country: string | null,
    /** for the hours only: null when the place has none */
    readonly timezone: string | null,
  ) {}

  private parsed(): CardFields {
    return (this.fields ??= JSON.parse(`{${this.json}}`) as CardFields);
  }
  /** One of the card's members, by its name in the result; undefined for a name it has not. */
  field(name: string): unknown {
    return (this.parsed() as unknown as Record<string, unknown>)[name];
  }
  /** `node/123`, `own/4` */
  get key(): string {
    return this.parsed().id;
  }
  get osmType(): PlaceType {
    return this.key.slice(0, this.key.indexOf('/')) as PlaceType;
  }
  get osmId(): number {
    return Number(this.key.slice(this.key.indexOf('/') + 1));
  }
  get address(): string | null {
    return this.parsed().address;
  }
  get addressSource(): AddressSource | null {
    return this.parsed().address_source;
  }
  get phone(): string | null {
    return this.parsed().phone_number;
  }
  get website(): string | null {
    return this.parsed().website;
  }
  get wheelchair(): Wheelchair | null {
    return this.parsed().wheelchair;
  }
  get source(): 'osm' | 'own' {
    return this.parsed().source;
  }
}

/** The fixed members of a place's result JSON: what the SQLite triggers write into place_cards. */
export function cardJson(
  place: Pick<
    StoredPlace,
    'osmType' | 'osmId' | 'address' | 'addressSource' | 'phone' | 'openingHours' | 'website' | 'wheelchair'
  >,
): string {
  // a stored source is a derived address's; an address without one is the place's own
  const source = place.addressSource ?? (place.address === null ? null : 'osm');
  return (
    `"id":${JSON.stringify(`${place.osmType}/${place.osmId}`)},"address":${JSON.stringify(place.address)}` +
    `,"address_source":${JSON.stringify(source)}` +
    `,"phone_number":${JSON.stringify(place.phone)},"opening_hours":${JSON.stringify(place.openingHours)}` +
    `,"website":${JSON.stringify(place.website)},"wheelchair":${JSON.stringify(place.wheelchair)}` +
    `,"source":${place.osmType === 'own' ? '"own"' : '"osm"'}`
  );
}

/** A stored place's card (PostgreSQL's rows, the name search's). */
export function cardOf(place: StoredPlace): PlaceCard {
  const hours = place.openingHours !== null;
  return new PlaceCard(
    place.id,
    place.lat,
    place.lon,
    place.categories,
    cardJson(place),
    place.name,
    place.names,
    place.openingHours,
    hours ? place.country : null,
    hours ? place.timezone : null,
  );
}
