// Issue 10: the in-memory grid (src/places/search/grid.ts) answers exactly what a full scan
// answers: the nearest places of the categories asked, within the radius, nearest first and then
// by id; across the antimeridian and around the poles; after places are added, moved, re-filed
// and removed (the overlay), and after the overlay is folded into the sorted arrays.
import { describe, expect, it } from 'vitest';
import { distanceKm } from '../../../src/places/model/geo.js';
import { OVERLAY_MAX, PlaceGrid, placeColumns, type GridPlace } from '../../../src/places/search/grid.js';
import { nearestByScan } from '../../support/nearest.js';

/** A seeded PRNG: the same cases on every run. */
function random(seed: number) {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 2 ** 32;
    return seed / 2 ** 32;
  };
}

const HIGH = 2 ** 32;
const meets = (a: number, b: number) =>
  ((a % HIGH) & (b % HIGH)) !== 0 || (Math.floor(a / HIGH) & Math.floor(b / HIGH)) !== 0;

function bruteForce(
  places: Iterable<GridPlace>,
  lat: number,
  lon: number,
  radiusKm: number,
  mask: number,
  limit: number,
) {
  return nearestByScan(places, lat, lon, radiusKm, mask, limit);
}

function build(places: GridPlace[]): PlaceGrid {
  const columns = placeColumns(places.length);
  places.forEach((p, i) => {
    columns.id[i] = p.id;
    columns.lat[i] = p.lat;
    columns.lon[i] = p.lon;
    columns.categories[i] = p.categories;
  });
  const grid = new PlaceGrid();
  grid.build(columns);
  return grid;
}

/** Masks of one to three of the 34 categories, the two above 32 bits among them. */
const someMask = (next: () => number) => {
  let mask = 0;
  for (let k = 1 + Math.floor(next() * 3); k > 0; k--) {
    const bit = 2 ** Math.floor(next() * 34);
    if (!meets(mask, bit)) mask += bit;
  }
  return mask;
};

/** Places clustered around a few centres (cities), some exactly on top of each other, some at edges. */
function places(count: number, next: () => number, centres: [number, number][]): GridPlace[] {
  const list: GridPlace[] = [];
  for (let id = 1; id <= count; id++) {
    const [clat, clon] = centres[Math.floor(next() * centres.length)];
    const spread = next() < 0.7 ? 0.05 : 0.6;
    let lat = Math.max(-90, Math.min(90, clat + (next() - 0.5) * spread));
    let lon = clon + ((next() - 0.5) * spread) / Math.max(Math.cos((lat * Math.PI) / 180), 0.02);
    lon = ((((lon + 180) % 360) + 360) % 360) - 180;
    if (id % 97 === 0 && list.length > 0) ({ lat, lon } = list[list.length - 1]); // same point: ties by id
    if (id % 89 === 0) lat = Math.round(lat * 100) / 100; // on a cell's edge
    // two in three as OSM gives them, in whole 1e-7 degrees; the rest any number at all
    if (id % 3 !== 0) [lat, lon] = [Math.round(lat * 1e7) / 1e7, Math.round(lon * 1e7) / 1e7];
    list.push({ id: id * 3, lat, lon, categories: someMask(next) });
  }
  return list;
}

const CENTRES: [number, number][] = [
  [49.28, -123.12], // Vancouver
  [43.73, 7.42], // Monaco
  [-16.5, 179.98], // Fiji, across the antimeridian
  [89.95, 10], // by the North Pole
  [-89.97, -40], // by the South Pole
  [0, 0],
];

describe('PlaceGrid', () => {
  const next = random(7);
  const list = places(6000, next, CENTRES);
  const grid = build(list);

  it('holds every place once', () => {
    expect(grid.size).toBe(list.length);
    expect([...grid.places()].sort((a, b) => a.id - b.id)).toEqual([...list].sort((a, b) => a.id - b.id));
  });

  it('gives exactly what a full scan gives, at 1,500 searches around the world', () => {
    for (let i = 0; i < 1500; i++) {
      const [clat, clon] = CENTRES[i % CENTRES.length];
      const lat = Math.max(-90, Math.min(90, clat + (next() - 0.5) * 0.8));
      const lon = ((((clon + (next() - 0.5) * 1.6 + 180) % 360) + 360) % 360) - 180;
      const radiusKm = [0.05, 0.5, 2, 5, 50, 500][i % 6];
      const limit = [1, 12, 100, 500][Math.floor(next() * 4)];
      const mask = someMask(next);
      expect(
        grid.nearest(lat, lon, radiusKm, mask, limit),
        `${lat},${lon} r${radiusKm} mask ${mask} limit ${limit}`,
      ).toEqual(bruteForce(list, lat, lon, radiusKm, mask, limit));
    }
  });

  it('counts a place exactly at the radius in, and one a hair beyond out', () => {
    const single = build([{ id: 1, lat: 10, lon: 10, categories: 1 }]);
    const d = distanceKm(10.01, 10.02, 10, 10);
    expect(single.nearest(10.01, 10.02, d, 1, 5).ids).toEqual([1]);
    expect(single.nearest(10.01, 10.02, d * (1 - 1e-12), 1, 5).ids).toEqual([]);
  });

  it('follows places added, moved, re-filed and removed, and folds them in unchanged', () => {
    const live = new Map(list.map((p) => [p.id, p]));
    const changes = random(11);
    const check = (label: string) => {
      for (let i = 0; i < 200; i++) {
        const [clat, clon] = CENTRES[i % 2];
        const lat = clat + (changes() - 0.5) * 0.3;
        const lon = clon + (changes() - 0.5) * 0.3;
        const mask = someMask(changes);
        expect(grid.nearest(lat, lon, 5, mask, 50), label).toEqual(bruteForce(live.values(), lat, lon, 5, mask, 50));
      }
      expect(grid.size).toBe(live.size);
    };
    for (let k = 0; k < 3000; k++) {
      const roll = changes();
      const id = roll < 0.3 ? 100_000 + k : list[Math.floor(changes() * list.length)].id;
      if (roll > 0.85) {
        grid.remove(id);
        live.delete(id);
      } else {
        const [clat, clon] = CENTRES[k % 2];
        const place = {
          id,
          lat: clat + (changes() - 0.5) * 0.1,
          lon: clon + (changes() - 0.5) * 0.1,
          categories: k % 50 === 0 ? 0 : someMask(changes),
        };
        grid.upsert(place);
        if (place.categories === 0) live.delete(id);
        else live.set(id, place);
      }
    }
    check('with the overlay');
    grid.compact();
    check('after compacting');
  });

  it(`folds the overlay in by itself past ${OVERLAY_MAX.toLocaleString('en')} changes`, () => {
    const small = build([{ id: 1, lat: 0, lon: 0, categories: 1 }]);
    for (let id = 2; id <= OVERLAY_MAX + 2; id++)
      small.upsert({ id, lat: (id % 100) / 1000, lon: Math.floor(id / 100) / 1000, categories: 1 });
    expect(small.size).toBe(OVERLAY_MAX + 2);
    expect(small.nearest(0, 0, 1, 1, 3).ids).toEqual(bruteForce(small.places(), 0, 0, 1, 1, 3).ids);
    expect(small.get(OVERLAY_MAX + 2)).toEqual({
      id: OVERLAY_MAX + 2,
      lat: ((OVERLAY_MAX + 2) % 100) / 1000,
      lon: Math.floor((OVERLAY_MAX + 2) / 100) / 1000,
      categories: 1,
    });
  });

  it('keeps more than 65,536 different category masks apart', () => {
    const next = random(5);
    // every place its own mask: numbers from 1 to 70,000 use the low 17 category bits
    const many = Array.from({ length: 70_000 }, (_, i) => ({
      id: i + 1,
      lat: 49 + next() * 0.5,
      lon: -123 + next() * 0.5,
      categories: i + 1,
    }));
    const manyGrid = build(many);
    expect([...manyGrid.places()].sort((a, b) => a.id - b.id)).toEqual(many);
    for (let i = 0; i < 40; i++) {
      const [lat, lon, mask] = [
        49 + next() * 0.5,
        -123 + next() * 0.5,
        2 ** Math.floor(next() * 17) + (i % 2 ? 2 ** 33 : 0),
      ];
      expect(manyGrid.nearest(lat, lon, 5, mask, 50)).toEqual(bruteForce(many, lat, lon, 5, mask, 50));
    }
  });

  it('answers nothing from an empty grid, or for a limit of 0', () => {
    expect(new PlaceGrid().nearest(0, 0, 5, 1, 10)).toEqual({ ids: [], distances: [] });
    expect(grid.nearest(49.28, -123.12, 5, 2 ** 34 - 1, 0)).toEqual({ ids: [], distances: [] });
  });
});
