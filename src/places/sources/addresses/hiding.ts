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
import { derivedText } from '../../model/address-features.js';
import { featureOfRow } from '../../store/addresses.js';

export interface HidingFigures {
  extract: string;
  places: number;
  /** places with an address after the import of the copy, of all places */
  withAddress: number;
  /** places whose addr:street was hidden */
  hidden: number;
  /** of them: the derived street is the hidden one */
  sameStreet: number;
  /**
   * of them: no way or square of the extract has the hidden street's name (a misspelling, a
   * street not mapped, a road known only by its number): none can be found again
   */
  namedNowhere: number;
  /** of them: a house number was derived... */
  withNumber: number;
  /** ...and it is the hidden one, or that of a building the place stands in */
  rightNumber: number;
  /** of them: the stored address is the text the derivation makes (the import stored what it derived) */
  stored: number;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Names compared as a reader would: case, accents, hyphens and apostrophes aside. */
const normal = (text: string | null | undefined) =>
  (text ?? '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
/**
 * The same word written in full, abbreviated, or in a sister language ("Av." and "Avinguda",
 * "Ave" and "Avenue", "Plaza" and "Plaça"): a street's kind is kept, so that "West 4th Avenue"
 * and "West 4th Street", or "Rue" and "Avenue des Spélugues", stay different streets.
 */
const SAME_WORD: Readonly<Record<string, string>> = {
  av: 'avenue',
  ave: 'avenue',
  avda: 'avenue',
  avgda: 'avenue',
  avinguda: 'avenue',
  avenida: 'avenue',
  blvd: 'boulevard',
  bd: 'boulevard',
  bvd: 'boulevard',
  boul: 'boulevard',
  ctra: 'carretera',
  crta: 'carretera',
  pl: 'placa',
  pca: 'placa',
  plaza: 'placa',
  ptge: 'passatge',
  rd: 'road',
  str: 'street',
  cres: 'crescent',
  ln: 'lane',
  sq: 'square',
  hwy: 'highway',
  ste: 'sainte',
};
/** Words that mean one thing first and another last: "St George Street", "Dr. Vilanova" and "Marine Dr". */
const FIRST_WORD: Readonly<Record<string, string>> = {
  st: 'saint',
  c: 'carrer',
  e: 'east',
  w: 'west',
  n: 'north',
  s: 'south',
};
const LAST_WORD: Readonly<Record<string, string>> = { st: 'street', dr: 'drive' };
/** Articles, which mappers write or leave out ("Carrer del Prat Gran", "Carrer Prat Gran"). */
const ARTICLES = new Set('de del dels la les el du des d l the'.split(' '));

/** A street's name as a reader compares it: case, accents, punctuation, articles and abbreviations aside. */
export function streetKey(street: string): string {
  const words = normal(street).split(' ');
  return words
    .map(
      (word, i) =>
        (i === 0 && FIRST_WORD[word]) || (i === words.length - 1 && LAST_WORD[word]) || SAME_WORD[word] || word,
    )
    .filter((word) => !ARTICLES.has(word))
    .join(' ');
}
/** addr:street may hold several streets (a corner): any of them. */
export const sameStreet = (derived: string, hidden: string) =>
  hidden.split(';').some((street) => streetKey(street) === streetKey(derived));

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
    if (type !== 'node' && tags.name && (tags.highway || tags.place)) names.add(streetKey(tags.name));
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
    namedNowhere: 0,
    withNumber: 0,
    rightNumber: 0,
    stored: 0,
  };
  for (const [key, truth] of hidden) {
    const [type, id] = key.split('/');
    const place = await index.getByOsmId(type as OsmType, Number(id));
    if (!place) continue; // left out (no coordinates)
    figures.hidden++;
    if (!truth.street.split(';').some((street) => names.has(streetKey(street)))) figures.namedNowhere++;
    const derived = context.derive(place.lat, place.lon);
    if (derived && derivedText(derived, place.country) === place.address) figures.stored++;
    if (!derived?.street) continue;
    if (sameStreet(derived.street, truth.street)) figures.sameStreet++;
    if (derived.housenumber) {
      figures.withNumber++;
      const building = areas.derive(place.lat, place.lon);
      const numbers = [truth.housenumber, building?.source === 'building' ? building.housenumber : null].map(normal);
      if (numbers.includes(normal(derived.housenumber))) figures.rightNumber++;
    }
  }
  return figures;
}
