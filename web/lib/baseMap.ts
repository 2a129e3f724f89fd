// Which base map to draw, from the admin's settings and whether the site's own tiles are built.
// Pure: the component (public/BaseMap.tsx) draws what this decides, and tests check the choice.
import { MAP_BASES, MAX_ZOOM_LIMIT, OSM_MAX_ZOOM, OSM_TILE_URL, type MapBase } from '../../src/map/base-map';
import { DEFAULT_SETTINGS } from '../../src/site-settings';

export interface BaseMapSettings {
  base: MapBase;
  providerUrl: string;
  providerAttribution: string;
  providerMaxZoom: number;
  providerKey: string;
}

/** The part of /tiles.json the map needs: the site's own tiles, when built. */
export interface OwnTiles {
  minzoom: number;
  maxzoom: number;
  /** longitude, latitude, zoom */
  center?: [number, number, number];
  /** what the imported extracts cover: west, south, east, north */
  bounds?: [number, number, number, number];
}

/**
 * The page asks its own origin for tiles, whatever address TileJSON gives for other clients
 * (PUBLIC_ORIGIN's first origin): the Content-Security-Policy allows 'self' and nothing more.
 */
export const OWN_TILES_URL = '/tiles/{z}/{x}/{y}.pbf';

export type BaseLayer =
  | { kind: 'own'; url: string; maxDataZoom: number; attribution: string }
  | { kind: 'raster'; url: string; maxZoom: number; attribution: string; key: string };

/** Text made safe for Leaflet's attribution control, which sets it as HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const OSM_LINK = '<a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

/**
 * The layer to draw. `contributors` is the page's "© {osm} contributors" text; `ownTiles` null
 * while they are not built (own then falls back to OpenStreetMap's standard tiles).
 */
export function chooseBaseLayer(settings: BaseMapSettings, ownTiles: OwnTiles | null, contributors: string): BaseLayer {
  const osm = contributors.replace('{osm}', OSM_LINK);
  if (settings.base === 'own' && ownTiles) {
    return {
      kind: 'own',
      url: OWN_TILES_URL,
      maxDataZoom: ownTiles.maxzoom,
      attribution: `<a href="https://openmaptiles.org/">© OpenMapTiles</a> ${osm}`,
    };
  }
  if (settings.base === 'provider' && settings.providerUrl) {
    return {
      kind: 'raster',
      url: settings.providerUrl,
      maxZoom: settings.providerMaxZoom,
      attribution: escapeHtml(settings.providerAttribution),
      key: settings.providerKey,
    };
  }
  return { kind: 'raster', url: OSM_TILE_URL, maxZoom: OSM_MAX_ZOOM, attribution: osm, key: '' };
}

/** The base map's settings from GET /api/settings (or the admin's form). */
export function normalizeBaseMap(s: Record<string, unknown>): BaseMapSettings {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const zoom = Number(s.map_provider_max_zoom);
  return {
    base: MAP_BASES.includes(s.map_base as MapBase) ? (s.map_base as MapBase) : DEFAULT_SETTINGS.map_base,
    providerUrl: text(s.map_provider_url),
    providerAttribution: text(s.map_provider_attribution),
    providerMaxZoom:
      Number.isInteger(zoom) && zoom >= 1 && zoom <= MAX_ZOOM_LIMIT ? zoom : DEFAULT_SETTINGS.map_provider_max_zoom,
    providerKey: text(s.map_provider_key),
  };
}

/** The base map of the default settings. */
export const DEFAULT_BASE_MAP: BaseMapSettings = normalizeBaseMap(DEFAULT_SETTINGS);
