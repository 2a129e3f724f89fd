// The nearest places of some categories, from memory: every place's id, position and category
// mask in flat typed arrays, sorted by grid cell (0.01 degree squares, row by row of latitude), so
// that a search reads a few runs of neighbouring cells, each one contiguous stretch of memory, and
// measures only the places of the requested categories. About 18 bytes a place: 18 MB for a
// million. The rows themselves (names, addresses...) stay in the database.
//
// Positions are kept as OSM keeps them, integers of 1e-7 degree, whenever that gives back the
// stored number exactly (OpenStreetMap's own data always does); the few others are kept whole
// beside. A place's categories are a number into the table of the masks that occur (a few dozen).
//
// Changes after a build go to a small overlay (scanned whole by every search) and leave a
// tombstone in the sorted arrays; past OVERLAY_MAX the arrays are rebuilt from memory.
import { distanceKm, EARTH_RADIUS_KM, intersects } from '../model/geo.js';

/** Cell size in degrees: a dense city block holds a few dozen places, a 5 km circle ~100 cells. */
const CELL = 0.01;
const ROWS = Math.round(180 / CELL) + 1;
const COLUMNS = Math.round(360 / CELL);
const RAD = Math.PI / 180;
/** Changes kept beside the sorted arrays before they are rebuilt. */
export const OVERLAY_MAX = 20_000;

const rowOf = (lat: number) => Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / CELL)));
/** The column of a longitude, unwrapped (may pass either end; wrapped with `wrap`). */
const columnOf = (lon: number) => Math.floor((lon + 180) / CELL);
const wrap = (column: number) => ((column % COLUMNS) + COLUMNS) % COLUMNS;

/** Degrees as integers of 1e-7 degree (OSM's own unit). */
const E7 = 1e7;
/** In the integer latitude: this place's position is in the exact table. */
const EXACT = -2147483648;

export interface GridPlace {
  id: number;
  lat: number;
  lon: number;
  /** category mask */
  categories: number;
}

/** Places as columns: what build() takes. */
export interface PlaceColumns {
  id: Int32Array;
  lat: Float64Array;
  lon: Float64Array;
  categories: Float64Array;
}

export const placeColumns = (n: number): PlaceColumns => ({
  id: new Int32Array(n),
  lat: new Float64Array(n),
  lon: new Float64Array(n),
  categories: new Float64Array(n),
});

/** What nearest() found: ids and exact distances (distanceKm), nearest first, then by id. */
export interface GridHits {
  ids: number[];
  distances: number[];
}

/**
 * A bounded max-heap of (distance, id): keeps the `limit` nearest seen. One per grid, emptied for
 * each search (a search runs to its end synchronously): a pair of typed arrays made per search
 * cost as much as the search of an empty area.
 */
class NearestHeap {
  d = new Float64Array(0);
  id = new Int32Array(0);
  size = 0;
  limit = 0;
  /** Empty, for the `limit` nearest. */
  reset(limit: number): this {
    if (this.d.length < limit) {
      this.d = new Float64Array(limit);
      this.id = new Int32Array(limit);
    }
    this.limit = limit;
    this.size = 0;
    return this;
  }
  /** the distance a newcomer must beat (Infinity while not full) */
  bound(): number {
    return this.size < this.limit ? Infinity : this.d[0];
  }
  private above(i: number, j: number): boolean {
    return this.d[i] > this.d[j] || (this.d[i] === this.d[j] && this.id[i] > this.id[j]);
  }
  private swap(i: number, j: number): void {
    const d = this.d[i];
    this.d[i] = this.d[j];
    this.d[j] = d;
    const id = this.id[i];
    this.id[i] = this.id[j];
    this.id[j] = id;
  }
  offer(d: number, id: number): void {
    if (this.size < this.limit) {
      let i = this.size++;
      this.d[i] = d;
      this.id[i] = id;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.above(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    if (d > this.d[0] || (d === this.d[0] && id >= this.id[0])) return;
    this.d[0] = d;
    this.id[0] = id;
    this.siftDown(0);
  }
  private siftDown(i: number): void {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let top = i;
      if (left < this.size && this.above(left, top)) top = left;
      if (right < this.size && this.above(right, top)) top = right;
      if (top === i) break;
      this.swap(i, top);
      i = top;
    }
  }
  /** Empties the heap into a list, nearest first (a heap sort: no comparator calls, no copies). */
  sorted(): GridHits {
    const n = this.size;
    const ids: number[] = new Array(n);
    const distances: number[] = new Array(n);
    for (let last = n - 1; last >= 0; last--) {
      ids[last] = this.id[0];
      distances[last] = this.d[0];
      this.size = last;
      if (last === 0) break;
      this.d[0] = this.d[last];
      this.id[0] = this.id[last];
      this.siftDown(0);
    }
    return { ids, distances };
  }
}

export class PlaceGrid {
  // The sorted arrays, by position.
  private id = new Int32Array(0);
  /** position in 1e-7 degrees, or EXACT in latE7: then in exactLat/exactLon */
  private latE7 = new Int32Array(0);
  private lonE7 = new Int32Array(0);
  /** the sorted positions whose numbers are not whole 1e-7 degrees, and those numbers */
  private exactAt = new Int32Array(0);
  private exactLat = new Float64Array(0);
  private exactLon = new Float64Array(0);
  /** index into `masks`; 0 (no category) is a tombstone */
  private combo: Uint16Array | Int32Array = new Uint16Array(0);
  /** the category masks that occur, masks[0] = 0 */
  private masks: number[] = [0];
  /** cell keys (row * COLUMNS + column), ascending; cell c holds positions cellStart[c]..cellStart[c+1] */
  private cellKey = new Int32Array(0);
  private cellStart = new Int32Array(1);
  /** the cells of row r are rowStart[r]..rowStart[r+1] */
  private rowStart = new Int32Array(ROWS + 1);
  /** id -> position in the sorted arrays, -1 when not there (or tombstoned) */
  private positionOf = new Int32Array(0);
  /** places added or changed since the arrays were built */
  private overlay = new Map<number, GridPlace>();
  private count = 0;
  /** nearest()'s working space, kept from one search to the next */
  private readonly heap = new NearestHeap();
  private wanted = new Uint8Array(0);

  /** How many places it holds. */
  get size(): number {
    return this.count;
  }

  /** Replaces everything with these places (columns of equal length: no object per place). */
  build(columns: PlaceColumns): void {
    this.overlay.clear();
    this.pack(columns);
  }

  /** Adds a place, or moves it or changes its categories (a mask of 0 removes it). */
  upsert(place: GridPlace): void {
    this.remove(place.id);
    if (place.categories === 0) return;
    this.overlay.set(place.id, place);
    this.count++;
    if (this.overlay.size > OVERLAY_MAX) this.compact();
  }

  remove(id: number): void {
    if (this.overlay.delete(id)) {
      this.count--;
      return;
    }
    const position = id < this.positionOf.length ? this.positionOf[id] : -1;
    if (position < 0) return;
    // a tombstone: no mask matches it
    this.combo[position] = 0;
    this.positionOf[id] = -1;
    this.count--;
  }

  /** One place's position and categories, or undefined when it is not held. */
  get(id: number): GridPlace | undefined {
    const extra = this.overlay.get(id);
    if (extra) return extra;
    const p = id < this.positionOf.length ? this.positionOf[id] : -1;
    if (p < 0) return undefined;
    return this.placeAt(p);
  }

  private placeAt(p: number): GridPlace {
    return { id: this.id[p], lat: this.latAt(p), lon: this.lonAt(p), categories: this.masks[this.combo[p]] };
  }

  /** The stored numbers of sorted position `p`'s place. */
  private latAt(p: number): number {
    return this.latE7[p] !== EXACT ? this.latE7[p] / E7 : this.exactLat[this.exactIndex(p)];
  }
  private lonAt(p: number): number {
    return this.latE7[p] !== EXACT ? this.lonE7[p] / E7 : this.exactLon[this.exactIndex(p)];
  }

  /** Where sorted position `p` is in the exact table (it is there: latE7[p] is EXACT). */
  private exactIndex(p: number): number {
    let low = 0;
    let high = this.exactAt.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.exactAt[mid] < p) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Every place it holds (for rebuilding, and for the tests). */
  *places(): Generator<GridPlace> {
    for (let p = 0; p < this.id.length; p++) if (this.combo[p] !== 0) yield this.placeAt(p);
    yield* this.overlay.values();
  }

  /** Folds the overlay into the sorted arrays. */
  compact(): void {
    const columns = placeColumns(this.count);
    let n = 0;
    for (const place of this.places()) {
      columns.id[n] = place.id;
      columns.lat[n] = place.lat;
      columns.lon[n] = place.lon;
      columns.categories[n++] = place.categories;
    }
    this.overlay.clear();
    this.pack(columns);
  }

  /** Sorts the places by cell with two counting sorts (column, then row: stable). */
  private pack(columns: PlaceColumns): void {
    const n = columns.id.length;
    const rows = new Int32Array(n);
    const cols = new Int32Array(n);
    let maxId = 0;
    for (let k = 0; k < n; k++) {
      rows[k] = rowOf(columns.lat[k]);
      cols[k] = wrap(columnOf(columns.lon[k]));
      if (columns.id[k] > maxId) maxId = columns.id[k];
    }
    const order = countingSort(rows, ROWS, countingSort(cols, COLUMNS, null));

    // the masks that occur, each once; their number per place
    const masks = [0];
    const comboOf = new Map<number, number>([[0, 0]]);
    for (let k = 0; k < n; k++) {
      const mask = columns.categories[k];
      if (!comboOf.has(mask)) comboOf.set(mask, masks.push(mask) - 1);
    }
    this.masks = masks;
    this.combo = masks.length <= 65536 ? new Uint16Array(n) : new Int32Array(n);
    this.id = new Int32Array(n);
    this.latE7 = new Int32Array(n);
    this.lonE7 = new Int32Array(n);
    const exactAt: number[] = [];
    const exactLat: number[] = [];
    const exactLon: number[] = [];
    this.positionOf = new Int32Array(maxId + 1).fill(-1);
    const keys: number[] = [];
    const starts: number[] = [];
    this.rowStart = new Int32Array(ROWS + 1);
    let lastKey = -1;
    for (let p = 0; p < n; p++) {
      const k = order[p];
      const id = columns.id[k];
      this.id[p] = id;
      const lat = columns.lat[k];
      const lon = columns.lon[k];
      this.latE7[p] = Math.round(lat * E7);
      this.lonE7[p] = Math.round(lon * E7);
      // read back from the arrays: a number past 32 bits would not come back
      if (this.latE7[p] === EXACT || this.latE7[p] / E7 !== lat || this.lonE7[p] / E7 !== lon) {
        this.latE7[p] = EXACT;
        exactAt.push(p);
        exactLat.push(lat);
        exactLon.push(lon);
      }
      this.combo[p] = comboOf.get(columns.categories[k])!;
      this.positionOf[id] = p;
      const key = rows[k] * COLUMNS + cols[k];
      if (key !== lastKey) {
        keys.push(key);
        starts.push(p);
        this.rowStart[rows[k] + 1] = keys.length; // cells of rows up to this one
        lastKey = key;
      }
    }
    starts.push(n);
    // rows without cells start where the previous row ended
    for (let r = 1; r <= ROWS; r++)
      if (this.rowStart[r] < this.rowStart[r - 1]) this.rowStart[r] = this.rowStart[r - 1];
    this.cellKey = Int32Array.from(keys);
    this.cellStart = Int32Array.from(starts);
    this.exactAt = Int32Array.from(exactAt);
    this.exactLat = Float64Array.from(exactLat);
    this.exactLon = Float64Array.from(exactLon);
    this.count = n;
  }

  /**
   * The `limit` places nearest to a point that are in a category of `mask`, within `radiusKm`
   * (by distanceKm, inclusive), nearest first, then by id: the answer of a full scan, from a
   * growing box of cells that stops once the `limit`-th nearest is nearer than its edge.
   */
  nearest(lat: number, lon: number, radiusKm: number, mask: number, limit: number): GridHits {
    if (limit <= 0 || this.count === 0) return { ids: [], distances: [] };
    const heap = this.heap.reset(Math.min(limit, this.count + 1));
    // which of the masks that occur meet the question's: one byte to test per place
    if (this.wanted.length < this.masks.length) this.wanted = new Uint8Array(this.masks.length);
    const wanted = this.wanted;
    for (let i = 1; i < this.masks.length; i++) wanted[i] = intersects(this.masks[i], mask) ? 1 : 0;
    for (const place of this.overlay.values()) {
      if (!intersects(place.categories, mask)) continue;
      const d = distanceKm(lat, lon, place.lat, place.lon);
      if (d <= radiusKm) heap.offer(d, place.id);
    }
    // The box of cells read so far: rows r0..r1, unwrapped columns c0..c1 (all of them once
    // `everyColumn`); none yet.
    let r0 = rowOf(lat) + 1;
    let r1 = r0 - 1;
    let c0 = columnOf(lon) + 1;
    let c1 = c0 - 1;
    let everyColumn = false;
    let ring = Math.min(radiusKm, Math.max(radiusKm / 16, 0.25));
    for (;;) {
      const [south, north, west, east] = cellBox(lat, lon, ring);
      const nr0 = Math.min(rowOf(south), r0);
      const nr1 = Math.max(rowOf(north), r1);
      const nc0 = Math.min(columnOf(west), c0);
      const nc1 = Math.max(columnOf(east), c1);
      const nowEvery: boolean = everyColumn || nc1 - nc0 + 1 >= COLUMNS;
      for (let r = nr0; r <= nr1; r++) {
        // a row whose nearest latitude is farther than the `limit`-th nearest so far has nothing for us
        const rowSouth = r * CELL - 90;
        const gap = lat < rowSouth ? rowSouth - lat : lat > rowSouth + CELL ? lat - rowSouth - CELL : 0;
        if (gap * RAD * EARTH_RADIUS_KM > Math.min(heap.bound(), radiusKm)) continue;
        const seen = r >= r0 && r <= r1;
        if (!seen) this.scanRow(r, nowEvery ? 0 : nc0, nowEvery ? COLUMNS - 1 : nc1, lat, lon, radiusKm, wanted, heap);
        else if (everyColumn) continue;
        else if (nowEvery) this.scanRow(r, c1 + 1, c0 - 1 + COLUMNS, lat, lon, radiusKm, wanted, heap);
        else {
          if (nc0 < c0) this.scanRow(r, nc0, c0 - 1, lat, lon, radiusKm, wanted, heap);
          if (nc1 > c1) this.scanRow(r, c1 + 1, nc1, lat, lon, radiusKm, wanted, heap);
        }
      }
      [r0, r1, c0, c1, everyColumn] = [nr0, nr1, nc0, nc1, nowEvery];
      // Everything within `ring` has been read: the `limit` nearest, if all within it, are final.
      if ((heap.size >= limit && heap.bound() <= ring) || ring >= radiusKm) return heap.sorted();
      const found = heap.size;
      const guess = ring * Math.sqrt(limit / Math.max(found, 1)) * 1.25;
      ring = Math.min(radiusKm, Math.max(ring * 2, found === 0 ? ring * 4 : guess));
    }
  }

  /** Measures the places of the cells of row `r` in unwrapped columns from..to. */
  private scanRow(
    r: number,
    from: number,
    to: number,
    lat: number,
    lon: number,
    radiusKm: number,
    wanted: Uint8Array,
    heap: NearestHeap,
  ): void {
    if (to - from + 1 >= COLUMNS) {
      from = 0;
      to = COLUMNS - 1;
    }
    const a = wrap(from);
    const b = wrap(to);
    if (a <= b) this.scanCells(r, a, b, lat, lon, radiusKm, wanted, heap);
    else {
      this.scanCells(r, a, COLUMNS - 1, lat, lon, radiusKm, wanted, heap);
      this.scanCells(r, 0, b, lat, lon, radiusKm, wanted, heap);
    }
  }

  private scanCells(
    r: number,
    from: number,
    to: number,
    lat: number,
    lon: number,
    radiusKm: number,
    wanted: Uint8Array,
    heap: NearestHeap,
  ): void {
    const keys = this.cellKey;
    let lowCell = this.rowStart[r];
    let highCell = this.rowStart[r + 1];
    if (lowCell === highCell) return;
    const first = r * COLUMNS + from;
    const last = r * COLUMNS + to;
    // the first cell of the row at or after `from`
    while (lowCell < highCell) {
      const mid = (lowCell + highCell) >> 1;
      if (keys[mid] < first) lowCell = mid + 1;
      else highCell = mid;
    }
    let endCell = lowCell;
    const rowEnd = this.rowStart[r + 1];
    while (endCell < rowEnd && keys[endCell] <= last) endCell++;
    const end = this.cellStart[endCell];
    const combo = this.combo;
    for (let p = this.cellStart[lowCell]; p < end; p++) {
      if (wanted[combo[p]] === 0) continue;
      const d = distanceKm(lat, lon, this.latAt(p), this.lonAt(p));
      if (d <= radiusKm) heap.offer(d, this.id[p]);
    }
  }
}

/** A stable counting sort of `order` (identity when null) by `values[k]` in 0..range-1. */
function countingSort(values: Int32Array, range: number, order: Int32Array | null): Int32Array {
  const n = values.length;
  const counts = new Int32Array(range + 1);
  for (let k = 0; k < n; k++) counts[values[k] + 1]++;
  for (let v = 0; v < range; v++) counts[v + 1] += counts[v];
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const k = order ? order[i] : i;
    out[counts[values[k]]++] = k;
  }
  return out;
}

/**
 * The box around a circle, as boxesAround() but with longitudes unwrapped (west may be below
 * -180, east above 180) and all longitudes when a pole is within it: [south, north, west, east].
 */
function cellBox(lat: number, lon: number, radiusKm: number): [number, number, number, number] {
  const angle = radiusKm / EARTH_RADIUS_KM;
  const south = lat - angle / RAD;
  const north = lat + angle / RAD;
  const everywhere: [number, number, number, number] = [
    Math.max(south, -90),
    Math.min(north, 90),
    lon - 180,
    lon + 180,
  ];
  if (south <= -90 || north >= 90) return everywhere;
  const sinRatio = Math.sin(angle) / Math.cos(lat * RAD);
  if (sinRatio >= 1) return everywhere;
  // a hair wider than the exact span: points on its edge must not be lost to rounding
  const span = Math.asin(sinRatio) / RAD + 1e-9;
  return [south - 1e-9, north + 1e-9, lon - span, lon + span];
}
