// What a change file does to the address context, and where addresses must be derived again:
// around the context it changes (old and new shape) and the places it creates, edits or moves.
import type { ChangedElement } from '../changes/parse.js';
import type { ChangeWrites } from '../../store/types.js';
import { LOCALITY_EXTENT_M, type ContextFeature } from '../../model/address-context.js';
import { addressTags, contextKind } from '../../model/address-features.js';
import type { AddressUpdate, Box, ContextKey } from '../../store/addresses.js';

export function contextUpdate(elements: ChangedElement[], writes: ChangeWrites, source: string): AddressUpdate {
  const put: ContextFeature[] = [];
  const remove: ContextKey[] = [];
  const nodes = new Map<number, [number, number]>();
  for (const e of elements) if (e.type === 'node' && e.action !== 'delete') nodes.set(e.id, [e.lon, e.lat]);
  for (const e of elements) {
    const tags = e.action === 'delete' ? null : e.tags;
    const closed = e.refs.length >= 4 && e.refs[0] === e.refs[e.refs.length - 1];
    const kind = tags ? contextKind(e.type, tags, closed) : null;
    if (!kind || !tags) {
      // gone, or no longer context: whatever it was is removed (nothing, when it never was)
      remove.push({ osmType: e.type, osmId: e.id });
      continue;
    }
    if (e.type === 'node') {
      const feature: ContextFeature = {
        osmType: 'node',
        osmId: e.id,
        kind,
        coords: [e.lon, e.lat],
        tags: addressTags(tags),
      };
      if (kind === 'locality') feature.extentM = LOCALITY_EXTENT_M[tags.place];
      put.push(feature);
    } else if (e.type === 'way') {
      // placed from the file's nodes, else from its stored shape (store.ts)
      put.push({ osmType: 'way', osmId: e.id, kind, coords: [], refs: e.refs, tags: addressTags(tags) });
    }
    // a changed multipolygon keeps its stored shape until the next import: its member ways are
    // rarely all in the file
  }
  const within: Box[] = [];
  for (const { place } of writes.upserts) within.push([place.lat, place.lon, place.lat, place.lon]);
  for (const move of writes.moves) within.push([move.lat, move.lon, move.lat, move.lon]);
  return { source, put, remove, nodes, within };
}
