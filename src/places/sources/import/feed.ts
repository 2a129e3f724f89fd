// Hands the elements of a reader that builds one object per element (XML, JSON) to a visitor,
// as the .osm.pbf reader does: nodes in batches, only the types and tags the scan asked for.
import type { ElementVisitor, NodeBatch, OsmElement, ScanOptions, Tags, WayRefs } from './types.js';

const BATCH = 4096;

function wanted(tags: Tags | null, keys: ReadonlySet<string> | undefined): Tags | null {
  if (!tags || !keys) return tags;
  for (const key in tags) if (keys.has(key)) return tags;
  return null;
}

function arrayRefs(refs: number[]): WayRefs {
  return { count: () => refs.length, forEach: (add) => refs.forEach((ref) => add(ref)) };
}

export class ElementFeed {
  private readonly batch: NodeBatch & { allTags: Tags[]; versions: (number | null)[] };

  constructor(
    private readonly visitor: ElementVisitor,
    private readonly options: ScanOptions,
  ) {
    const allTags: Tags[] = [];
    const versions: (number | null)[] = [];
    this.batch = {
      count: 0,
      ids: new Float64Array(BATCH),
      lats: new Int32Array(BATCH),
      lons: new Int32Array(BATCH),
      tagged: new Int32Array(BATCH),
      taggedCount: 0,
      allTags,
      versions,
      tags: (i) => allTags[i],
      version: (i) => versions[i] ?? null,
    };
  }

  add(e: OsmElement): void {
    const { visitor, options } = this;
    if (e.type === 'node') {
      if (!options.nodes) return;
      const batch = this.batch;
      const i = batch.count++;
      batch.ids[i] = e.id;
      batch.lats[i] = Math.round(e.lat * 1e7);
      batch.lons[i] = Math.round(e.lon * 1e7);
      batch.versions[i] = e.version ?? null;
      const tags = wanted(e.tags, options.keys);
      if (tags) {
        batch.allTags[i] = tags;
        batch.tagged[batch.taggedCount++] = i;
      }
      if (batch.count === BATCH) this.flush();
    } else if (e.type === 'way') {
      if (options.ways)
        visitor.way(e.id, wanted(e.tags, options.keys), e.refs ? arrayRefs(e.refs) : null, e.center, e.version ?? null);
    } else if (options.relations) {
      const tags = wanted(e.tags, options.keys);
      visitor.relation(e.id, tags, tags ? e.members : null, e.center, e.version ?? null);
    }
  }

  /** Hands over the nodes still held; call at the end of a scan. */
  flush(): void {
    const batch = this.batch;
    if (batch.count > 0) this.visitor.nodes(batch);
    batch.count = 0;
    batch.taggedCount = 0;
    batch.allTags.length = 0;
    batch.versions.length = 0;
  }
}
