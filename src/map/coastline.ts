// The sea from an extract's own coastline. OpenStreetMap draws the coastline as ways with the land
// on their left. An extract cuts them where its data ends, so they do not close, and the usual
// tools (osmcoastline) then drop them. Here they are closed along a rectangle that covers the
// extract (mkgmap's way of generating the sea): the chains, turned around so that the water is on
// their left, are clipped to the rectangle; from where one leaves it the rectangle's edge is
// followed counter-clockwise to where the next one enters; closed rings inside are islands.
// Plain planar geometry on longitude and latitude: the rectangle and the polygons are the same
// straight lines in that plane that a shapefile in WGS84 holds.

export type Point = [lon: number, lat: number];
/** Closed: the last point repeats the first. */
export type Ring = Point[];
/** An outer ring (counter-clockwise) followed by its holes (clockwise). */
export type Polygon = Ring[];
export interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}
/** A coastline way's node: its location, or null where the extract lacks the node. */
export interface CoastlineNode {
  id: string;
  at: Point | null;
}

export interface Coastline {
  /** closed rings: islands (land inside) */
  rings: Ring[];
  /** open chains, land on their left */
  chains: Point[][];
}

/**
 * How far back along a chain its heading at an open end is measured, and how near the edge an end
 * is joined straight to it (degrees, about 100 m).
 */
const HEADING_SPAN = 0.001;
/** How far beyond a rectangle lines are carried or cut, so that they cross its edge cleanly. */
const MARGIN = 1e-6;
/**
 * How far the quarters of a split polygon overlap (degrees, about 10 m): drawn side by side
 * without it, two polygons leave a faint seam where their anti-aliased edges meet.
 */
const OVERLAP = 1e-4;
/** A water polygon with more points than this is cut in four (tilemaker clips it for every tile). */
export const MAX_POLYGON_POINTS = 2000;
const MAX_SPLIT_DEPTH = 10;

const same = (a: Point, b: Point) => a[0] === b[0] && a[1] === b[1];
const grow = (box: Box, by: number): Box => ({
  west: box.west - by,
  south: box.south - by,
  east: box.east + by,
  north: box.north + by,
});
const strictlyInside = (box: Box, [x, y]: Point) => x > box.west && x < box.east && y > box.south && y < box.north;

/** Twice the signed area: positive for a counter-clockwise ring. */
export function signedArea(ring: Ring): number {
  let sum = 0;
  for (let i = 1; i < ring.length; i++) sum += ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1];
  return sum;
}

/** How many times a ring winds around a point: +1 inside a counter-clockwise ring, -1 inside a clockwise one. */
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

/** Whether a point is inside the area that rings (outer counter-clockwise, holes clockwise) bound. */
export function insideArea(point: Point, rings: Ring[]): boolean {
  return rings.reduce((sum, ring) => sum + winding(point, ring), 0) > 0;
}

/**
 * Joins coastline ways end to start into chains and closed rings. A way is split where the
 * extract lacks its nodes (an extract cut by a rectangle keeps the ways that leave it, without
 * their outside nodes): a straight line between the two sides of the gap could cut across land.
 */
export function assembleCoastline(ways: CoastlineNode[][]): Coastline {
  const segments: CoastlineNode[][] = [];
  for (const way of ways) {
    let run: CoastlineNode[] = [];
    for (const node of [...way, { id: '', at: null }]) {
      if (node.at) run.push(node);
      else {
        if (run.length >= 2) segments.push(run);
        run = [];
      }
    }
  }
  const byStart = new Map<string, number[]>();
  segments.forEach((segment, i) => byStart.set(segment[0].id, [...(byStart.get(segment[0].id) ?? []), i]));
  const ends = new Set(segments.map((segment) => segment.at(-1)!.id));
  // Chains are followed from their first way: the segments nothing leads to come first.
  const order = segments
    .map((_, i) => i)
    .sort((a, b) => Number(ends.has(segments[a][0].id)) - Number(ends.has(segments[b][0].id)));
  const used = new Set<number>();
  const coastline: Coastline = { rings: [], chains: [] };
  for (const first of order) {
    if (used.has(first)) continue;
    used.add(first);
    const nodes = [...segments[first]];
    let closed = false;
    for (;;) {
      const last = nodes.at(-1)!.id;
      if (last === nodes[0].id) {
        closed = true;
        break;
      }
      const next = byStart.get(last)?.find((i) => !used.has(i));
      if (next === undefined) break;
      used.add(next);
      nodes.push(...segments[next].slice(1));
    }
    const points = nodes.map((node) => node.at!);
    if (closed && points.length >= 4) coastline.rings.push(points);
    else if (!closed) coastline.chains.push(points);
  }
  return coastline;
}

const cross = (ax: number, ay: number, bx: number, by: number) => ax * by - ay * bx;

/**
 * Whether segment a-b meets segment c-d anywhere but at a itself (where a chain's last segment
 * and its way out join), running along it included.
 */
function meets(a: Point, b: Point, c: Point, d: Point): boolean {
  const [rx, ry] = [b[0] - a[0], b[1] - a[1]];
  const [sx, sy] = [d[0] - c[0], d[1] - c[1]];
  const [qx, qy] = [c[0] - a[0], c[1] - a[1]];
  const denominator = cross(rx, ry, sx, sy);
  const tiny = 1e-12;
  if (Math.abs(denominator) <= tiny * Math.hypot(rx, ry) * Math.hypot(sx, sy)) {
    // Parallel: they meet only if on one line and overlapping beyond a.
    if (Math.abs(cross(qx, qy, rx, ry)) > tiny * Math.hypot(rx, ry) * Math.hypot(qx, qy)) return false;
    const length = rx * rx + ry * ry;
    const [tc, td] = [(qx * rx + qy * ry) / length, ((d[0] - a[0]) * rx + (d[1] - a[1]) * ry) / length];
    return Math.max(tc, td) > tiny && Math.min(tc, td) <= 1;
  }
  const t = cross(qx, qy, sx, sy) / denominator;
  const u = cross(qx, qy, rx, ry) / denominator;
  return t > tiny && t <= 1 && u >= 0 && u <= 1;
}

/** Where a ray from `from` heading (dx, dy) leaves a box. */
function exitPoint(from: Point, dx: number, dy: number, box: Box): Point {
  const ts = [
    dx > 0 ? (box.east - from[0]) / dx : dx < 0 ? (box.west - from[0]) / dx : Infinity,
    dy > 0 ? (box.north - from[1]) / dy : dy < 0 ? (box.south - from[1]) / dy : Infinity,
  ];
  const t = Math.min(...ts);
  return [from[0] + dx * t, from[1] + dy * t];
}

/** The points of a box's edge straight across from a point inside it, nearest first. */
function edgePointsFrom([x, y]: Point, box: Box): Point[] {
  const options: [number, Point][] = [
    [x - box.west, [box.west, y]],
    [box.east - x, [box.east, y]],
    [y - box.south, [x, box.south]],
    [box.north - y, [x, box.north]],
  ];
  return options.sort((p, q) => p[0] - q[0]).map(([, point]) => point);
}

/**
 * The line that carries an open end of a chain out to the rectangle's edge, or null when every
 * way out meets the coastline. `chain` runs towards the end (reversed for a first point). An end
 * within ~100 m of the edge goes straight to it; one further in is carried on straight in the
 * chain's heading over its last ~100 m, which continues the cut coast into the land or sea beyond
 * the data. Where that line would meet the coastline, the next way out is tried: the nearest
 * edge, then the others.
 */
function extensionOf(chain: Point[], box: Box, segments: [Point, Point][]): Point | null {
  const end = chain.at(-1)!;
  let back = chain.length - 2;
  while (back > 0 && Math.hypot(end[0] - chain[back][0], end[1] - chain[back][1]) < HEADING_SPAN) back--;
  const dx = end[0] - chain[back][0];
  const dy = end[1] - chain[back][1];
  const outside = grow(box, MARGIN);
  const edges = edgePointsFrom(end, outside);
  const heading = dx || dy ? [exitPoint(end, dx, dy, outside)] : [];
  const near = Math.hypot(edges[0][0] - end[0], edges[0][1] - end[1]) <= HEADING_SPAN;
  const candidates = near ? [...edges, ...heading] : [...heading, ...edges];
  return candidates.find((to) => !segments.some(([c, d]) => meets(end, to, c, d))) ?? null;
}

/**
 * Carries every open end that stops inside the box out to its edge (see extensionOf); chains
 * whose ends cannot get out without crossing the coastline (or another end's way out) are left
 * out, and counted.
 */
function extendChains(coastline: Coastline, box: Box): { chains: Point[][]; dropped: number } {
  const segments: [Point, Point][] = [];
  for (const line of [...coastline.chains, ...coastline.rings])
    for (let i = 1; i < line.length; i++) segments.push([line[i - 1], line[i]]);
  const chains: Point[][] = [];
  let dropped = 0;
  for (const chain of coastline.chains) {
    const first = chain[0];
    const last = chain.at(-1)!;
    const start = strictlyInside(box, first) ? extensionOf([...chain].reverse(), box, segments) : first;
    const end = strictlyInside(box, last) ? extensionOf(chain, box, segments) : last;
    if (!start || !end) {
      dropped++;
      continue;
    }
    if (start !== first) segments.push([start, first]);
    if (end !== last) segments.push([last, end]);
    chains.push([...(start === first ? [] : [start]), ...chain, ...(end === last ? [] : [end])]);
  }
  return { chains, dropped };
}

/** Liang-Barsky: the part [t0, t1] of segment a-b inside the box, or null. */
function clipSegment(a: Point, b: Point, box: Box): [number, number] | null {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  let t0 = 0;
  let t1 = 1;
  const edge = (p: number, q: number) => {
    if (p === 0) return q >= 0;
    const t = q / p;
    if (p < 0) t0 = Math.max(t0, t);
    else t1 = Math.min(t1, t);
    return true;
  };
  if (
    !edge(-dx, a[0] - box.west) ||
    !edge(dx, box.east - a[0]) ||
    !edge(-dy, a[1] - box.south) ||
    !edge(dy, box.north - a[1])
  )
    return null;
  return t0 <= t1 ? [t0, t1] : null;
}

const lerp = (a: Point, b: Point, t: number): Point =>
  t === 0 ? a : t === 1 ? b : [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];

/** Lines clipped to a box: the pieces that cross it (each from its edge to its edge) and the closed rings wholly inside. */
interface Clipped {
  pieces: Point[][];
  rings: Ring[];
}

/** Clips lines to a box. Open lines must start and end outside it. */
function clipLines(lines: Point[][], box: Box): Clipped {
  const pieces: Point[][] = [];
  const rings: Ring[] = [];
  for (let line of lines) {
    // Most lines (islands above all) lie wholly on one side of a box's edge, or wholly inside.
    let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const [x, y] of line) {
      if (x < west) west = x;
      if (x > east) east = x;
      if (y < south) south = y;
      if (y > north) north = y;
    }
    if (east < box.west || west > box.east || north < box.south || south > box.north) continue;
    if (same(line[0], line.at(-1)!)) {
      const outside = line.findIndex((point) => !strictlyInside(box, point));
      if (outside < 0) {
        rings.push(line);
        continue;
      }
      // A ring that crosses the edge is cut from a point outside, so that no piece wraps around.
      line = [...line.slice(outside, -1), ...line.slice(0, outside + 1)];
    }
    let piece: Point[] | null = null;
    for (let i = 1; i < line.length; i++) {
      const span = clipSegment(line[i - 1], line[i], box);
      if (!span) {
        if (piece) pieces.push(piece);
        piece = null;
        continue;
      }
      const [t0, t1] = span;
      if (t0 > 0 || !piece) {
        if (piece) pieces.push(piece);
        piece = [lerp(line[i - 1], line[i], t0)];
      }
      piece.push(lerp(line[i - 1], line[i], t1));
      if (t1 < 1) {
        pieces.push(piece);
        piece = null;
      }
    }
    if (piece) pieces.push(piece);
  }
  return { pieces: pieces.filter((piece) => piece.length >= 2 && !same(piece[0], piece.at(-1)!)), rings };
}

/** A point's place along the box's edge, counter-clockwise from the south-west corner. */
function perimeterAt([x, y]: Point, box: Box): number {
  const width = box.east - box.west;
  const height = box.north - box.south;
  const sides: [number, number][] = [
    [Math.abs(y - box.south), x - box.west],
    [Math.abs(x - box.east), width + (y - box.south)],
    [Math.abs(y - box.north), width + height + (box.east - x)],
    [Math.abs(x - box.west), 2 * width + height + (box.north - y)],
  ];
  return sides.reduce((best, side) => (side[0] < best[0] ? side : best))[1];
}

/**
 * The polygons of the area on the left of `lines` inside a box: lines that cross the box are
 * joined along its edge, counter-clockwise; closed rings inside are outer rings (counter-clockwise)
 * or holes (clockwise). A box no line crosses is inside the area or not as `insideWhenUncrossed`.
 */
export function closeAlongBox(lines: Point[][], box: Box, insideWhenUncrossed: boolean): Polygon[] {
  return closeClipped(clipLines(lines, box), box, insideWhenUncrossed);
}

function closeClipped({ pieces, rings }: Clipped, box: Box, insideWhenUncrossed: boolean): Polygon[] {
  const width = box.east - box.west;
  const height = box.north - box.south;
  const perimeter = 2 * (width + height);
  const corners: [number, Point][] = [
    [0, [box.west, box.south]],
    [width, [box.east, box.south]],
    [width + height, [box.east, box.north]],
    [2 * width + height, [box.west, box.north]],
  ];
  const starts = pieces.map((piece) => perimeterAt(piece[0], box));
  const used = new Set<number>();
  const outers: Ring[] = [];
  const holes: Ring[] = [];
  for (let first = 0; first < pieces.length; first++) {
    if (used.has(first)) continue;
    used.add(first);
    const ring = [...pieces[first]];
    let current = first;
    for (let guard = 0; guard <= pieces.length; guard++) {
      const from = perimeterAt(pieces[current].at(-1)!, box);
      let next = first;
      let nearest = Infinity;
      pieces.forEach((_, i) => {
        if (used.has(i) && i !== first) return;
        const distance = (starts[i] - from + perimeter) % perimeter;
        if (distance < nearest) [next, nearest] = [i, distance];
      });
      for (const [at, corner] of [
        ...corners,
        ...corners.map(([at, point]): [number, Point] => [at + perimeter, point]),
      ]) {
        const ahead = at - from;
        if (ahead > 0 && ahead < nearest) ring.push(corner);
      }
      if (next === first) break;
      used.add(next);
      ring.push(...pieces[next]);
      current = next;
    }
    ring.push(ring[0]);
    outers.push(ring);
  }
  for (const ring of rings) (signedArea(ring) > 0 ? outers : holes).push(ring);
  if (!pieces.length && insideWhenUncrossed) outers.push([...corners.map(([, point]) => point), corners[0][1]]);

  // Each hole goes to the smallest outer ring around it; one inside none is in no area.
  const polygons: Polygon[] = outers.map((ring) => [ring]);
  const areas = outers.map((ring) => signedArea(ring));
  for (const hole of holes) {
    let owner = -1;
    outers.forEach((ring, i) => {
      if (winding(hole[0], ring) !== 0 && (owner < 0 || areas[i] < areas[owner])) owner = i;
    });
    if (owner >= 0) polygons[owner].push(hole);
  }
  return polygons;
}

/**
 * Whether a point of the box is inside the area on the left of the clipped lines, without closing
 * them: along the box's edge the area lies after each piece's end (counter-clockwise) and stops at
 * the next piece's start, as closeClipped joins them; from the edge point straight below the
 * point, every line crossed on the way up flips it.
 */
function insideAt([x, y]: Point, { pieces, rings }: Clipped, box: Box, insideWhenUncrossed: boolean): boolean {
  const below: Point = [x, box.south];
  let inside = insideWhenUncrossed;
  if (pieces.length) {
    const width = box.east - box.west;
    const perimeter = 2 * (width + box.north - box.south);
    const at = perimeterAt(below, box);
    let nearest = Infinity;
    for (const piece of pieces) {
      for (const [point, isEnd] of [
        [piece[0], false],
        [piece.at(-1)!, true],
      ] as [Point, boolean][]) {
        const behind = (at - perimeterAt(point, box) + perimeter) % perimeter;
        if (behind < nearest) [nearest, inside] = [behind, isEnd];
      }
    }
  }
  for (const line of [...pieces, ...rings]) {
    for (let i = 1; i < line.length; i++) {
      const [x1, y1] = line[i - 1];
      const [x2, y2] = line[i];
      // A crossing of the vertical from the edge up to the point (half-open, so a vertex counts once).
      if (x1 <= x === x2 <= x) continue;
      const crossingY = y1 + ((x - x1) * (y2 - y1)) / (x2 - x1);
      if (crossingY < y) inside = !inside;
    }
  }
  return inside;
}

const pointCount = (lines: Point[][]) => lines.reduce((sum, line) => sum + line.length, 0);

/**
 * The area on the left of `lines` in a box, as polygons of at most ~MAX_POLYGON_POINTS points:
 * a box holding more is cut into quarters first, and only the quarters are closed.
 */
function areaIn(lines: Point[][], box: Box, insideWhenUncrossed: boolean, depth: number): Polygon[] {
  const clipped = clipLines(lines, box);
  if (pointCount(clipped.pieces) + pointCount(clipped.rings) <= MAX_POLYGON_POINTS || depth >= MAX_SPLIT_DEPTH) {
    return closeClipped(clipped, box, insideWhenUncrossed);
  }
  const midX = (box.west + box.east) / 2;
  const midY = (box.south + box.north) / 2;
  const quarters: Box[] = [
    { west: box.west, south: box.south, east: midX + OVERLAP, north: midY + OVERLAP },
    { west: midX - OVERLAP, south: box.south, east: box.east, north: midY + OVERLAP },
    { west: box.west, south: midY - OVERLAP, east: midX + OVERLAP, north: box.north },
    { west: midX - OVERLAP, south: midY - OVERLAP, east: box.east, north: box.north },
  ];
  const within = [...clipped.pieces, ...clipped.rings];
  return quarters.flatMap((quarter) => {
    // A point just inside the quarter's corner tells what a quarter no line crosses is.
    const corner: Point = [quarter.west + MARGIN, quarter.south + MARGIN];
    const inside = insideAt(corner, clipped, box, insideWhenUncrossed);
    // The lines cut a little wider than the quarter, so that their ends lie outside it.
    const { pieces, rings } = clipLines(within, grow(quarter, MARGIN));
    return areaIn([...pieces, ...rings], quarter, inside, depth + 1);
  });
}

export interface Sea {
  polygons: Polygon[];
  /** pieces of coastline left out: cut ends with no way to the edge, or contradicting the rest */
  dropped: number;
}

/** The sea inside a box from an extract's coastline, as polygons of at most ~MAX_POLYGON_POINTS points. */
export function seaPolygons(coastline: Coastline, box: Box): Sea {
  const extended = extendChains(coastline, box);
  // Islands are land on the left, whichever way they were drawn.
  const islands = coastline.rings.map((ring) => (signedArea(ring) < 0 ? [...ring].reverse() : ring));
  // Turned around, every line has the sea on its left.
  const clipped = clipLines(
    [...extended.chains, ...islands].map((line) => [...line].reverse()),
    box,
  );
  const { pieces, dropped } = withoutContradictions(clipped.pieces, box);
  // A box no chain crosses is land (inland, or a coast beyond the data) unless an island lies in it.
  const islandInside = islands.some((ring) => ring.every((point) => strictlyInside(box, point)));
  return { polygons: areaIn([...pieces, ...clipped.rings], box, islandInside, 0), dropped: extended.dropped + dropped };
}

/**
 * The pieces, less those that contradict the others. Along the box's edge, counter-clockwise, the
 * sea lies from a piece's end to the next piece's start and the land from a start to the next
 * end, so ends and starts must take turns. Two ends (or two starts) in a row mean a cut coast
 * carried to the edge round the back of another (a coast that leaves the box and comes back):
 * the shorter piece of the two goes, until they take turns.
 */
function withoutContradictions(pieces: Point[][], box: Box): { pieces: Point[][]; dropped: number } {
  const length = (piece: Point[]) =>
    piece.reduce(
      (sum, point, i) => (i ? sum + Math.hypot(point[0] - piece[i - 1][0], point[1] - piece[i - 1][1]) : 0),
      0,
    );
  let kept = [...pieces];
  let dropped = 0;
  for (;;) {
    const events = kept
      .flatMap((piece) => [
        { at: perimeterAt(piece[0], box), end: false, piece },
        { at: perimeterAt(piece.at(-1)!, box), end: true, piece },
      ])
      .sort((a, b) => a.at - b.at);
    const clash = events.findIndex((event, i) => event.end === events[(i + 1) % events.length].end);
    if (clash < 0 || events.length < 2) return { pieces: kept, dropped };
    const [a, b] = [events[clash].piece, events[(clash + 1) % events.length].piece];
    const shorter = length(a) <= length(b) ? a : b;
    kept = kept.filter((piece) => piece !== shorter);
    dropped++;
  }
}
