// One search: the local index first, the live source (Overpass) only where the index has no
// place of the requested categories, and never twice a day for the same area.
import type { Lang } from '../../i18n.js';
import type { Logger as FullLogger } from '../../logger.js';
import { bySpecificity, hasBit, maskOf } from '../model/categories.js';
import { CATEGORY_IDS, isCategoryId, type CategoryId } from '../model/category-ids.js';
import { gazetteer } from '../model/gazetteer.js';
import { distanceKm as greatCircleKm } from '../model/geo.js';
import { openingStatus, processZone, weekHours, type OpenStatus, type WeekHours } from '../model/hours.js';
import { overpassElements } from '../sources/import/json.js';
import { cardOf, type PlaceCard } from './cards.js';
import type { PlaceStore, PlaceType } from '../store/index.js';
import { resultOf, SearchAnswer, type PlaceResult, type SearchResponse, type Trip } from './results.js';
import { nameTerms } from './name-query.js';
import { DEFAULT_LIMIT, DEFAULT_RADIUS_M, type SearchParams } from './input.js';
import { toPlace, type PlaceRecord, type StoredPlace, type Wheelchair } from '../model/osm.js';
import type { AddressParts } from '../store/addresses.js';
import { arrivalAt } from '../model/hours.js';
import { arrivalLabel, travelMinutes } from '../model/travel.js';
import { buildQuery, OverpassClient, OverpassUnavailable } from './overpass.js';

/** An area asked from Overpass is not asked again for this long. */
export const LIVE_CACHE_MS = 24 * 60 * 60 * 1000;

export const MESSAGES = {
  noCategory: 'Please select at least one category',
  cityNotFound: 'City not found',
  noPosition: 'Please give lat and lon, or a city',
  unavailable: 'Service temporarily unavailable',
} as const;

/**
 * A search that cannot be answered: `bad_request` is the caller's to fix, `unavailable` is ours.
 * `noCoverage`: the live source failed where the index holds no place at all around the search.
 */
export class SearchError extends Error {
  constructor(
    readonly kind: 'bad_request' | 'unavailable',
    message: string,
    readonly noCoverage = false,
  ) {
    super(message);
    this.name = 'SearchError';
  }
}

export interface SearchSettings {
  /** The admin's list; empty means every category is allowed */
  allowedCategories: readonly string[];
  defaultCity: string;
}

export type { PlaceResult, SearchParams, SearchResponse };

/** One place's page: a search result (distance only when a position was given) and its week. */
export interface PlaceDetail extends Omit<PlaceResult, 'distance'> {
  distance?: number;
  /** every category the place is in, most specific first */
  categories: CategoryId[];
  /** the week of opening hours in the place's own time zone; null when unknown */
  hours: WeekHours | null;
  timezone: string | null;
}

/** A search informs and warns. */
type Logger = Pick<FullLogger, 'info' | 'warn'>;

/** Known categories, in the table's order; the messages name the ones refused. */
export function checkCategories(requested: readonly string[], allowed: readonly string[]): CategoryId[] {
  const given = [...new Set(requested.map((c) => c.trim()).filter(Boolean))];
  if (given.length === 0) throw new SearchError('bad_request', MESSAGES.noCategory);
  const unknown = given.filter((c) => !isCategoryId(c));
  if (unknown.length) {
    throw new SearchError(
      'bad_request',
      `Unknown ${unknown.length === 1 ? 'category' : 'categories'}: ${unknown.join(', ')}`,
    );
  }
  if (allowed.length) {
    const refused = given.filter((c) => !allowed.includes(c));
    if (refused.length) {
      throw new SearchError(
        'bad_request',
        `${refused.length === 1 ? 'Category' : 'Categories'} not allowed: ${refused.join(', ')}`,
      );
    }
  }
  return CATEGORY_IDS.filter((id) => given.includes(id));
}

/** Overpass JSON (out center) -> places; elements in no category are left out. */
export function placesFromOverpass(document: unknown): PlaceRecord[] {
  const places: PlaceRecord[] = [];
  for (const e of overpassElements(document)) {
    if (!e.tags) continue;
    const point = e.type === 'node' ? { lat: e.lat, lon: e.lon } : e.center;
    if (!point) continue;
    const place = toPlace(e.type, e.id, point.lat, point.lon, e.tags);
    if (place) places.push(place);
  }
  return places;
}

const OPEN: ReadonlySet<OpenStatus> = new Set(['open', 'closing_soon']);
const ANY_CATEGORY = maskOf(CATEGORY_IDS);
const ACCESS_YES: ReadonlySet<Wheelchair | null> = new Set(['yes']);
const ACCESS_LIMITED: ReadonlySet<Wheelchair | null> = new Set(['yes', 'limited']);

export class PlacesService {
  private checkedCategories = false;

  constructor(
    readonly index: PlaceStore,
    readonly overpass: OverpassClient | null,
    private readonly now: () => number,
  ) {}

  /** A search: its places, nearest first, to be written as objects or as JSON text. */
  async search(params: SearchParams, settings: SearchSettings, log?: Logger): Promise<SearchAnswer> {
    const terms = params.q ? nameTerms(params.q) : [];
    // A name search without categories looks in every allowed one (all, when none is set).
    const categories =
      terms.length > 0 && params.active_categories.every((c) => !c.trim())
        ? settings.allowedCategories.length
          ? settings.allowedCategories.filter(isCategoryId)
          : [...CATEGORY_IDS]
        : checkCategories(params.active_categories, settings.allowedCategories);
    const { center, cityCenter } = this.centre(params, settings, log);
    const radiusKm = (params.radius ?? DEFAULT_RADIUS_M) / 1000;
    const limit = params.limit ?? DEFAULT_LIMIT;
    const mask = maskOf(categories);
    const nowMs = this.now();
    // the process's zone, read once for every place's hours (hours.ts)
    const tz = processZone();

    if (!this.checkedCategories) {
      // Stored masks computed with an older category table are brought up to date once.
      const { changed } = await this.index.refreshCategoryMasks();
      if (changed) log?.info({ changed }, 'places: category masks recomputed for the current category table');
      this.checkedCategories = true;
    }

    const travel = params.travel;
    const arriveMs = (distanceKm: number) => nowMs + travelMinutes(distanceKm, travel!) * 60_000;
    // Open now, or open when the visitor gets there (from the distance to the centre searched).
    const openNow = !params.open_now
      ? undefined
      : travel
        ? (place: PlaceCard) =>
            OPEN.has(openingStatus(place, arriveMs(greatCircleKm(center.lat, center.lon, place.lat, place.lon)), tz))
        : (place: PlaceCard) => OPEN.has(openingStatus(place, nowMs, tz));
    const access =
      params.wheelchair === 'yes' ? ACCESS_YES : params.wheelchair === 'limited' ? ACCESS_LIMITED : undefined;
    const accessible = access ? (place: PlaceCard) => access.has(place.wheelchair) : undefined;
    const accept =
      openNow && accessible ? (place: PlaceCard) => accessible(place) && openNow(place) : (openNow ?? accessible);
    const find = async () =>
      terms.length > 0
        ? (await this.index.feed.reads()).nearestByName(center.lat, center.lon, radiusKm, mask, terms, limit, accept)
        : (await this.index.feed.reads()).nearest(center.lat, center.lon, radiusKm, mask, limit, accept);
    let found = await find();
    // Nothing found: does the index hold anything at all around here? If not, and no live source
    // answers for the area, the answer says so (`coverage: none`) instead of "nothing found".
    let noCoverage = false;
    if (found.length === 0) {
      const reads = await this.index.feed.reads();
      const holdsAny = reads.nearest(center.lat, center.lon, radiusKm, ANY_CATEGORY, 1).length > 0;
      // The live source only where the index has no place of these categories at all (open or not).
      if (
        terms.length === 0 &&
        this.overpass &&
        (!accept || reads.nearest(center.lat, center.lon, radiusKm, mask, 1).length === 0)
      ) {
        await this.askLiveSource(center.lat, center.lon, radiusKm * 1000, categories, mask, holdsAny, log);
        found = await find();
      } else {
        noCoverage = !holdsAny;
      }
    }
    const ranked = bySpecificity(mask);
    // a search's places have a few masks between them: each mask's category is found once
    const rankOf = new Map<number, CategoryId>();
    const rank = (place: PlaceCard) => {
      let id = rankOf.get(place.categories);
      if (id === undefined)
        rankOf.set(place.categories, (id = ranked.find(({ index }) => hasBit(place.categories, index))!.id));
      return id;
    };
    const trip = travel
      ? (place: PlaceCard, distanceKm: number): Trip => {
          const minutes = travelMinutes(distanceKm, travel);
          const arrival = arrivalAt(place, nowMs, nowMs + minutes * 60_000, tz);
          return {
            travel_minutes: minutes,
            status_on_arrival: arrival.status,
            status_on_arrival_label: arrivalLabel(arrival, travel, params.lang),
          };
        }
      : undefined;
    const lang = params.lang;
    const places = found.map(({ place, distanceKm }) => ({
      place,
      category: rank(place),
      status: openingStatus(place, nowMs, tz),
      lang,
      distanceKm,
      trip: trip?.(place, distanceKm),
    }));
    return new SearchAnswer(places, cityCenter, noCoverage);
  }

  /** One place by its OSM element, or null; `from` adds the distance to it. */
  async get(
    osmType: PlaceType,
    osmId: number,
    lang: Lang,
    from?: { lat: number; lon: number },
  ): Promise<PlaceDetail | null> {
    const place = await this.index.getByOsmId(osmType, osmId);
    return place ? this.detail(place, lang, from) : null;
  }

  /** One place by its OSM element with its address in parts (a place page's), or null. */
  async getWithAddressParts(
    osmType: PlaceType,
    osmId: number,
    lang: Lang,
  ): Promise<{ detail: PlaceDetail; parts: AddressParts | null } | null> {
    const read = await this.index.placeWithAddressParts(osmType, osmId);
    const detail = read && this.detail(read.place, lang);
    return detail ? { detail, parts: read.parts } : null;
  }

  /** A stored place as the API shows one, or null if it is in no category. */
  private detail(place: StoredPlace, lang: Lang, from?: { lat: number; lon: number }): PlaceDetail | null {
    const nowMs = this.now();
    const ranked = bySpecificity(place.categories).filter(({ index }) => hasBit(place.categories, index));
    if (ranked.length === 0) return null;
    const card = cardOf(place);
    const { distance: _none, ...result } = resultOf({
      place: card,
      category: ranked[0].id,
      status: openingStatus(card, nowMs),
      lang,
      distanceKm: 0,
    });
    const detail: PlaceDetail = {
      ...result,
      categories: ranked.map(({ id }) => id),
      hours: weekHours(place, nowMs),
      timezone: place.timezone,
    };
    if (from) detail.distance = Math.round(greatCircleKm(from.lat, from.lon, place.lat, place.lon) * 1000) / 1000;
    return detail;
  }

  /** The search centre, and the `city_center` of the answer (the named city's, else the centre). */
  private centre(params: SearchParams, settings: SearchSettings, log?: Logger) {
    const city = params.city?.trim();
    let cityMatch = null;
    if (city) {
      cityMatch = gazetteer().find(city);
      if (!cityMatch) throw new SearchError('bad_request', MESSAGES.cityNotFound);
    }
    if (params.lat !== undefined && params.lon !== undefined) {
      const center = { lat: params.lat, lon: params.lon };
      return { center, cityCenter: cityMatch ? { lat: cityMatch.lat, lon: cityMatch.lon } : center };
    }
    if (!cityMatch && settings.defaultCity.trim()) {
      cityMatch = gazetteer().find(settings.defaultCity);
      if (!cityMatch)
        log?.warn({ defaultCity: settings.defaultCity }, 'places: the default_city setting names no known city');
    }
    if (!cityMatch) throw new SearchError('bad_request', MESSAGES.noPosition);
    const center = { lat: cityMatch.lat, lon: cityMatch.lon };
    return { center, cityCenter: center };
  }

  /** `holdsAny`: the index has places of other categories around (the failure's answer differs). */
  private async askLiveSource(
    lat: number,
    lon: number,
    radiusM: number,
    categories: CategoryId[],
    mask: number,
    holdsAny: boolean,
    log?: Logger,
  ): Promise<void> {
    const overpass = this.overpass!;
    try {
      // One request at a time for the whole site: the turn is taken across processes and nodes.
      await overpass.exclusive(async () => {
        // Checked again in turn: a search queued before this one, here or on another node, may
        // have fetched the same area (the day cache is in the shared database).
        if (await this.index.liveCovered(lat, lon, radiusM, mask, this.now() - LIVE_CACHE_MS + 1)) return;
        const document = await overpass.request(buildQuery(lat, lon, radiusM, categories));
        const fetchedAt = this.now();
        const places = placesFromOverpass(document);
        await this.index.writeLive(
          places,
          { lat, lon, radiusM, categories: mask },
          fetchedAt,
          fetchedAt - LIVE_CACHE_MS + 1,
        );
        log?.info({ lat, lon, radiusM, categories, places: places.length }, 'places: fetched from Overpass');
      });
    } catch (error) {
      // The server failing, or the turn not coming in time: the search answers 503.
      if (!(error instanceof OverpassUnavailable)) throw error;
      log?.warn({ err: error.message, lat, lon, radiusM, categories }, 'places: Overpass unavailable');
      throw new SearchError('unavailable', MESSAGES.unavailable, !holdsAny);
    }
  }
}

export interface PlacesServiceOptions {
  index: PlaceStore;
  overpassUrl: string | null;
  /** The site's own origin, named in the User-Agent */
  siteOrigin: string;
  now: () => number;
  overpass?: Partial<ConstructorParameters<typeof OverpassClient>[0]>;
}

export function createPlacesService(options: PlacesServiceOptions): PlacesService {
  const overpass = options.overpassUrl
    ? new OverpassClient({
        url: options.overpassUrl,
        userAgent: `nearby-place-finder/0.1 (+${options.siteOrigin})`,
        now: options.now,
        ...options.overpass,
      })
    : null;
  return new PlacesService(options.index, overpass, options.now);
}
