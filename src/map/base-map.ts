// The base map's choices and the checks of a provider's settings. Pure and free of dependencies:
// the server's validation (procedures/settings.ts) and the admin's form both use them, so the
// two agree on every message.

/** own: the site's tiles (OpenStreetMap's standard map until they are built); osm; provider */
export const MAP_BASES = ['own', 'osm', 'provider'] as const;
export type MapBase = (typeof MAP_BASES)[number];

/** OpenStreetMap's standard tiles: no a/b/c subdomains, which the tile policy no longer recommends. */
export const OSM_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const OSM_MAX_ZOOM = 19;
export const MAX_ZOOM_LIMIT = 22;

/** The placeholders Leaflet fills in a tile URL that a provider's template may use. */
const PLACEHOLDERS = new Set(['z', 'x', 'y', 's', 'r', 'key']);

/** What is wrong with a provider's tile URL template, or null. */
export function tileTemplateProblem(template: string): string | null {
  let url: URL;
  try {
    // The placeholders are not valid in every part of a URL: checked with stand-ins.
    url = new URL(template.replace(/\{[^}]*\}/g, '0'));
  } catch {
    return 'must be an https URL';
  }
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (!['{z}', '{x}', '{y}'].every((part) => template.includes(part))) return 'must contain {z}, {x} and {y}';
  const unknown = [...template.matchAll(/\{([^}]*)\}/g)].find((match) => !PLACEHOLDERS.has(match[1]));
  if (unknown) return `has an unknown placeholder {${unknown[1]}}`;
  return null;
}

/** What is wrong with an attribution (plain text: the map shows it as text, never as markup), or null. */
export function attributionProblem(text: string): string | null {
  return /[<>]/.test(text) ? 'must be plain text, without markup' : null;
}

/** What is wrong with a key that goes into tile URLs, or null. */
export function tileKeyProblem(key: string): string | null {
  return /^[\w.~-]*$/.test(key) ? null : 'may contain only letters, digits and - _ . ~';
}
