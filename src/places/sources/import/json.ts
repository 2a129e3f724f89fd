// JSON readers: Overpass JSON ({"elements": [...]}) and GeoJSON (a FeatureCollection whose
// features carry OSM tags as properties and an id such as "node/123"). JSON has no streaming
// parser here, so the document is parsed whole, once, and kept for the later passes; for large
// areas use .osm.pbf, which is read block by block.
import { readFile, stat } from 'node:fs/promises';
import { ElementFeed } from './feed.js';
import { addGeoJsonCoordinates, Bounds, boundsCenter } from './geometry.js';
import {
  ImportError,
  type ElementSource,
  type ElementVisitor,
  type LatLon,
  type OsmElement,
  type ScanOptions,
  type Tags,
} from './types.js';
import type { Member, OsmType } from '../../model/osm.js';

/** Above this a JSON text cannot even be held as one string by V8. */
const MAX_JSON_BYTES = 500 * 1024 * 1024;
const TYPES = new Set<string>(['node', 'way', 'relation']);
const ID_PROPERTIES = ['OSM_ID', '@id', 'id'];
/** Properties that describe the feature, not the place: kept out of the tags. */
const NON_TAG_PROPERTIES = new Set([
  ...ID_PROPERTIES,
  '@type',
  'POI_AREA',
  '@relations',
  '@timestamp',
  '@version',
  '@changeset',
  '@user',
  '@uid',
]);

export async function readJsonFile(path: string, label: string): Promise<unknown> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (error) {
    throw new ImportError(
      `${label}: cannot open (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  if (size > MAX_JSON_BYTES) {
    throw new ImportError(`${label}: JSON files over 500 MB are not supported; use the .osm.pbf extract of the area`);
  }
  const text = await readFile(path, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ImportError(`${label}: not valid JSON (${(error as Error).message})`);
  }
}

/** "node/123", "way/4", "relation/5", or the short "n123" / "w4" / "r5". */
export function parseOsmId(value: unknown): { type: OsmType; id: number } | null {
  if (typeof value !== 'string') return null;
  const match = /^(node|way|relation|n|w|r)\/?(-?\d+)$/.exec(value.trim());
  if (!match) return null;
  const type = ({ n: 'node', w: 'way', r: 'relation' } as Record<string, OsmType>)[match[1]] ?? (match[1] as OsmType);
  const id = Number(match[2]);
  return Number.isSafeInteger(id) ? { type, id } : null;
}

function stringTags(source: Record<string, unknown>, skip: Set<string>): Tags | null {
  let tags: Tags | null = null;
  for (const [key, value] of Object.entries(source)) {
    if (skip.has(key)) continue;
    if (typeof value === 'string') (tags ??= {})[key] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') (tags ??= {})[key] = String(value);
  }
  return tags;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function latLon(value: unknown): LatLon | null {
  if (!isObject(value)) return null;
  const lat = Number(value.lat);
  const lon = Number(value.lon);
  return Number.isFinite(lat) && Number.isFinite(lon) ? { lat, lon } : null;
}

/** One Overpass JSON element; `center`, `bounds` or `geometry` (out center/bb/geom) give the point. */
function overpassElement(raw: unknown): OsmElement | null {
  if (!isObject(raw) || typeof raw.type !== 'string' || !TYPES.has(raw.type)) return null;
  const id = Number(raw.id);
  if (!Number.isSafeInteger(id)) return null;
  const tags = isObject(raw.tags) ? stringTags(raw.tags, new Set()) : null;
  if (raw.type === 'node') {
    const point = latLon(raw);
    return point ? { type: 'node', id, ...point, tags } : null;
  }
  let center = latLon(raw.center);
  if (!center && isObject(raw.bounds)) {
    const b = new Bounds();
    b.add(Number(raw.bounds.minlat), Number(raw.bounds.minlon));
    b.add(Number(raw.bounds.maxlat), Number(raw.bounds.maxlon));
    center = boundsCenter(b);
  }
  if (!center && Array.isArray(raw.geometry)) {
    const b = new Bounds();
    for (const point of raw.geometry) if (isObject(point)) b.add(Number(point.lat), Number(point.lon));
    center = boundsCenter(b);
  }
  if (raw.type === 'way') {
    const refs = Array.isArray(raw.nodes) ? raw.nodes.map(Number).filter(Number.isSafeInteger) : null;
    return { type: 'way', id, tags, refs, center };
  }
  const members: Member[] = [];
  if (Array.isArray(raw.members)) {
    for (const m of raw.members) {
      if (isObject(m) && typeof m.type === 'string' && TYPES.has(m.type) && Number.isSafeInteger(Number(m.ref))) {
        members.push({ type: m.type as OsmType, ref: Number(m.ref) });
      }
    }
  }
  return { type: 'relation', id, tags, members, center };
}

function geoJsonElement(raw: unknown): OsmElement | null {
  if (!isObject(raw) || raw.type !== 'Feature') return null;
  const properties = isObject(raw.properties) ? raw.properties : {};
  // osmtogeojson without flat properties: {type, id, tags: {...}}
  const nested = isObject(properties.tags);
  let ref: { type: OsmType; id: number } | null = null;
  if (nested && typeof properties.type === 'string' && TYPES.has(properties.type)) {
    ref = { type: properties.type as OsmType, id: Number(properties.id) };
    if (!Number.isSafeInteger(ref.id)) ref = null;
  }
  for (const key of ID_PROPERTIES) ref ??= parseOsmId(properties[key]);
  ref ??= parseOsmId(raw.id);
  if (!ref) return null;
  const tags = nested
    ? stringTags(properties.tags as Record<string, unknown>, new Set())
    : stringTags(properties, NON_TAG_PROPERTIES);
  const bounds = new Bounds();
  if (isObject(raw.geometry)) addGeoJsonCoordinates(bounds, raw.geometry.coordinates);
  const center = boundsCenter(bounds);
  if (ref.type === 'node') return center ? { type: 'node', id: ref.id, ...center, tags } : null;
  if (ref.type === 'way') return { type: 'way', id: ref.id, tags, refs: null, center };
  return { type: 'relation', id: ref.id, tags, members: null, center };
}

/** The elements of an Overpass JSON answer, synchronously (for the live source). */
export function overpassElements(document: unknown): OsmElement[] {
  const raw = isObject(document) && Array.isArray(document.elements) ? document.elements : [];
  return raw.map(overpassElement).filter((e): e is OsmElement => e !== null);
}

export type JsonKind = 'overpass' | 'geojson';

export function jsonKind(document: unknown): JsonKind | null {
  if (isObject(document) && Array.isArray(document.elements)) return 'overpass';
  if (isObject(document) && (document.type === 'FeatureCollection' || document.type === 'Feature')) return 'geojson';
  return null;
}

/** A source over an already parsed document; `skipped` counts items that were not OSM elements. */
export function jsonDocumentSource(document: unknown, label: string): ElementSource & { skipped: number } {
  const kind = jsonKind(document);
  if (!kind) {
    throw new ImportError(`${label}: neither Overpass JSON ({"elements": [...]}) nor a GeoJSON FeatureCollection`);
  }
  const doc = document as Record<string, unknown>;
  const items: unknown[] =
    kind === 'overpass'
      ? (doc.elements as unknown[])
      : doc.type === 'Feature'
        ? [doc]
        : Array.isArray(doc.features)
          ? doc.features
          : [];
  if (kind === 'geojson' && doc.type === 'FeatureCollection' && !Array.isArray(doc.features)) {
    throw new ImportError(`${label}: a GeoJSON FeatureCollection without a "features" array`);
  }
  const toElement = kind === 'overpass' ? overpassElement : geoJsonElement;
  const source = {
    label,
    skipped: 0,
    ascendingIds: async () => false,
    async scan(visitor: ElementVisitor, options: ScanOptions) {
      let skipped = 0;
      const feed = new ElementFeed(visitor, options);
      items.forEach((item, index) => {
        const element = toElement(item);
        if (!element) skipped++;
        else feed.add(element);
        if (index % 10_000 === 0) options.onProgress?.(index, items.length);
      });
      feed.flush();
      source.skipped = skipped;
      options.onProgress?.(items.length, items.length);
    },
  };
  return source;
}

export async function jsonFileSource(path: string, label = path): Promise<ElementSource & { skipped: number }> {
  return jsonDocumentSource(await readJsonFile(path, label), label);
}
