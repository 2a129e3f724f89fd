// osmChange files (.osc, .osc.gz): the elements they create, modify and delete, one per element,
// the highest version winning (replication files may hold several versions of one element).
import { gunzipSync } from 'node:zlib';
import { SaxesParser } from 'saxes';
import { ImportError, type Tags } from '../import/types.js';
import type { Member, OsmType } from '../../model/osm.js';

export type ChangeAction = 'create' | 'modify' | 'delete';

export interface ChangedElement {
  action: ChangeAction;
  type: OsmType;
  id: number;
  /** null when the file does not say (then it is applied as the newest) */
  version: number | null;
  lat: number;
  lon: number;
  tags: Tags | null;
  refs: number[];
  members: Member[];
}

const TYPES = new Set<string>(['node', 'way', 'relation']);
const ACTIONS = new Set<string>(['create', 'modify', 'delete']);

/** The key elements are known by in the index: "node/123". */
export const keyOf = (type: OsmType, id: number) => `${type}/${id}`;

/** Whether a buffer looks like an osmChange document (gzip or not): for the importer's dispatch. */
export function isOsmChange(head: Buffer): boolean {
  let text: string;
  try {
    text = (head[0] === 0x1f && head[1] === 0x8b ? gunzipPrefix(head) : head).toString('utf8', 0, 4096);
  } catch {
    return false;
  }
  return /<osmChange[\s>]/.test(text);
}

function gunzipPrefix(head: Buffer): Buffer {
  // A prefix of a gzip stream does not gunzip whole; the partial output is what is wanted.
  try {
    return gunzipSync(head, { finishFlush: 2 /* Z_SYNC_FLUSH */ });
  } catch {
    return Buffer.alloc(0);
  }
}

/** Parses a whole osmChange file; a broken or truncated one throws an ImportError saying why. */
export function parseOsmChange(bytes: Buffer, label: string): ChangedElement[] {
  let xml: Buffer = bytes;
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      xml = gunzipSync(bytes);
    } catch (error) {
      throw new ImportError(
        `${label}: does not decompress (${(error as Error).message}); the file is damaged or truncated`,
      );
    }
  }
  const parser = new SaxesParser({ position: true });
  const latest = new Map<string, ChangedElement>();
  let action: ChangeAction | null = null;
  let current: ChangedElement | null = null;
  let sawRoot = false;
  let failure: ImportError | null = null;
  const fail = (message: string) => {
    failure ??= new ImportError(`${label}: line ${parser.line}: ${message}`);
  };
  const number = (value: string | undefined) => (value === undefined || value.trim() === '' ? NaN : Number(value));

  parser.on('error', (error) => fail(error.message.replace(/^[^:]*:\d+:\d+: /, '')));
  parser.on('opentag', (tag) => {
    const a = tag.attributes as Record<string, string>;
    if (!sawRoot) {
      if (tag.name !== 'osmChange') return fail(`not an osmChange file (its root is <${tag.name}>)`);
      sawRoot = true;
      return;
    }
    if (ACTIONS.has(tag.name)) {
      action = tag.name as ChangeAction;
      return;
    }
    if (TYPES.has(tag.name)) {
      if (!action) return fail(`<${tag.name}> outside <create>, <modify> or <delete>`);
      const id = number(a.id);
      if (!Number.isSafeInteger(id)) return fail(`<${tag.name}> without a numeric id`);
      const version = a.version === undefined ? null : number(a.version);
      if (version !== null && !Number.isSafeInteger(version))
        return fail(`${tag.name} ${id} has a version that is not a number`);
      current = {
        action,
        type: tag.name as OsmType,
        id,
        version,
        lat: number(a.lat),
        lon: number(a.lon),
        tags: null,
        refs: [],
        members: [],
      };
      return;
    }
    if (!current) return;
    if (tag.name === 'tag' && a.k !== undefined && a.v !== undefined) (current.tags ??= {})[a.k] = a.v;
    else if (tag.name === 'nd') {
      const ref = number(a.ref);
      if (Number.isSafeInteger(ref)) current.refs.push(ref);
    } else if (tag.name === 'member' && TYPES.has(a.type)) {
      const ref = number(a.ref);
      if (Number.isSafeInteger(ref)) current.members.push({ type: a.type as OsmType, ref });
    }
  });
  parser.on('closetag', (tag) => {
    if (ACTIONS.has(tag.name)) action = null;
    if (!current || tag.name !== current.type) return;
    const element: ChangedElement = current;
    current = null;
    if (
      element.type === 'node' &&
      element.action !== 'delete' &&
      !(Math.abs(element.lat) <= 90 && Math.abs(element.lon) <= 180)
    ) {
      return fail(`node ${element.id} has no valid lat/lon`);
    }
    const key = keyOf(element.type, element.id);
    const before = latest.get(key);
    // The highest version wins; of equal (or unknown) versions, the later one.
    if (!before || (element.version ?? Infinity) >= (before.version ?? -Infinity)) latest.set(key, element);
  });

  parser.write(xml.toString('utf8'));
  if (!failure) {
    try {
      parser.close();
    } catch {
      // reported through the error handler
    }
  }
  if (failure) throw failure;
  if (!sawRoot) throw new ImportError(`${label}: not an osmChange file (it is empty)`);
  return [...latest.values()];
}
