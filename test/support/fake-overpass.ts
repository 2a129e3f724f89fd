// A stand-in for the Overpass API on loopback. It answers real Overpass JSON built from the
// Washington DC extract (../shared/data), evaluating the query's own tag filters and `around:`
// circles, so a wrong query finds the wrong places. It can also answer 429, 503, 504 or never.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { SHARED_DATA } from '../helpers.js';

export interface OverpassElement {
  type: 'node' | 'way' | 'relation';
  id: number;
  lat?: number;
  lon?: number;
  center?: { lat: number; lon: number };
  tags: Record<string, string>;
}

export type FakeReply = { status: 200 } | { status: 429 | 503 | 504; retryAfter?: string } | { hang: true };

export interface FakeRequest {
  /** Date.now() when it arrived */
  at: number;
  userAgent: string;
  query: string;
  replied: number | 'hang';
}

export interface FakeOverpass {
  url: string;
  elements: OverpassElement[];
  requests: FakeRequest[];
  /** The most requests it was ever answering at the same time */
  maxConcurrent: number;
  /** Replies for the next requests, in order; once empty, 200 with the matching elements */
  script: FakeReply[];
  /** Delay before a 200 answer, to let concurrent requests overlap if the client allowed it */
  delayMs: number;
  close(): Promise<void>;
}

/** The DC extract as Overpass `out center` elements: nodes with lat/lon, ways with a center. */
export function dcElements(): OverpassElement[] {
  const collection = JSON.parse(readFileSync(join(SHARED_DATA, 'dc-openstreetpois-2013.geojson'), 'utf8')) as {
    features: { geometry: { coordinates: [number, number] }; properties: Record<string, string> }[];
  };
  return collection.features.map((feature) => {
    const { OSM_ID, POI_AREA, ...tags } = feature.properties;
    const [type, id] = OSM_ID.split('/') as ['node' | 'way' | 'relation', string];
    const [lon, lat] = feature.geometry.coordinates;
    return type === 'node'
      ? { type, id: Number(id), lat, lon, tags }
      : { type, id: Number(id), center: { lat, lon }, tags };
  });
}

const RADIUS_KM = 6371.0088;
function distanceM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * RADIUS_KM * 1000 * Math.asin(Math.sqrt(a));
}

type Condition = (tags: Record<string, string>) => boolean;

/** The conditions of one `nwr[...][...]` statement: ["k"], ["k"="v"], ["k"!="v"], ["k"~"re"], ["k"!~"re"]. */
function parseConditions(selectors: string): Condition[] {
  const conditions: Condition[] = [];
  for (const match of selectors.matchAll(/\["((?:[^"\\]|\\.)*)"(?:(=|!=|~|!~)"((?:[^"\\]|\\.)*)")?\]/g)) {
    const [, key, op, value] = match;
    if (!op) conditions.push((tags) => key in tags);
    else if (op === '=') conditions.push((tags) => tags[key] === value);
    else if (op === '!=') conditions.push((tags) => tags[key] !== value);
    else {
      const regex = new RegExp(value);
      conditions.push(
        op === '~'
          ? (tags) => key in tags && regex.test(tags[key])
          : (tags) => !(key in tags) || !regex.test(tags[key]),
      );
    }
  }
  return conditions;
}

/** Evaluates the union of `nwr[filters](around:r,lat,lon);` statements over the elements. */
export function evaluateQuery(query: string, elements: OverpassElement[]): OverpassElement[] {
  const statements = [...query.matchAll(/nwr((?:\[[^\]]*\])+)\(around:([\d.]+),(-?[\d.]+),(-?[\d.]+)\);/g)];
  if (statements.length === 0) throw new Error(`fake Overpass: no statement understood in ${query}`);
  const found = new Map<string, OverpassElement>();
  for (const [, selectors, radius, lat, lon] of statements) {
    const conditions = parseConditions(selectors);
    for (const e of elements) {
      const point = e.center ?? { lat: e.lat!, lon: e.lon! };
      if (distanceM(Number(lat), Number(lon), point.lat, point.lon) > Number(radius)) continue;
      if (conditions.every((c) => c(e.tags))) found.set(`${e.type}/${e.id}`, e);
    }
  }
  return [...found.values()];
}

export async function startFakeOverpass(elements: OverpassElement[] = dcElements()): Promise<FakeOverpass> {
  const sockets = new Set<Socket>();
  let concurrent = 0;
  const fake: FakeOverpass = {
    url: '',
    elements,
    requests: [],
    maxConcurrent: 0,
    script: [],
    delayMs: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const query = new URLSearchParams(body).get('data') ?? new URL(req.url!, 'http://x').searchParams.get('data') ?? '';
    const reply = fake.script.shift() ?? { status: 200 };
    const record: FakeRequest = {
      at: Date.now(),
      userAgent: req.headers['user-agent'] ?? '',
      query,
      replied: 'hang' in reply ? 'hang' : reply.status,
    };
    fake.requests.push(record);
    concurrent++;
    fake.maxConcurrent = Math.max(fake.maxConcurrent, concurrent);
    const done = () => void concurrent--;
    res.on('close', done);
    if ('hang' in reply) return; // never answers; the client must time out
    if (reply.status !== 200) {
      res.writeHead(reply.status, {
        'content-type': 'text/html',
        ...(reply.retryAfter !== undefined ? { 'retry-after': reply.retryAfter } : {}),
      });
      res.end(
        `<html><body><p>The server is probably too busy to handle your request (${reply.status}).</p></body></html>`,
      );
      return;
    }
    if (fake.delayMs) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
    const found = evaluateQuery(query, fake.elements);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        version: 0.6,
        generator: 'Overpass API 0.7.62 (fake, for tests)',
        osm3s: {
          timestamp_osm_base: '2013-07-16T00:00:00Z',
          copyright:
            'The data included in this document is from www.openstreetmap.org. The data is made available under ODbL.',
        },
        elements: found,
      }),
    );
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/interpreter`;
  return fake;
}
