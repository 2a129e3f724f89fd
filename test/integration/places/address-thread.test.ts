// An import's addresses derived on the address thread (store/staged-addresses.ts) from the staged
// places and the gathered context's file: the answer must be the one a single context of every
// feature gives, as the plan's is (address-cells.test.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AddressContext } from '../../../src/places/model/address-context.js';
import { derivedText, hasOwnAddress } from '../../../src/places/model/address-features.js';
import type { Tags } from '../../../src/places/model/categories.js';
import { formatAddress } from '../../../src/places/model/osm.js';
import { featureOfRow, storedParts } from '../../../src/places/store/addresses.js';
import {
  ADDRESS_SOURCES,
  addressTagsOf,
  AddressThread,
  StagedAddresses,
} from '../../../src/places/store/staged-addresses.js';
import { EXTRACTS, tempDb } from '../../support/places.js';

describe('addresses derived on the address thread', () => {
  it("are every place's address from one context of every feature (Vancouver)", async () => {
    const db = await tempDb({ extracts: [EXTRACTS.vancouver] });
    const dir = mkdtempSync(join(tmpdir(), 'address-thread-'));
    try {
      const features = (
        await db.rows<Record<string, unknown>>('select osm_type, osm_id, kind, data from address_context order by id')
      ).map(featureOfRow);
      const file = join(dir, 'features.jsonl');
      writeFileSync(file, features.map((f) => `${JSON.stringify(f)}\n`).join(''));
      const places = await db.rows<{
        id: number;
        osm_type: string;
        osm_id: number;
        lat: number;
        lon: number;
        country: string | null;
        tags: string | null;
      }>(
        `select p.id, p.osm_type, p.osm_id, p.lat, p.lon, p.country, t.tags
        from places p left join place_tags t on t.id = p.id where p.osm_type <> 'own'`,
      );
      expect(places.length).toBeGreaterThan(4500);
      // staged without an address: every place with one comes back
      const staged = new StagedAddresses();
      staged.addPlaces(
        places.flatMap((p) => [
          p.id,
          p.osm_type,
          Number(p.osm_id),
          Number(p.lat),
          Number(p.lon),
          null,
          p.country,
          addressTagsOf(p.tags ? (JSON.parse(p.tags) as Tags) : {}),
        ]),
      );
      const rows = staged.derive(file);
      const got = new Map(
        Array.from(rows.ids, (id, i) => [id, [rows.addresses[i], ADDRESS_SOURCES[rows.sources[i]], rows.parts[i]]]),
      );

      const whole = new AddressContext(features);
      // the address, where it came from, and its parts as places.address_parts keeps them
      const expected = new Map<number, [string | null, string | null, string | null]>();
      for (const place of places) {
        const tags = place.tags ? (JSON.parse(place.tags) as Tags) : {};
        let address: [string | null, string | null, string | null] = [formatAddress(tags, place.country), null, null];
        if (!hasOwnAddress(tags)) {
          const derived = whole.derive(Number(place.lat), Number(place.lon));
          const text = derived ? derivedText(derived, place.country, tags) : null;
          if (text) address = [text, derived!.source, null];
          if (derived) address[2] = storedParts(derived);
        }
        if (address.some((value) => value !== null)) expected.set(place.id, address);
      }
      expect(expected.size).toBeGreaterThan(4000);
      expect(got).toEqual(expected);
      expect(rows.summary).toEqual({ derived: places.length, changed: expected.size, withAddress: expected.size });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await db.close();
    }
  }, 120_000);

  it('stop waiting for a thread that stopped without a word (its heap bound), and say so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'address-thread-'));
    const thread = new AddressThread({ heapMb: 64, stallMs: 1500 });
    try {
      const file = join(dir, 'features.jsonl');
      writeFileSync(file, '');
      // places whose address tags outgrow the thread's heap: it is ended while result() waits
      const city = 'x'.repeat(8192);
      for (let batch = 0; batch < 20; batch++)
        thread.places(
          Array.from({ length: 1000 }, (_, k) => {
            const id = batch * 1000 + k + 1;
            return [id, 'node', id, 43.7, 7.4, null, 'MC', { 'addr:city': `${city}${id}` }];
          }).flat(),
        );
      thread.derive(file);
      const started = performance.now();
      expect(thread.result()).toBeNull();
      expect(performance.now() - started).toBeLessThan(20_000);
    } finally {
      await thread.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
