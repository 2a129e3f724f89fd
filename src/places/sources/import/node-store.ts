// Compact stores for what an import keeps of millions of nodes and ways: ids in typed arrays
// (8 bytes each, outside the JavaScript heap), sorted once, found by binary search or by walking
// along a file's ascending ids. A JavaScript Set of numbers costs ~30 bytes an id on the heap
// and V8 caps it at 2^24 entries; these grow until the machine's memory is used up, and say so.
import { ImportError } from './types.js';

/** Locations as 1e-7 degree integers (OSM's own precision); this marks a node not found. */
export const NO_LOCATION = -0x80000000;

/** Allocates a typed array; running out of memory is named as such, with what was being held. */
function allocate<T>(make: (length: number) => T, length: number, bytesEach: number, what: string): T {
  try {
    return make(length);
  } catch (error) {
    if (error instanceof RangeError) {
      const mb = Math.ceil((length * bytesEach) / 2 ** 20).toLocaleString('en');
      throw new ImportError(
        `not enough memory to hold ${length.toLocaleString('en')} ${what} (${mb} MB more); ` +
          'import a smaller extract or run the import on a machine with more memory',
      );
    }
    throw error;
  }
}

/** A list of numbers (ids) that grows by doubling. */
export class GrowableIds {
  values: Float64Array;
  length = 0;

  constructor(
    private readonly what = 'node ids',
    capacity = 1024,
  ) {
    this.values = new Float64Array(capacity);
  }

  push(value: number): void {
    if (this.length === this.values.length) this.grow(this.length + 1);
    this.values[this.length++] = value;
  }

  /** Makes room for `needed` values in all. */
  grow(needed: number): void {
    if (needed <= this.values.length) return;
    const bigger = allocate((n) => new Float64Array(n), Math.max(needed, this.values.length * 2), 8, this.what);
    bigger.set(this.values.subarray(0, this.length));
    this.values = bigger;
  }

  /** The values sorted, each once, in an array of their own size (this list is emptied). */
  sortedUnique(): Float64Array {
    const values = this.values.subarray(0, this.length).sort();
    let unique = 0;
    for (let i = 0; i < values.length; i++) {
      if (i === 0 || values[i] !== values[unique - 1]) values[unique++] = values[i];
    }
    const result = allocate((n) => new Float64Array(n), unique, 8, this.what);
    result.set(values.subarray(0, unique));
    this.values = new Float64Array(0);
    this.length = 0;
    return result;
  }
}

/** The position of `id` in the ascending `ids`, or -1. */
export function findSorted(ids: Float64Array, id: number): number {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = ids[mid];
    if (value < id) low = mid + 1;
    else if (value > id) high = mid - 1;
    else return mid;
  }
  return -1;
}

/** Ids sorted, each once, found by binary search or by a walk along ascending ids. */
export class SortedIds {
  /** where the last walk along ascending ids stopped */
  private cursor = 0;

  constructor(readonly ids: Float64Array) {}

  get size(): number {
    return this.ids.length;
  }

  /**
   * The slot of an id, or -1. `ascending`: the ids asked come in ascending order (an ordered
   * file), so a walk along the ids replaces the binary search; restart() before each walk.
   */
  slot(id: number, ascending: boolean): number {
    const ids = this.ids;
    if (!ascending) return findSorted(ids, id);
    let i = this.cursor;
    while (i < ids.length && ids[i] < id) i++;
    this.cursor = i;
    return i < ids.length && ids[i] === id ? i : -1;
  }

  restart(): void {
    this.cursor = 0;
  }
}

/**
 * The locations of the nodes an import needs: their ids sorted, each once (8 bytes), and the
 * latitude and longitude of each as 1e-7 degree integers (4 + 4 bytes): 16 bytes a node.
 */
export class NodeLocations extends SortedIds {
  readonly lats: Int32Array;
  readonly lons: Int32Array;

  constructor(ids: Float64Array) {
    super(ids);
    this.lats = allocate((n) => new Int32Array(n), ids.length, 4, 'node locations');
    this.lons = allocate((n) => new Int32Array(n), ids.length, 4, 'node locations');
    this.lats.fill(NO_LOCATION);
  }

  set(slot: number, lat: number, lon: number): void {
    this.lats[slot] = lat;
    this.lons[slot] = lon;
  }

  /** How many of the needed nodes were found. */
  found(): number {
    let n = 0;
    for (let i = 0; i < this.lats.length; i++) if (this.lats[i] !== NO_LOCATION) n++;
    return n;
  }
}
