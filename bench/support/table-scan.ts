// The benchmark's comparison without any index: a store whose searches by category read every row
// of `places` in the circle's boxes (a plain table scan) instead of the grid, then the same cards.
import type SQLite from '../../db/sqlite-driver.js';
import { boxesAround, distanceKm, intersects } from '../../src/places/model/geo.js';
import type { ChangeFeed } from '../../src/places/search/change-feed.js';
import type { GridHits } from '../../src/places/search/grid.js';
import type { LocalReads } from '../../src/places/search/local-reads.js';
import type { PlaceStore } from '../../src/places/store/index.js';

/** Every place within the radius in a category of `mask`, nearest first, by a scan of the table. */
function scan(rows: SQLite.Statement, lat: number, lon: number, radiusKm: number, mask: number): GridHits {
  const hits: { id: number; d: number }[] = [];
  for (const b of boxesAround(lat, lon, radiusKm)) {
    for (const [id, plat, plon, categories] of rows.all(b.south, b.north, b.west, b.east) as [
      number,
      number,
      number,
      number,
    ][]) {
      if (!intersects(categories, mask)) continue;
      const d = distanceKm(lat, lon, plat, plon);
      if (d <= radiusKm) hits.push({ id, d });
    }
  }
  hits.sort((a, b) => a.d - b.d || a.id - b.id);
  return { ids: hits.map((h) => h.id), distances: hits.map((h) => h.d) };
}

/** The store, its searches by category answered by a table scan (the name search as it is). */
export function scanningStore(store: PlaceStore, sqlite: SQLite.Database): PlaceStore {
  const rows = sqlite
    .prepare('select id, lat, lon, categories from places where lat between ? and ? and lon between ? and ?')
    .raw();
  const scanning = (reads: LocalReads): LocalReads =>
    Object.assign(Object.create(reads) as LocalReads, {
      nearest: (...[lat, lon, radiusKm, mask, limit, accept]: Parameters<LocalReads['nearest']>) =>
        reads.placesOf(scan(rows, lat, lon, radiusKm, mask), limit, accept),
    });
  const feed: ChangeFeed = {
    reads: async () => scanning(await store.feed.reads()),
    caughtUp: async (position) => scanning(await store.feed.caughtUp(position)),
  };
  return Object.assign(Object.create(store) as PlaceStore, { feed });
}
