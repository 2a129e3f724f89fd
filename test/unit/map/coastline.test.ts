// An extract's coastline closed along the extract's box into land rings (which osmcoastline then
// surrounds with water), on small made-up coasts in the box 0..1 x 0..1: a cut mainland, chains
// that stop short of the edge, islands either way round, a bay, a coast with no way out, ways
// joined by their nodes and split where nodes are missing, and a long coast. The sea in the box
// is what the land rings leave of it.
import { describe, expect, it } from 'vitest';
import {
  assembleCoastline,
  landRings,
  signedArea,
  type Box,
  type CoastlineNode,
  type Point,
  type Ring,
} from '../../../src/map/coastline.js';

const BOX: Box = { west: 0, south: 0, east: 1, north: 1 };

/** How many times a ring winds around a point: +1 inside a counter-clockwise ring. */
function winding([x, y]: Point, ring: Ring): number {
  let wind = 0;
  for (let i = 1; i < ring.length; i++) {
    const [x1, y1] = ring[i - 1];
    const [x2, y2] = ring[i];
    const side = (x2 - x1) * (y - y1) - (x - x1) * (y2 - y1);
    if (y1 <= y && y2 > y && side > 0) wind++;
    else if (y1 > y && y2 <= y && side < 0) wind--;
  }
  return wind;
}

/** The sea in the box: its area (the box's less the land's) and what is sea. */
const seaArea = (land: Ring[]) => 1 - land.reduce((sum, ring) => sum + signedArea(ring) / 2, 0);
const isSea = (land: Ring[], point: Point) => land.reduce((sum, ring) => sum + winding(point, ring), 0) <= 0;
const square = (x: number, y: number, size: number): Point[] => [
  [x, y],
  [x + size, y],
  [x + size, y + size],
  [x, y + size],
  [x, y],
];
const land = (chains: Point[][], rings: Point[][] = []) => landRings({ chains, rings }, BOX);

describe('the coastline closed along the edge of the data', () => {
  it('leaves the sea the half of the box on the right of a mainland coast cut at both edges (land on the left)', () => {
    // Westward along y = 0.5: the land is to the south, the sea to the north.
    const { rings, dropped } = land([
      [
        [1.2, 0.5],
        [0.5, 0.5],
        [-0.2, 0.5],
      ],
    ]);
    expect(dropped).toBe(0);
    expect(rings).toHaveLength(1);
    expect(seaArea(rings)).toBeCloseTo(0.5, 9);
    expect(isSea(rings, [0.5, 0.9])).toBe(true);
    expect(isSea(rings, [0.5, 0.1])).toBe(false);
    // The ring is closed and runs counter-clockwise around the land, as coastline does.
    expect(rings[0].at(-1)).toEqual(rings[0][0]);
    expect(signedArea(rings[0])).toBeGreaterThan(0);
  });

  it('carries ends that stop short of the edge on in the heading of the coast', () => {
    // A coast cut 0.1 inside the box on both sides, running north-east: the sea to the south-east.
    const { rings, dropped } = land([
      [
        [0.1, 0.1],
        [0.5, 0.5],
        [0.8, 0.8],
      ],
    ]);
    expect(dropped).toBe(0);
    // Carried on along the diagonal to the corners: the triangle below it.
    expect(seaArea(rings)).toBeCloseTo(0.5, 5);
    expect(isSea(rings, [0.9, 0.1])).toBe(true);
    expect(isSea(rings, [0.1, 0.9])).toBe(false);
  });

  it('goes to the nearest edge instead where the heading would cross the coast', () => {
    // A headland: in from the west edge along y = 0.3, round a block and back heading south,
    // which would cross its own start. Carried to the nearest edge instead (the west one, along
    // y = 0.4), the land on the left is the headland and a strip along y = 0.3 to 0.4.
    const headland: Point[] = [
      [-0.5, 0.3],
      [0.6, 0.3],
      [0.6, 0.6],
      [0.4, 0.6],
      [0.4, 0.4],
    ];
    const { rings, dropped } = land([headland]);
    expect(dropped).toBe(0);
    expect(isSea(rings, [0.5, 0.45])).toBe(false);
    expect(isSea(rings, [0.2, 0.35])).toBe(false);
    expect(isSea(rings, [0.5, 0.1])).toBe(true);
    expect(isSea(rings, [0.5, 0.9])).toBe(true);
    expect(seaArea(rings)).toBeCloseTo(1 - 0.2 * 0.3 - 0.4 * 0.1, 5);
  });

  it('leaves out a chain whose end has no way out that does not cross the coast, and says so', () => {
    // The end sits in a pocket that another coast closes on every side it could head to.
    const wall: Point[] = [
      [1.2, 0.8],
      [0.3, 0.8],
      [0.3, 0.2],
      [1.2, 0.2],
    ];
    const pocket: Point[] = [
      [0.9, 0.5],
      [0.5, 0.5],
    ];
    expect(land([wall, pocket]).dropped).toBe(1);
  });

  it('joins an end near the edge straight to it, and leaves out a piece that then contradicts the rest', () => {
    // Like Monaco's west end: a coast cut just inside the south edge (within ~100 m), which first
    // dips out of the box and back before it runs north-east. Joined straight down to the edge,
    // its tip would close round the back of the coast: the tip goes, the rest is the coast.
    const coast: Point[] = [
      [0.3, 0.0005],
      [0.28, 0.0005],
      [0.28, -0.02],
      [0.4, -0.01],
      [1.2, 0.8],
    ];
    const { rings, dropped } = land([coast]);
    expect(dropped).toBe(1);
    expect(isSea(rings, [0.9, 0.1])).toBe(true);
    expect(isSea(rings, [0.1, 0.5])).toBe(false);
    expect(isSea(rings, [0.1, 0.0002])).toBe(false);
    const entry = 0.4 + (0.8 * 0.01) / 0.81;
    expect(seaArea(rings)).toBeCloseTo(0.5 * (1 - entry) * (-0.01 + (0.81 * (1 - 0.4)) / 0.8), 6);
  });

  it('keeps an island in the sea around it as land, whichever way it was drawn', () => {
    for (const island of [square(0.4, 0.4, 0.2), square(0.4, 0.4, 0.2).reverse()]) {
      const { rings } = land([], [island]);
      expect(rings).toHaveLength(1);
      expect(signedArea(rings[0])).toBeGreaterThan(0);
      expect(seaArea(rings)).toBeCloseTo(1 - 0.04, 9);
      expect(isSea(rings, [0.5, 0.5])).toBe(false);
      expect(isSea(rings, [0.1, 0.1])).toBe(true);
    }
  });

  it('puts an island off a mainland coast into the sea beside it', () => {
    const { rings } = land(
      [
        [
          [-0.2, 0.5],
          [1.2, 0.5],
        ],
      ],
      [square(0.4, 0.1, 0.2)],
    );
    expect(rings).toHaveLength(2);
    expect(seaArea(rings)).toBeCloseTo(0.5 - 0.04, 9);
    expect(isSea(rings, [0.5, 0.2])).toBe(false);
    expect(isSea(rings, [0.1, 0.2])).toBe(true);
  });

  it('closes a bay that comes in and goes out through the same edge', () => {
    // In through the east edge at y = 0.4, round to x = 0.5 and out at y = 0.6: the land on the
    // left is all around the bay.
    const { rings } = land([
      [
        [1.2, 0.4],
        [0.5, 0.4],
        [0.5, 0.6],
        [1.2, 0.6],
      ],
    ]);
    expect(seaArea(rings)).toBeCloseTo(0.5 * 0.2, 9);
    expect(isSea(rings, [0.8, 0.5])).toBe(true);
    expect(isSea(rings, [0.2, 0.5])).toBe(false);
  });

  it('keeps an island that the box cuts, and several coasts crossing it', () => {
    // An island astride the east edge, and a mainland to the south.
    const island = square(0.9, 0.4, 0.2);
    const { rings } = land(
      [
        [
          [1.2, 0.2],
          [-0.2, 0.2],
        ],
      ],
      [island],
    );
    expect(seaArea(rings)).toBeCloseTo(0.8 - 0.1 * 0.2, 9);
    expect(isSea(rings, [0.95, 0.5])).toBe(false);
    expect(isSea(rings, [0.85, 0.5])).toBe(true);
    expect(isSea(rings, [0.5, 0.1])).toBe(false);
  });

  it('makes no land rings in a box with no coastline, or whose coast lies outside it (no sea is drawn there)', () => {
    expect(land([]).rings).toEqual([]);
    expect(
      land([
        [
          [2, 2],
          [3, 3],
        ],
      ]).rings,
    ).toEqual([]);
  });

  it('closes a long coast of 5,000 points as it runs', () => {
    // A zigzag coast across the box, land to the south.
    const zigzag: Point[] = Array.from({ length: 5000 }, (_, i) => [
      -0.1 + (1.2 * i) / 4999,
      0.3 + (i % 2 ? 0.01 : -0.01),
    ]);
    const { rings } = land([zigzag.reverse()]);
    expect(rings).toHaveLength(1);
    for (let x = 0.05; x < 1; x += 0.1) {
      expect(isSea(rings, [x, 0.8])).toBe(true);
      expect(isSea(rings, [x, 0.1])).toBe(false);
    }
  });
});

describe('coastline ways joined into chains and rings', () => {
  const node = (id: number, x: number, y: number): CoastlineNode => ({ id: String(id), at: [x, y] });
  const missing = (id: number): CoastlineNode => ({ id: String(id), at: null });

  it('joins ways end to start in whatever order they come, and closes rings', () => {
    const coast = assembleCoastline([
      [node(3, 2, 0), node(4, 3, 0)],
      [node(1, 0, 0), node(2, 1, 0)],
      [node(2, 1, 0), node(3, 2, 0)],
      // an island of two ways
      [node(10, 0, 1), node(11, 1, 1), node(12, 1, 2)],
      [node(12, 1, 2), node(10, 0, 1)],
    ]);
    expect(coast.chains).toEqual([
      [
        [0, 0],
        [1, 0],
        [2, 0],
        [3, 0],
      ],
    ]);
    expect(coast.rings).toHaveLength(1);
    expect(coast.rings[0]).toHaveLength(4);
  });

  it('splits a way where the extract lacks its nodes, rather than draw a line across the gap', () => {
    const coast = assembleCoastline([
      [node(1, 0, 0), node(2, 1, 0), missing(3), missing(4), node(5, 4, 0), node(6, 5, 0), missing(7)],
    ]);
    expect(coast.chains).toEqual([
      [
        [0, 0],
        [1, 0],
      ],
      [
        [4, 0],
        [5, 0],
      ],
    ]);
  });
});
