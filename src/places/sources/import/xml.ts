// .osm XML reader (the OSM API and Overpass XML format), streamed through saxes: one element
// is held at a time. Understands Overpass's `<center>` and `<nd lat lon>` (out center, out geom).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { SaxesParser } from 'saxes';
import { ImportError, type ElementSource, type LatLon, type OsmElement, type Tags } from './types.js';
import type { Member, OsmType } from '../../model/osm.js';
import { boundsCenter, Bounds } from './geometry.js';
import { ElementFeed } from './feed.js';

const TYPES = new Set<string>(['node', 'way', 'relation']);

interface Building {
  type: OsmType;
  id: number;
  lat: number;
  lon: number;
  tags: Tags | null;
  refs: number[];
  members: Member[];
  center: LatLon | null;
  version: number | null;
  /** Coordinates given inline on `nd`/`member` (Overpass out geom) */
  bounds: Bounds;
}

function number(value: string | undefined): number {
  return value === undefined || value.trim() === '' ? NaN : Number(value);
}

export function xmlSource(path: string, label = path): ElementSource {
  return {
    label,
    ascendingIds: async () => false,
    async scan(visitor, options) {
      const feed = new ElementFeed(visitor, options);
      let size: number;
      try {
        size = (await stat(path)).size;
      } catch (error) {
        throw new ImportError(
          `${label}: cannot open (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        );
      }
      const parser = new SaxesParser({ position: true });
      let current: Building | null = null;
      let sawOsmRoot = false;
      let failure: Error | null = null;
      const fail = (message: string) => {
        failure ??= new ImportError(`${label}: line ${parser.line}: ${message}`);
      };

      parser.on('error', (error) => fail(error.message.replace(/^[^:]*:\d+:\d+: /, '')));
      parser.on('opentag', (tag) => {
        const a = tag.attributes as Record<string, string>;
        if (tag.name === 'osm') sawOsmRoot = true;
        if (TYPES.has(tag.name)) {
          const id = number(a.id);
          if (!Number.isSafeInteger(id)) return fail(`<${tag.name}> without a numeric id`);
          const version = number(a.version);
          current = {
            type: tag.name as OsmType,
            id,
            lat: number(a.lat),
            lon: number(a.lon),
            tags: null,
            refs: [],
            members: [],
            center: null,
            version: Number.isSafeInteger(version) ? version : null,
            bounds: new Bounds(),
          };
          return;
        }
        if (!current) return;
        if (tag.name === 'tag' && a.k !== undefined && a.v !== undefined) (current.tags ??= {})[a.k] = a.v;
        else if (tag.name === 'nd') {
          const ref = number(a.ref);
          if (Number.isSafeInteger(ref)) current.refs.push(ref);
          current.bounds.add(number(a.lat), number(a.lon));
        } else if (tag.name === 'member' && TYPES.has(a.type)) {
          const ref = number(a.ref);
          if (Number.isSafeInteger(ref)) current.members.push({ type: a.type as OsmType, ref });
          if (a.lat !== undefined) current.bounds.add(number(a.lat), number(a.lon));
        } else if (tag.name === 'center') {
          const lat = number(a.lat);
          const lon = number(a.lon);
          if (Number.isFinite(lat) && Number.isFinite(lon)) current.center = { lat, lon };
        } else if (tag.name === 'bounds') {
          current.bounds.add(number(a.minlat), number(a.minlon));
          current.bounds.add(number(a.maxlat), number(a.maxlon));
        }
      });
      parser.on('closetag', (tag) => {
        if (!current || tag.name !== current.type) return;
        const e: Building = current;
        current = null;
        let element: OsmElement | null = null;
        if (e.type === 'node') {
          if (options.nodes) {
            if (!Number.isFinite(e.lat) || !Number.isFinite(e.lon)) return fail(`node ${e.id} has no lat/lon`);
            element = { type: 'node', id: e.id, lat: e.lat, lon: e.lon, tags: e.tags, version: e.version };
          }
        } else {
          const center = e.center ?? boundsCenter(e.bounds);
          if (e.type === 'way' && options.ways)
            element = { type: 'way', id: e.id, tags: e.tags, refs: e.refs, center, version: e.version };
          if (e.type === 'relation' && options.relations)
            element = { type: 'relation', id: e.id, tags: e.tags, members: e.members, center, version: e.version };
        }
        if (element) feed.add(element);
      });

      const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
      try {
        for await (const chunk of stream) {
          parser.write(chunk as string);
          if (failure) break;
          options.onProgress?.(stream.bytesRead, size);
        }
        if (!failure) parser.close();
        if (!failure) feed.flush();
      } catch (error) {
        if (error instanceof ImportError) throw error;
        throw new ImportError(
          `${label}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        );
      } finally {
        stream.destroy();
      }
      if (failure) throw failure;
      if (!sawOsmRoot) throw new ImportError(`${label}: not an OSM XML file (no <osm> element)`);
    },
  };
}
