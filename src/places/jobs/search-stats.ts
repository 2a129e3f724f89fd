// What visitors look for: searches per UTC day by category, by city named, and the
// areas where a search found nothing or fewer than 3 places. Counted in memory and written every
// few seconds in one transaction of upserts (adding, so processes and nodes share the rows): a
// search costs a few Map updates, never a write of its own. A crash loses at most the last
// FLUSH_MS of counts, acceptable for statistics. Positions are kept only as ~1 km cells.
import { sql } from 'kysely';
import type { Db } from '../../../db/index.js';
import type { SearchStatsDailyTable } from '../../../db/schema.js';

type SearchKind = SearchStatsDailyTable['kind'];

export const FLUSH_MS = 5_000;
/** fewer results than this within the radius counts as "found few" */
export const FEW = 3;

export interface SearchFacts {
  nowMs: number;
  categories: string[];
  city?: string;
  /** the search centre; only its ~1 km cell is kept */
  lat: number;
  lon: number;
  found: number;
}

/** A cell of 0.01 degree (about 1.1 km north-south): the finest position ever stored. */
export const cellOf = (lat: number, lon: number) => `${lat.toFixed(2)},${lon.toFixed(2)}`;

export class SearchStats {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** the UTC day of the last search, as its number and its text (formatted once a day) */
  private day = { n: -1, text: '' };

  constructor(private readonly db: Db) {}

  record(facts: SearchFacts): void {
    const n = Math.floor(facts.nowMs / 86_400_000);
    if (n !== this.day.n) this.day = { n, text: new Date(facts.nowMs).toISOString().slice(0, 10) };
    const day = this.day.text;
    const add = (kind: string, key: string) => {
      const id = `${day}\u0000${kind}\u0000${key}`;
      this.pending.set(id, (this.pending.get(id) ?? 0) + 1);
    };
    add('search', '');
    for (const category of new Set(facts.categories)) add('category', category);
    const city = facts.city?.trim().toLowerCase();
    if (city) add('city', city.slice(0, 100));
    if (facts.found === 0) add('empty', cellOf(facts.lat, facts.lon));
    else if (facts.found < FEW) add('few', cellOf(facts.lat, facts.lon));
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes what was counted (one transaction); also called at shutdown and by tests. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing.then(async () => {
      if (batch.size === 0) return;
      try {
        await this.db.transaction().execute(async (trx) => {
          for (const [id, count] of batch) {
            const [day, kind, key] = id.split('\u0000');
            await trx
              .insertInto('search_stats_daily')
              .values({ day, kind: kind as SearchKind, key, count })
              .onConflict((oc) =>
                oc
                  .columns(['day', 'kind', 'key'])
                  .doUpdateSet({ count: sql`search_stats_daily.count + excluded.count` }),
              )
              .execute();
          }
        });
      } catch {
        // Statistics never fail a search nor stop the server: the counts are put back for next time.
        for (const [id, count] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + count);
        this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
      }
    });
    return this.flushing;
  }
}

const DAY_MS = 86_400_000;

/** The dashboard's view of the last `days` days: top categories and cities, empty areas, the trend. */
export async function searchReport(db: Db, nowMs: number, days = 30) {
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const first = dayOf(nowMs - (days - 1) * DAY_MS);
  const rows = await db
    .selectFrom('search_stats_daily')
    .select(['day', 'kind', 'key', 'count'])
    .where('day', '>=', first)
    .execute();
  const totals = (kind: SearchKind) => {
    const sums = new Map<string, number>();
    for (const row of rows) if (row.kind === kind) sums.set(row.key, (sums.get(row.key) ?? 0) + Number(row.count));
    return [...sums].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  };
  const cell = ([key, count]: [string, number]) => {
    const [lat, lon] = key.split(',').map(Number);
    return { lat, lon, count };
  };
  const byDay = (kind: SearchKind, day: string) =>
    rows.filter((r) => r.kind === kind && r.day === day).reduce((n, r) => n + Number(r.count), 0);
  return {
    top_categories: totals('category')
      .slice(0, 10)
      .map(([category, count]) => ({ category, count })),
    top_cities: totals('city')
      .slice(0, 10)
      .map(([city, count]) => ({ city, count })),
    empty_areas: totals('empty').slice(0, 50).map(cell),
    few_areas: totals('few').slice(0, 50).map(cell),
    trend: Array.from({ length: days }, (_, i) => {
      const day = dayOf(nowMs - (days - 1 - i) * DAY_MS);
      return { day, searches: byDay('search', day), empty: byDay('empty', day), few: byDay('few', day) };
    }),
  };
}
