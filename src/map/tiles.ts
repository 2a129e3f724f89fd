// The site's own vector tiles: GET /tiles/{z}/{x}/{y}.pbf from the .mbtiles that `npm run tiles`
// builds, and GET /tiles.json (TileJSON) describing them. A rebuild renames a new file into place:
// the file is looked at again at most once a second, and a new one is opened without a restart.
import { statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { openMbtiles, type MbtilesReader } from './mbtiles.js';
import { addVary } from '../site-keys/cross-origin.js';

/** The deepest zoom a tile address may name; deeper is outside any pyramid a site serves. */
export const MAX_TILE_ZOOM = 24;
/** How often the file is looked at for a rebuild. */
const RECHECK_MS = 1000;
/** Tiles change only with a rebuild: a day in caches, then a cheap 304 thanks to the ETag. */
const TILE_CACHE = 'public, max-age=86400';

interface Opened {
  reader: MbtilesReader;
  /** the file's identity (inode, size, time): part of every ETag, so a rebuild changes them all */
  identity: string;
  metadata: Record<string, string>;
}

/** The tiles file, opened on first use and reopened when a rebuild replaced it. */
export class TilesFile {
  private opened: Opened | null = null;
  /** the identity of a file that could not be opened: tried again only once it changes */
  private unreadable: string | null = null;
  private checkedAt = -Infinity;

  constructor(
    readonly path: string,
    private readonly now: () => number = Date.now,
  ) {}

  current(): Opened | null {
    const now = this.now();
    if (now - this.checkedAt < RECHECK_MS) return this.opened;
    this.checkedAt = now;
    const stat = statSync(this.path, { throwIfNoEntry: false });
    const identity = stat
      ? `${stat.ino.toString(36)}-${stat.size.toString(36)}-${Math.round(stat.mtimeMs).toString(36)}`
      : null;
    if (identity === this.opened?.identity || (identity && identity === this.unreadable)) return this.opened;
    this.close();
    if (!identity) return null;
    try {
      const reader = openMbtiles(this.path);
      this.opened = { reader, identity, metadata: reader.metadata() };
      this.unreadable = null;
    } catch {
      // Not an .mbtiles (or copied in place and not whole yet): served as missing until it changes.
      this.unreadable = identity;
    }
    return this.opened;
  }

  close(): void {
    this.opened?.reader.close();
    this.opened = null;
  }
}

const NOT_BUILT = 'The map tiles are not built (npm run tiles)';
const isGzip = (data: Buffer) => data.length > 1 && data[0] === 0x1f && data[1] === 0x8b;

/** The TileJSON 3.0 of the tiles file's metadata (what tilemaker writes). */
export function tileJson(metadata: Record<string, string>, origin: string) {
  const numbers = (text: string | undefined) => (text ? text.split(',').map(Number) : undefined);
  let vectorLayers: unknown = [];
  try {
    vectorLayers = JSON.parse(metadata.json ?? '{}').vector_layers ?? [];
  } catch {
    // a metadata without layers still describes the tiles
  }
  return {
    tilejson: '3.0.0',
    name: metadata.name ?? 'Map tiles',
    description: metadata.description ?? '',
    version: metadata.version ?? '1.0.0',
    attribution: '© OpenMapTiles © OpenStreetMap contributors',
    scheme: 'xyz',
    tiles: [`${origin}/tiles/{z}/{x}/{y}.pbf`],
    minzoom: Number(metadata.minzoom ?? 0),
    maxzoom: Number(metadata.maxzoom ?? 14),
    bounds: numbers(metadata.bounds) ?? [-180, -85.0511, 180, 85.0511],
    center: numbers(metadata.center),
    vector_layers: vectorLayers,
  };
}

export async function tilesPlugin(app: FastifyInstance, options: { file: TilesFile; origin: string }) {
  const { file, origin } = options;
  app.addHook('onClose', async () => file.close());

  app.get('/tiles.json', async (_req, reply) => {
    const opened = file.current();
    // Every page asks (to choose its base map): no tiles built is an answer, not an error.
    if (!opened) return reply.code(204).header('Cache-Control', 'no-cache').send();
    return reply.header('Cache-Control', 'no-cache').send(tileJson(opened.metadata, origin));
  });

  app.get(
    '/tiles/:z/:x/:file',
    async (req: FastifyRequest<{ Params: { z: string; x: string; file: string } }>, reply: FastifyReply) => {
      const { z: zText, x: xText, file: yFile } = req.params;
      const yText = /^(\d{1,8})\.pbf$/.exec(yFile)?.[1];
      const [z, x, y] = [zText, xText, yText].map((text) => (text && /^\d{1,8}$/.test(text) ? Number(text) : NaN));
      if (!(z <= MAX_TILE_ZOOM && x < 2 ** z && y < 2 ** z)) {
        return reply.code(400).send({
          error: `The tile address is outside the map: /tiles/{z}/{x}/{y}.pbf with z from 0 to ${MAX_TILE_ZOOM} and x, y from 0 to 2^z - 1`,
        });
      }
      const opened = file.current();
      if (!opened) return reply.code(404).send({ error: NOT_BUILT });
      const etag = `"${opened.identity}-${z}-${x}-${y}"`;
      reply.header('Cache-Control', TILE_CACHE).header('ETag', etag);
      addVary(reply, 'Accept-Encoding');
      if (req.headers['if-none-match'] === etag) return reply.code(304).send();
      const data = opened.reader.tile(z, x, y);
      // No tile there (sea, outside the extract): nothing to draw, which is not an error.
      if (!data) return reply.code(204).send();
      reply.type('application/vnd.mapbox-vector-tile');
      if (!isGzip(data)) return reply.send(data);
      // Sent as stored; the rare client that takes no gzip gets it unpacked.
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')))
        return reply.header('Content-Encoding', 'gzip').send(data);
      return reply.send(gunzipSync(data));
    },
  );
}
