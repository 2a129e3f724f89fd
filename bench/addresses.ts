// Addresses from context: on each real extract, the share of places with an address, and how
// right the derived ones are, measured by hiding (src/places/addresses/hiding.ts): the places
// with addr:street lose their addr:* tags in a copy, the copy is imported (SQLite), and the
// derived street and house number are compared with the hidden ones.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, migrate } from '../db/index.js';
import { measureHiding, type HidingFigures } from '../src/places/sources/addresses/hiding.js';
import { importInputs } from '../src/places/sources/import/index.js';
import { createPlaceStore } from '../src/places/store/index.js';

const DATA = join(import.meta.dirname, '..', '..', 'shared', 'data');
export const EXTRACTS = ['monaco-2021-04-21.osm.pbf', 'andorra-2021-04-14.osm.pbf', 'vancouver_canada-2015.osm.pbf'];

const percent = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : 0);

async function onFreshDb<T>(work: (dir: string, handle: ReturnType<typeof createDb>) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-addresses-'));
  const handle = createDb({ kind: 'sqlite', path: join(dir, 'app.db') });
  try {
    await migrate(handle);
    return await work(dir, handle);
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<object> {
  const results: Record<string, object> = {};
  for (const name of EXTRACTS) {
    const extract = join(DATA, name);
    const share = await onFreshDb(
      async (_dir, handle) => (await importInputs(createPlaceStore(handle), [extract])).addresses,
    );
    const hiding: HidingFigures = await onFreshDb((dir, handle) =>
      measureHiding(extract, createPlaceStore(handle), handle, dir),
    );
    const figures = {
      places: share.derived,
      with_address_pct: percent(share.withAddress, share.derived),
      hidden: hiding.hidden,
      same_street_pct: percent(hiding.sameStreet, hiding.hidden),
      // of the same streets, how many each tolerance of sameStreetBy decided (the rest: by name)
      same_by_other_name: hiding.sameByOtherName,
      same_by_road_number: hiding.sameByRoadNumber,
      same_by_one_edit: hiding.sameByOneEdit,
      // hidden streets no way or square of the extract is named: beyond any derivation
      named_nowhere: hiding.namedNowhere,
      // hidden streets among those the derivation chooses from: the most any weighing finds
      in_reach_pct: percent(hiding.inReach, hiding.hidden),
      with_number: hiding.withNumber,
      right_number_pct: percent(hiding.rightNumber, hiding.withNumber),
      hidden_copy_with_address_pct: percent(hiding.withAddress, hiding.places),
    };
    console.log(
      `${name}: ${figures.with_address_pct}% of ${figures.places} places have an address; hiding ${figures.hidden} streets: ` +
        `${figures.same_street_pct}% same street (of them ${figures.same_by_other_name} by another name of the way, ` +
        `${figures.same_by_road_number} by its road number spelt out, ${figures.same_by_one_edit} one slip apart; ` +
        `${figures.named_nowhere} name no street of the extract; ` +
        `${figures.in_reach_pct}% within reach), ` +
        `${figures.right_number_pct}% of ${figures.with_number} house numbers right`,
    );
    results[name] = figures;
  }
  return results;
}
