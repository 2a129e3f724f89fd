// The pages that group places: a category in a town ("Pharmacies in Andorra la Vella"), only
// where the town has places of it. A place's town is a GeoNames city (1,000 people or more, the
// gazetteer's townAt) near it; places far from any are in no group.
//
// The index (town -> category -> place ids) is built from a scan of the places (OpenStreetMap and
// own ones; the live source's are kept a day only) and made again when the places' change mark
// has moved, but no sooner after the last build than REBUILD_PAUSE times what that build cost:
// on a few thousand places a change shows at once; on a million (a scan of seconds) a flow of
// changes costs a tenth of a core at most, and the index follows within a few tens of seconds.
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Lang } from '../i18n.js';
import { categoriesInMask } from '../places/model/categories.js';
import type { CategoryId } from '../places/model/category-ids.js';
import { gazetteer } from '../places/model/gazetteer.js';
import type { Group, GroupsList, GroupTown } from '../../web/lib/groups.js';

/** Towns the home page lists, most places first. */
export const HOME_TOWNS_MAX = 24;
/** Places a group page lists at most (by name). */
export const GROUP_PLACES_MAX = 500;
const REBUILD_PAUSE = 10;
const ROWS_PER_READ = 5_000;

/** "Sant Julià de Lòria" -> "sant-julia-de-loria". */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

interface Town {
  slug: string;
  name: string;
  /** place ids by category */
  places: Map<CategoryId, Int32Array>;
  total: number;
}

export class GroupIndex {
  constructor(private readonly towns: Map<string, Town>) {}

  /** The place ids of a category in a town, or null where there are none. */
  ids(category: string, townSlug: string): Int32Array | null {
    return this.towns.get(townSlug)?.places.get(category as CategoryId) ?? null;
  }

  /** Every group's path parts, town by town. */
  *groups(): Generator<{ category: CategoryId; town: string }> {
    for (const town of this.towns.values())
      for (const category of town.places.keys()) yield { category, town: town.slug };
  }

  /** The home page's Browse list. */
  list(): GroupsList {
    const towns: GroupTown[] = [...this.towns.values()]
      .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name))
      .slice(0, HOME_TOWNS_MAX)
      .map((town) => ({
        slug: town.slug,
        name: town.name,
        categories: [...town.places].map(([id, ids]) => ({ id, count: ids.length })),
      }));
    return { towns };
  }

  /** A group page's content in a language: its places by name, or null where there are none. */
  async group(db: Db, category: string, townSlug: string, lang: Lang): Promise<Group | null> {
    const town = this.towns.get(townSlug);
    const ids = town?.places.get(category as CategoryId);
    if (!town || !ids) return null;
    const { rows } = await sql<{
      osm_type: string;
      osm_id: number | string;
      name: string | null;
      names: string | null;
      address: string | null;
    }>`
      select osm_type, osm_id, name, names, address from places where id in (${sql.join([...ids])})`.execute(db);
    const places = rows
      .map((row) => {
        const names = row.names ? (JSON.parse(row.names) as Record<string, string>) : null;
        return { id: `${row.osm_type}/${row.osm_id}`, name: names?.[lang] ?? row.name, address: row.address };
      })
      .sort(
        (a, b) =>
          (a.name === null ? 1 : 0) - (b.name === null ? 1 : 0) ||
          (a.name ?? '').localeCompare(b.name ?? '', lang) ||
          a.id.localeCompare(b.id),
      )
      .slice(0, GROUP_PLACES_MAX);
    return { category: category as CategoryId, town: { slug: town.slug, name: town.name }, places };
  }
}

/** Reads every place's position and categories, a page of rows at a time, into towns. */
async function buildIndex(db: Db): Promise<GroupIndex> {
  const byCity = new Map<number, { name: string; country: string; places: Map<CategoryId, number[]>; total: number }>();
  const cities = gazetteer();
  let after = 0;
  for (;;) {
    const { rows } = await sql<{ id: number; lat: number; lon: number; categories: number | string }>`
      select id, lat, lon, categories from places
      where id > ${after} and source <> 'overpass' order by id limit ${ROWS_PER_READ}`.execute(db);
    for (const row of rows) {
      const city = cities.townAt(Number(row.lat), Number(row.lon));
      if (!city) continue;
      let town = byCity.get(city.id);
      if (!town) byCity.set(city.id, (town = { name: city.name, country: city.country, places: new Map(), total: 0 }));
      town.total++;
      for (const category of categoriesInMask(Number(row.categories))) {
        let ids = town.places.get(category);
        if (!ids) town.places.set(category, (ids = []));
        ids.push(Number(row.id));
      }
    }
    if (rows.length < ROWS_PER_READ) break;
    after = Number(rows[rows.length - 1].id);
  }
  // A slug names one town: a second town of the same name takes its country, then its number.
  const towns = new Map<string, Town>();
  for (const [id, town] of [...byCity].sort((a, b) => a[0] - b[0])) {
    const base = slugify(town.name) || String(id);
    const slug = [base, `${base}-${town.country.toLowerCase()}`, `${base}-${id}`].find(
      (candidate) => !towns.has(candidate),
    )!;
    const places = new Map([...town.places].map(([category, ids]) => [category, Int32Array.from(ids)] as const));
    towns.set(slug, { slug, name: town.name, places, total: town.total });
  }
  return new GroupIndex(towns);
}

export class PlaceGroups {
  private index: GroupIndex | null = null;
  private builtFor = -1;
  private builtAt = 0;
  private buildMs = 0;
  private building: Promise<GroupIndex> | null = null;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The index for the places as of `mark` (their change mark), or the last one while too soon to build again. */
  async current(mark: number): Promise<GroupIndex> {
    if (this.index && (mark === this.builtFor || this.now() - this.builtAt < this.buildMs * REBUILD_PAUSE))
      return this.index;
    if (this.building) return this.building;
    gazetteer(); // made once per process: not a cost of the build
    const started = this.now();
    this.building = buildIndex(this.db)
      .then((index) => {
        this.index = index;
        this.builtFor = mark;
        this.builtAt = this.now();
        this.buildMs = this.builtAt - started;
        return index;
      })
      .finally(() => {
        this.building = null;
      });
    return this.building;
  }
}
