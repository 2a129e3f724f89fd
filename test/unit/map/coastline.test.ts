// The sea from an extract's coastline, closed along the extract's box, on small made-up coasts in
// the box 0..1 x 0..1: a cut mainland, chains that stop short of the edge, islands either way
// round, a bay, a coast with no way out, ways joined by their nodes and split where nodes are
// missing, and a long coast cut into pieces tilemaker can clip.
import { describe, expect, it } from 'vitest';
import {
  assembleCoastline,
  closeAlongBox,
  insideArea,
  MAX_POLYGON_POINTS,
  seaPolygons,
  signedArea,
  type Box,
  type CoastlineNode,
  type Point,
  type Polygon,
} from '../../../src/map/coastline.js';

const BOX: Box = { west: 0, south: 0, east: 1, north: 1 };
/** The area of polygons: outer rings count, holes take away. */
const area = (polygons: Polygon[]) => polygons.flat().reduce((sum, ring) => sum + signedArea(ring) / 2, 0);
const isSea = (polygons: Polygon[], point: Point) => insideArea(point, polygons.flat());
const square = (x: number, y: number, size: number): Point[] => [
  [x, y],
  [x + size, y],
  [x + size, y + size],
  [x, y + size],
  [x, y],
];
const sea = (chains: Point[][], rings: Point[][] = []) => seaPolygons({ chains, rings }, BOX);

describe('the sea closed along the edge of the data', () => {
  it('is the half of the box on the right of a mainland coast cut at both edges (land on the left)', () => {
    // Westward along y = 0.5: the land is to the south, the sea to the north.
    const { polygons, dropped } = sea([
      [
        [1.2, 0.5],
        [0.5, 0.5],
        [-0.2, 0.5],
      ],
    ]);
    expect(dropped).toBe(0);
    expect(polygons).toHaveLength(1);
    expect(area(polygons)).toBeCloseTo(0.5, 9);
    expect(isSea(polygons, [0.5, 0.9])).toBe(true);
    expect(isSea(polygons, [0.5, 0.1])).toBe(false);
    // Every ring is closed and runs counter-clockwise around the sea.
    for (const ring of polygons[0]) expect(ring.at(-1)).toEqual(ring[0]);
    expect(signedArea(polygons[0][0])).toBeGreaterThan(0);
  });

  it('carries ends that stop short of the edge on in the heading of the coast', () => {
    // A coast cut 0.1 inside the box on both sides, running north-east: the sea to the south-east.
    const { polygons, dropped } = sea([
      [
        [0.1, 0.1],
        [0.5, 0.5],
        [0.8, 0.8],
      ],
    ]);
    expect(dropped).toBe(0);
    // Carried on along the diagonal to the corners: the triangle below it.
    expect(area(polygons)).toBeCloseTo(0.5, 5);
    expect(isSea(polygons, [0.9, 0.1])).toBe(true);
    expect(isSea(polygons, [0.1, 0.9])).toBe(false);
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
    const { polygons, dropped } = sea([headland]);
    expect(dropped).toBe(0);
    expect(isSea(polygons, [0.5, 0.45])).toBe(false);
    expect(isSea(polygons, [0.2, 0.35])).toBe(false);
    expect(isSea(polygons, [0.5, 0.1])).toBe(true);
    expect(isSea(polygons, [0.5, 0.9])).toBe(true);
    expect(area(polygons)).toBeCloseTo(1 - 0.2 * 0.3 - 0.4 * 0.1, 5);
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
    expect(sea([wall, pocket]).dropped).toBe(1);
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
    const { polygons, dropped } = sea([coast]);
    expect(dropped).toBe(1);
    expect(isSea(polygons, [0.9, 0.1])).toBe(true);
    expect(isSea(polygons, [0.1, 0.5])).toBe(false);
    expect(isSea(polygons, [0.1, 0.0002])).toBe(false);
    const entry = 0.4 + (0.8 * 0.01) / 0.81;
    expect(area(polygons)).toBeCloseTo(0.5 * (1 - entry) * (-0.01 + (0.81 * (1 - 0.4)) / 0.8), 6);
  });

  it('makes an island a hole in the sea around it, whichever way it was drawn', () => {
    for (const island of [square(0.4, 0.4, 0.2), square(0.4, 0.4, 0.2).reverse()]) {
      const { polygons } = sea([], [island]);
      expect(polygons).toHaveLength(1);
      expect(polygons[0]).toHaveLength(2);
      expect(area(polygons)).toBeCloseTo(1 - 0.04, 9);
      expect(isSea(polygons, [0.5, 0.5])).toBe(false);
      expect(isSea(polygons, [0.1, 0.1])).toBe(true);
    }
  });

  it('puts an island off a mainland coast into the sea beside it', () => {
    const { polygons } = sea(
      [
        [
          [-0.2, 0.5],
          [1.2, 0.5],
        ],
      ],
      [square(0.4, 0.1, 0.2)],
    );
    expect(polygons).toHaveLength(1);
    expect(area(polygons)).toBeCloseTo(0.5 - 0.04, 9);
    expect(isSea(polygons, [0.5, 0.2])).toBe(false);
    expect(isSea(polygons, [0.1, 0.2])).toBe(true);
  });

  it('closes a bay that comes in and goes out through the same edge', () => {
    // In through the east edge at y = 0.4, round to x = 0.5 and out at y = 0.6: the land on the
    // left is all around the bay.
    const { polygons } = sea([
      [
        [1.2, 0.4],
        [0.5, 0.4],
        [0.5, 0.6],
        [1.2, 0.6],
      ],
    ]);
    expect(area(polygons)).toBeCloseTo(0.5 * 0.2, 9);
    expect(isSea(polygons, [0.8, 0.5])).toBe(true);
    expect(isSea(polygons, [0.2, 0.5])).toBe(false);
  });

  it('keeps an island that the box cuts, and several coasts crossing it', () => {
    // An island astride the east edge, and a mainland to the south.
    const island = square(0.9, 0.4, 0.2);
    const { polygons } = sea(
      [
        [
          [1.2, 0.2],
          [-0.2, 0.2],
        ],
      ],
      [island],
    );
    expect(area(polygons)).toBeCloseTo(0.8 - 0.1 * 0.2, 9);
    expect(isSea(polygons, [0.95, 0.5])).toBe(false);
    expect(isSea(polygons, [0.85, 0.5])).toBe(true);
    expect(isSea(polygons, [0.5, 0.1])).toBe(false);
  });

  it('draws no sea in a box with no coastline, or whose coast lies outside it', () => {
    expect(sea([]).polygons).toEqual([]);
    expect(
      sea([
        [
          [2, 2],
          [3, 3],
        ],
      ]).polygons,
    ).toEqual([]);
  });

  it('cuts a long coast into pieces of at most a few thousand points that cover the same sea', () => {
    // A zigzag coast of 5,000 points across the box, land to the south.
    const zigzag: Point[] = Array.from({ length: 5000 }, (_, i) => [
      -0.1 + (1.2 * i) / 4999,
      0.3 + (i % 2 ? 0.01 : -0.01),
    ]);
    const { polygons } = sea([zigzag.reverse()]);
    expect(polygons.length).toBeGreaterThan(1);
    for (const polygon of polygons) expect(polygon.flat().length).toBeLessThanOrEqual(MAX_POLYGON_POINTS + 10);
    for (let x = 0.05; x < 1; x += 0.1) {
      expect(isSea(polygons, [x, 0.8])).toBe(true);
      expect(isSea(polygons, [x, 0.1])).toBe(false);
    }
  });
});

describe('the area on the left of lines in a box', () => {
  it('is the whole box when nothing crosses it and it is inside, with the holes inside it', () => {
    const polygons = closeAlongBox([square(0.4, 0.4, 0.2).reverse()], BOX, true);
    expect(area(polygons)).toBeCloseTo(0.96, 9);
    expect(closeAlongBox([], BOX, false)).toEqual([]);
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
