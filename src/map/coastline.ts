// The coastline of an extract, closed along the extract's box. OpenStreetMap draws the coastline as
// ways with the land on their left; osmcoastline assembles them into land polygons and writes the
// water polygons around them, but an extract cuts the ways where its data ends, and osmcoastline
// closes such a chain with a straight line between its ends (on an extract that is a polygon across
// land and sea, usually self-crossing, which it then drops). Here each cut chain is carried to the
// box's edge and closed along it (mkgmap's way of generating the sea): from where a chain leaves
// the box, the edge is followed counter-clockwise to where the next one enters. The closed rings
// are the land inside the box, given to osmcoastline as coastline.
// Plain planar geometry on longitude and latitude: the box and the rings are the same straight
// lines in that plane that osmcoastline's WGS84 output holds.

export type Point = [lon: number, lat: number];
/** Closed: the last point repeats the first. */
export type Ring = Point[];
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
 * Clipped lines closed along the box's edge: from where a piece leaves the box, the edge is
 * followed counter-clockwise (past its corners) to where the next piece enters, until the ring
 * closes. With the land on the pieces' left, the rings are the land, counter-clockwise.
 */
function closeAlongEdge(pieces: Point[][], box: Box): Ring[] {
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
  const rings: Ring[] = [];
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
    rings.push(ring);
  }
  return rings;
}

export interface Land {
  /** closed rings, land on their left (counter-clockwise), each inside the box */
  rings: Ring[];
  /** pieces of coastline left out: cut ends with no way to the edge, or contradicting the rest */
  dropped: number;
}

/**
 * The land inside a box as closed coastline rings: the cut chains carried to the box's edge and
 * closed along it, the islands inside it as they are (turned counter-clockwise, as the coastline
 * of an island should be). No rings where no coast reaches into the box.
 */
export function landRings(coastline: Coastline, box: Box): Land {
  const extended = extendChains(coastline, box);
  const islands = coastline.rings.map((ring) => (signedArea(ring) < 0 ? [...ring].reverse() : ring));
  const clipped = clipLines([...extended.chains, ...islands], box);
  const { pieces, dropped } = withoutContradictions(clipped.pieces, box);
  return { rings: [...closeAlongEdge(pieces, box), ...clipped.rings], dropped: extended.dropped + dropped };
}

/**
 * The pieces, less those that contradict the others. Along the box's edge, counter-clockwise, the
 * land lies from a piece's end to the next piece's start and the sea from a start to the next
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
