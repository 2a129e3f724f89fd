// What a search reads, on either engine, without leaving the process: the grid of every place's
// position and categories (grid.ts), the places' cards, one short row each in an SQLite
// `place_cards` table, and for a search by name the FTS5 index `places_names` (rowid = the
// place's id) beside them: on SQLite in the site's own file, kept by the triggers of migrations
// 0005 and 0007; on PostgreSQL in a private file of this process, kept by node-copy.ts. The
// cards read more than once lately stay in memory.
import type SQLite from 'better-sqlite3';
import { distanceKm, intersects } from '../model/geo.js';
import { PlaceCard } from './cards.js';
import { PlaceGrid, type GridHits } from './grid.js';
import { ftsMatch } from './name-query.js';

export interface Nearby {
  /** what an answer shows of the place (cards.ts) */
  place: PlaceCard;
  /** exact great-circle distance (geo.ts distanceKm) */
  distanceKm: number;
}

/** The cards of a JSON array of ids: one statement per search (the benchmark times it alone too). */
export const CARD_ROWS_SQL =
  'select id, card, name, names, opening_hours, country, timezone from place_cards where id in (select value from json_each(?))';

/** A name search's candidates: the ids of the places whose names hold every word (FTS5). */
export const NAME_MATCHES_SQL = 'select rowid from places_names where places_names match ?';

/**
 * What `places_names` holds of a `place_cards` row (alias `row`): its name and every name:xx, as
 * migration 0005's triggers write it from `places` on SQLite (the migration is frozen: a copy).
 */
export const namesText = (row: string) =>
  `coalesce(${row}.name, '') || ' ' || coalesce((select group_concat(value, ' ')
     from json_each(case when json_valid(${row}.names) then ${row}.names end)), '')`;

type CardRow = [number, string, string | null, string | null, string | null, string | null, string | null];

/**
 * Cards kept in memory for the next searches: a city's answers (Vancouver's 684 restaurants and
 * pharmacies) stay in; across a million places a search reads most of its cards anyway, and each
 * kept card is ~0.8 KB of heap.
 */
export const CARD_CACHE_MAX = 5_000;
/** How many ids read once are remembered (then forgotten all at once). */
const READ_ONCE_MAX = 50_000;
/** The bits that remember them: 128 KB, so a shared bit (an id keeps its card a read early) is rare. */
const READ_ONCE_BITS = 2 ** 20;

/**
 * The ids read lately, as bits of a fixed table (an id's bit is the id modulo the table's size).
 * A Set of them grew and rehashed its tables in V8's young generation, and the collector copied
 * them: on a million places, a third of what each young collection copied.
 */
class ReadOnce {
  private readonly bits = new Uint32Array(READ_ONCE_BITS / 32);
  private marked = 0;

  /** Whether `id` was read since it was last kept or forgotten; marks it read when not. */
  readAgain(id: number): boolean {
    const at = id & (READ_ONCE_BITS - 1);
    const word = at >>> 5;
    const bit = 1 << (at & 31);
    if (this.bits[word] & bit) {
      this.bits[word] &= ~bit;
      return true;
    }
    if (this.marked >= READ_ONCE_MAX) {
      this.bits.fill(0);
      this.marked = 0;
    }
    this.bits[word] |= bit;
    this.marked++;
    return false;
  }
}

/**
 * Bumped whenever a copy of the places in this process takes in a change (any place, written by
 * any process or node) or is read again whole: what caches of things built from places (the
 * rendered pages, src/pages) compare.
 */
let placeChanges = 0;
export const placeChangeCount = (): number => placeChanges;

export class LocalReads {
  /** the grid searches read; its owner builds it and keeps it current */
  grid = new PlaceGrid();
  private cardRows: SQLite.Statement | null = null;
  private nameMatches: SQLite.Statement | null = null;
  /** cards by id; the same object for every search that shows the place */
  private readonly cardCache = new Map<number, PlaceCard>();
  /** cards not kept since the cache was last full (keep()) */
  private turnedAway = 0;
  /** ids whose card was read lately but not kept */
  private readonly readOnce = new ReadOnce();

  constructor(
    /** the connection whose `place_cards` the cards are read from */
    readonly sqlite: SQLite.Database,
    /** how many cards the cache holds at most (the tests fill a small one) */
    private readonly cardCacheMax = CARD_CACHE_MAX,
  ) {
    placeChanges++;
  }

  /** how many cards the cache holds now */
  get cachedCards(): number {
    return this.cardCache.size;
  }

  /** A place changed: its kept card goes. */
  forget(id: number): void {
    placeChanges++;
    this.cardCache.delete(id);
  }

  /** Every place may have changed (a new grid). */
  forgetAll(): void {
    placeChanges++;
    this.cardCache.clear();
  }

  /** The cards of these ids that the grid holds (cached; the rest read in one statement). */
  private cards(ids: number[]): Map<number, PlaceCard> {
    const found = new Map<number, PlaceCard>();
    const missing: number[] = [];
    for (const id of ids) {
      const cached = this.cardCache.get(id);
      if (cached) found.set(id, cached);
      else missing.push(id);
    }
    if (missing.length === 0) return found;
    // prepared on first use: the table may not exist yet when the owner is made
    this.cardRows ??= this.sqlite.prepare(CARD_ROWS_SQL).raw();
    for (const [id, json, name, names, openingHours, country, timezone] of this.cardRows.all(
      JSON.stringify(missing),
    ) as CardRow[]) {
      const at = this.grid.get(id);
      if (!at) continue; // written since the grid was brought up to date: the next search sees it
      const card = new PlaceCard(
        id,
        at.lat,
        at.lon,
        at.categories,
        json,
        name,
        names ? (JSON.parse(names) as Record<string, string>) : null,
        openingHours,
        country,
        timezone,
      );
      found.set(id, card);
      // Kept from its second read on: across a million places most cards are read once, and
      // keeping those would only carry them into V8's old generation to die there.
      if (this.readOnce.readAgain(id)) this.keep(id, card);
    }
    return found;
  }

  /**
   * A full cache takes no more cards. Replacing the oldest at every read carried each newcomer
   * into V8's old generation: on a million places, where the cache served 4% of the cards read,
   * ~600 KB copied at each young collection, and pauses of 2 ms instead of 1. It starts afresh
   * once ten times its size were turned away, so what is read often now comes back in.
   */
  private keep(id: number, card: PlaceCard): void {
    if (this.cardCache.size < this.cardCacheMax) this.cardCache.set(id, card);
    else if (++this.turnedAway >= this.cardCacheMax * 10) {
      this.cardCache.clear();
      this.turnedAway = 0;
    }
  }

  /**
   * The `limit` places nearest to a point, in any category of `mask`, within `radiusKm`, that
   * `accept` takes (seeing them nearest first), synchronously: PlaceStore.nearest's answer.
   */
  nearest(
    lat: number,
    lon: number,
    radiusKm: number,
    mask: number,
    limit: number,
    accept?: (place: PlaceCard) => boolean,
  ): Nearby[] {
    // Without a filter the grid's first `limit` are the answer; with one, ask for more until
    // `limit` pass or the circle has no more.
    for (let wanted = accept ? limit * 4 : limit; ; wanted *= 4) {
      const hits = this.grid.nearest(lat, lon, radiusKm, mask, wanted);
      const found = this.placesOf(hits, limit, accept);
      if (found.length >= limit || hits.ids.length < wanted) return found;
    }
  }

  /** The places of some hits (ids nearest first, with their distances): the first `limit` that `accept` takes. */
  placesOf(hits: GridHits, limit: number, accept?: (place: PlaceCard) => boolean): Nearby[] {
    const cards = this.cards(hits.ids);
    const found: Nearby[] = [];
    for (let i = 0; i < hits.ids.length && found.length < limit; i++) {
      const place = cards.get(hits.ids[i]);
      if (!place) continue; // deleted since the grid was read
      if (accept && !accept(place)) continue;
      found.push({ place, distanceKm: hits.distances[i] });
    }
    return found;
  }

  /**
   * The `limit` places nearest to a point, within `radiusKm`, in any category of `mask`, whose
   * names hold every one of `terms` (as word prefixes) and that `accept` takes: PlaceStore's
   * nearestByName. The name index gives the candidates; their positions come from the grid.
   */
  nearestByName(
    lat: number,
    lon: number,
    radiusKm: number,
    mask: number,
    terms: string[],
    limit: number,
    accept?: (place: PlaceCard) => boolean,
  ): Nearby[] {
    if (terms.length === 0 || limit <= 0) return [];
    // prepared on first use: the table may not exist yet when the owner is made
    this.nameMatches ??= this.sqlite.prepare(NAME_MATCHES_SQL).pluck();
    const hits: { id: number; distanceKm: number }[] = [];
    for (const id of this.nameMatches.all(ftsMatch(terms)) as number[]) {
      const at = this.grid.get(id);
      if (!at || !intersects(at.categories, mask)) continue;
      const distance = distanceKm(lat, lon, at.lat, at.lon);
      if (distance <= radiusKm) hits.push({ id, distanceKm: distance });
    }
    hits.sort((a, b) => a.distanceKm - b.distanceKm || a.id - b.id);
    const found: Nearby[] = [];
    // the cards of the nearest first, more at a time when `accept` may turn most away
    const batch = accept ? limit * 4 : limit;
    for (let from = 0; from < hits.length && found.length < limit; from += batch) {
      const part = hits.slice(from, from + batch);
      const cards = this.cards(part.map((hit) => hit.id));
      for (const { id, distanceKm } of part) {
        const place = cards.get(id);
        if (!place || (accept && !accept(place))) continue;
        found.push({ place, distanceKm });
        if (found.length === limit) break;
      }
    }
    return found;
  }
}
