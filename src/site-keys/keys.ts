// Site keys: what another site shows with a read of the public API or the embedded locator, with
// the origins whose pages may use it and a quota per UTC day. The keys are cached in each process
// and reloaded when any process or node changes one (data_versions, as the settings are). Their
// use is counted in memory and shared through site_key_usage once a second, so a keyed read
// costs no database write, and every process learns the others' counts within about a second.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { bumpVersion, readVersioned } from '../shared/settings-cache.js';

export interface SiteKey {
  id: number;
  name: string;
  key: string;
  origins: readonly string[];
  dailyLimit: number;
  createdAt: string;
}

const VERSION = 'site_keys';
const DAY_MS = 86_400_000;

/** YYYY-MM-DD of a time, in UTC: a key's day. */
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Seconds until the next UTC midnight, when a day's quota starts again. */
export const secondsToNextDay = (ms: number) =>
  Math.max(1, Math.ceil(((Math.floor(ms / DAY_MS) + 1) * DAY_MS - ms) / 1000));

/** A new key: public (it stands in pages), so only hard to guess, never a secret. */
export const newKeyText = () => `pk_${randomBytes(18).toString('base64url')}`;

/** What may be a key's text (anything else is no key at all, unknown). */
export const KEY_TEXT = /^[A-Za-z0-9_-]{8,100}$/;

const rowToKey = (row: {
  id: number;
  name: string;
  key: string;
  origins: string;
  daily_limit: number;
  created_at: string;
}): SiteKey => ({
  id: Number(row.id),
  name: row.name,
  key: row.key,
  origins: JSON.parse(row.origins) as string[],
  dailyLimit: Number(row.daily_limit),
  createdAt: row.created_at,
});

/** Every key, by its text, as this process last read them (reloaded after any change anywhere). */
export function keysByText(
  db: Db,
): Promise<Readonly<{ byText: ReadonlyMap<string, SiteKey>; list: readonly SiteKey[] }>> {
  return readVersioned(db, VERSION, async () => {
    const rows = await db.selectFrom('site_keys').selectAll().orderBy('id').execute();
    const list = rows.map(rowToKey);
    return { byText: new Map(list.map((key) => [key.key, key])), list };
  });
}

/** Marks the keys changed; call it inside the transaction that changes them. */
export const keysChanged = (db: Db) => bumpVersion(db, VERSION);

/**
 * Requests per key today: this process's hits not yet shared, plus the site's count as the
 * database last said. A day's hits are kept apart until shared, so none is lost at midnight.
 */
export class KeyUsage {
  private today = '';
  /** the site's counts today, as last read */
  private shared = new Map<number, number>();
  /** hits not yet shared, by `day|id` */
  private pending = new Map<string, number>();
  /** hits being shared now: still counted until the shared counts that include them are read */
  private sending = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Counts one request on the key; returns its count today, this one included. */
  hit(id: number): number {
    const day = this.roll();
    const slot = `${day}|${id}`;
    this.pending.set(slot, (this.pending.get(slot) ?? 0) + 1);
    return this.countOn(day, id);
  }

  /** The key's count today, nothing counted. */
  count(id: number): number {
    return this.countOn(this.roll(), id);
  }

  private countOn(day: string, id: number): number {
    const slot = `${day}|${id}`;
    return (this.shared.get(id) ?? 0) + (this.sending.get(slot) ?? 0) + (this.pending.get(slot) ?? 0);
  }

  /**
   * Adds the hits taken here to the shared counts, then reads today's counts of every key. Hits
   * taken meanwhile stay pending; when the write fails they go back, so nothing is lost while the
   * database is away. A key deleted meanwhile takes its hits with it.
   */
  async share(db: Db): Promise<void> {
    this.sending = this.pending;
    this.pending = new Map();
    const batch = [...this.sending].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    try {
      if (batch.length) {
        await db.transaction().execute(async (trx) => {
          for (const [slot, count] of batch) {
            const [day, id] = slot.split('|');
            await sql`
              insert into site_key_usage (key_id, day, count) select id, ${day}, ${count} from site_keys where id = ${Number(id)}
              on conflict (key_id, day) do update set count = site_key_usage.count + excluded.count`.execute(trx);
          }
        });
      }
    } catch (error) {
      for (const [slot, count] of batch) this.pending.set(slot, (this.pending.get(slot) ?? 0) + count);
      this.sending = new Map();
      throw error;
    }
    const day = this.roll();
    let rows: { key_id: number; count: number }[];
    try {
      rows = await db.selectFrom('site_key_usage').select(['key_id', 'count']).where('day', '=', day).execute();
    } finally {
      // Written: from here the shared counts hold them (or will, at the next reading).
      this.sending = new Map();
    }
    if (this.today === day) this.shared = new Map(rows.map((row) => [Number(row.key_id), Number(row.count)]));
  }

  /** Today's day; a new day starts every key's count again. */
  private roll(): string {
    const day = dayOf(this.now());
    if (day !== this.today) {
      this.today = day;
      this.shared = new Map();
    }
    return day;
  }
}

/** Each key's requests per day for the last `days` days, oldest first, today included. */
export async function usageByDay(
  db: Db,
  now: number,
  days = 30,
): Promise<{ days: string[]; counts: Map<number, number[]> }> {
  const list = Array.from({ length: days }, (_, i) => dayOf(now - (days - 1 - i) * DAY_MS));
  const rows = await db
    .selectFrom('site_key_usage')
    .select(['key_id', 'day', 'count'])
    .where('day', '>=', list[0])
    .execute();
  const counts = new Map<number, number[]>();
  for (const row of rows) {
    const at = list.indexOf(row.day);
    if (at < 0) continue;
    const id = Number(row.key_id);
    if (!counts.has(id)) counts.set(id, new Array(days).fill(0));
    counts.get(id)![at] = Number(row.count);
  }
  return { days: list, counts };
}
