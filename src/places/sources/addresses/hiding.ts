// How right the derived addresses are, measured by hiding: the places of an extract that have
// addr:street lose every addr:* tag in a copy (written as .osm XML), the copy is imported, and
// each such place's derived address is compared with the one it had. Read by the addresses test
// (with thresholds) and `npm run bench -- addresses` (the figures).
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { DbHandle } from '../../../../db/index.js';
import { categorize } from '../../model/categories.js';
import { importInputs } from '../import/index.js';
import { pbfSource } from '../import/pbf.js';
import type { ElementVisitor, Tags } from '../import/types.js';
import type { OsmType } from '../../model/osm.js';
import type { PlaceStore } from '../../store/types.js';
import { AddressContext, type ContextFeature } from '../../model/address-context.js';
import { derivedText, otherStreetNames } from '../../model/address-features.js';
import { featureOfRow } from '../../store/addresses.js';
import { normalName, oneEditApart, spellsOutNumber, streetKey } from '../../model/address-names.js';

export interface HidingFigures {
  extract: string;
  places: number;
  /** places with an address after the import of the copy, of all places */
  withAddress: number;
  /** places whose addr:street was hidden */
  hidden: number;
  /** of them: the derived street is the hidden one (sameStreetBy, by any of its rules)... */
  sameStreet: number;
  /** ...of which the hidden street is another name of the derived one's way (its ref, alt_name, name:xx...) */
  sameByOtherName: number;
  /** ...or the hidden street spells out its road number ("Carretera General 2" for "CG-2", spellsOutNumber)... */
  sameByRoadNumber: number;
  /** ...or is a misspelling of it, one edit apart (oneEditApart) */
  sameByOneEdit: number;
  /**
   * of them: no way or square of the extract has the hidden street's name or one of its other
   * names, nor one that it spells out or is a slip of the pen away from (sameStreetBy): a street
   * not mapped, or off the extract's edge, that only an address point naming it can give
   */
  namedNowhere: number;
  /**
   * of them: the hidden street is one the derivation chooses from (a named street within 100 m or
   * an address point's within 40 m), or the building's the place stands in: the most that any
   * weighing of them can find again
   */
  inReach: number;
  /** of them: a house number was derived... */
  withNumber: number;
  /** ...and it is the hidden one, or that of a building the place stands in */
  rightNumber: number;
  /** of them: the stored address is the text the derivation makes (the import stored what it derived) */
  stored: number;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/**
 * Whether a derived street is the hidden addr:street, and by which rule: its name is the hidden
 * one as a reader compares them (streetKey); else one of `otherNames`, the other names of the way
 * it came from (a ref such as "CG-2", an alt_name, a name:xx); else the hidden one spells out one
 * of them that is a road number (spellsOutNumber); else it is a misspelling of one of them
 * (oneEditApart). addr:street may hold several streets (a corner): any of them.
 */
export function sameStreetBy(
  derived: string,
  hidden: string,
  otherNames: string[] = [],
): 'name' | 'otherName' | 'roadNumber' | 'oneEdit' | null {
  const hiddenKeys = hidden.split(';').map(streetKey);
  const derivedKey = streetKey(derived);
  if (hiddenKeys.includes(derivedKey)) return 'name';
  const otherKeys = otherNames.map(streetKey);
  if (otherKeys.some((key) => hiddenKeys.includes(key))) return 'otherName';
  const names = [derived, ...otherNames];
  if (hidden.split(';').some((street) => names.some((name) => spellsOutNumber(street, name)))) return 'roadNumber';
  if ([derivedKey, ...otherKeys].some((key) => hiddenKeys.some((hiddenKey) => oneEditApart(key, hiddenKey))))
    return 'oneEdit';
  return null;
}

export const sameStreet = (derived: string, hidden: string, otherNames: string[] = []) =>
  sameStreetBy(derived, hidden, otherNames) !== null;

/**
 * Writes `extract` to `path` as .osm XML, with the addr:* tags of its addressed places removed;
 * says what was hidden, and the names of the extract's ways and squares (as streetKey has them).
 */
async function writeHiddenCopy(
  extract: string,
  path: string,
): Promise<{ hidden: Map<string, { street: string; housenumber: string | null }>; names: Set<string> }> {
  const hidden = new Map<string, { street: string; housenumber: string | null }>();
  const names = new Set<string>();
  const fd = openSync(path, 'w');
  let buffer = '<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="hiding">\n';
  const flush = (force = false) => {
    if (buffer.length > 1 << 16 || force) {
      writeSync(fd, buffer);
      buffer = '';
    }
  };
  const tagsXml = (type: OsmType, id: number, tags: Tags | null) => {
    let out = '';
    if (!tags) return out;
    if (type !== 'node' && (tags.highway || tags.place))
      for (const name of [tags.name, ...otherStreetNames(tags)]) if (name?.trim()) names.add(streetKey(name));
    const hide = Boolean(tags['addr:street']?.trim()) && categorize(tags) !== 0;
    if (hide)
      hidden.set(`${type}/${id}`, {
        street: tags['addr:street'].trim(),
        housenumber: tags['addr:housenumber']?.trim() || null,
      });
    for (const [key, value] of Object.entries(tags)) {
      if (hide && key.startsWith('addr:')) continue;
      out += `<tag k="${escape(key)}" v="${escape(value)}"/>`;
    }
    return out;
  };
  const source = pbfSource(extract);
  const visitor: ElementVisitor = {
    nodes(batch) {
      const tagged = new Set(batch.tagged.subarray(0, batch.taggedCount));
      for (let i = 0; i < batch.count; i++) {
        const tags = tagged.has(i) ? tagsXml('node', batch.ids[i], batch.tags(i)) : '';
        buffer += `<node id="${batch.ids[i]}" lat="${batch.lats[i] / 1e7}" lon="${batch.lons[i] / 1e7}">${tags}</node>\n`;
        flush();
      }
    },
    way(id, tags, refs) {
      let nds = '';
      refs?.forEach((ref) => (nds += `<nd ref="${ref}"/>`));
      buffer += `<way id="${id}">${nds}${tagsXml('way', id, tags)}</way>\n`;
      flush();
    },
    relation(id, tags, members) {
      const list = (members ?? []).map((m) => `<member type="${m.type}" ref="${m.ref}" role=""/>`).join('');
      buffer += `<relation id="${id}">${list}${tagsXml('relation', id, tags)}</relation>\n`;
      flush();
    },
  };
  try {
    // the three kinds in the file's own order: nodes, ways, relations
    await source.scan(visitor, { nodes: true, ways: false, relations: false });
    await source.scan(visitor, { nodes: false, ways: true, relations: false });
    await source.scan(visitor, { nodes: false, ways: false, relations: true });
    buffer += '</osm>\n';
    flush(true);
  } finally {
    closeSync(fd);
  }
  return { hidden, names };
}

/** Imports the hidden copy of `extract` into `index` (on `handle`) and compares. */
export async function measureHiding(
  extract: string,
  index: PlaceStore,
  handle: DbHandle,
  dir: string,
): Promise<HidingFigures> {
  const copy = join(dir, 'hidden.osm');
  const { hidden, names } = await writeHiddenCopy(extract, copy);
  const summary = await importInputs(index, [copy], { source: 'hidden' });
  const rows = (
    await sql
      .raw<Record<string, unknown>>('select osm_type, osm_id, kind, data from address_context')
      .execute(handle.db)
  ).rows;
  const features: ContextFeature[] = rows.map(featureOfRow);
  const context = new AddressContext(features);
  const areas = new AddressContext(features.filter((f) => f.kind === 'area'));
  const figures: HidingFigures = {
    extract,
    places: summary.addresses.derived,
    withAddress: summary.addresses.withAddress,
    hidden: 0,
    sameStreet: 0,
    sameByOtherName: 0,
    sameByRoadNumber: 0,
    sameByOneEdit: 0,
    namedNowhere: 0,
    inReach: 0,
    withNumber: 0,
    rightNumber: 0,
    stored: 0,
  };
  for (const [key, truth] of hidden) {
    const [type, id] = key.split('/');
    const place = await index.getByOsmId(type as OsmType, Number(id));
    if (!place) continue; // left out (no coordinates)
    figures.hidden++;
    const hiddenKeys = truth.street.split(';').map(streetKey);
    const named = (key: string) =>
      names.has(key) || [...names].some((name) => oneEditApart(name, key) || spellsOutNumber(key, name));
    if (!hiddenKeys.some(named)) figures.namedNowhere++;
    const derived = context.derive(place.lat, place.lon);
    const building = areas.derive(place.lat, place.lon);
    const choices = context.candidateStreets(place.lat, place.lon);
    if (building?.street) choices.push(building.street);
    if (choices.some((name) => sameStreet(name, truth.street))) figures.inReach++;
    if (derived && derivedText(derived, place.country) === place.address) figures.stored++;
    if (!derived?.street) continue;
    const same = sameStreetBy(derived.street, truth.street, context.otherNamesOf(place.lat, place.lon, derived.street));
    if (same) figures.sameStreet++;
    if (same === 'otherName') figures.sameByOtherName++;
    if (same === 'roadNumber') figures.sameByRoadNumber++;
    if (same === 'oneEdit') figures.sameByOneEdit++;
    if (derived.housenumber) {
      figures.withNumber++;
      const numbers = [truth.housenumber, building?.source === 'building' ? building.housenumber : null].map(
        normalName,
      );
      if (numbers.includes(normalName(derived.housenumber))) figures.rightNumber++;
    }
  }
  return figures;
}
