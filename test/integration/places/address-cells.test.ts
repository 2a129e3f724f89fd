// An import derives every place's address cell by cell (store/addresses.ts), so that memory does
// not grow with the country: the answer must be the one a single context of every feature gives.
import { describe, expect, it } from 'vitest';
import { AddressContext } from '../../../src/places/model/address-context.js';
import { derivedText, hasOwnAddress } from '../../../src/places/model/address-features.js';
import type { Tags } from '../../../src/places/model/categories.js';
import { formatAddress } from '../../../src/places/model/osm.js';
import { CELL_DEG, featureOfRow } from '../../../src/places/store/addresses.js';
import { EXTRACTS, tempDb } from '../../support/places.js';

describe('addresses derived cell by cell at import', () => {
  it("are every place's address from one context of every feature (Vancouver)", async () => {
    const db = await tempDb({ extracts: [EXTRACTS.vancouver] });
    try {
      const features = (
        await db.rows<Record<string, unknown>>('select osm_type, osm_id, kind, data from address_context order by id')
      ).map(featureOfRow);
      const whole = new AddressContext(features);
      const places = await db.rows<{
        lat: number;
        lon: number;
        address: string | null;
        address_source: string | null;
        country: string | null;
        tags: string | null;
      }>(
        `select p.lat, p.lon, p.address, p.address_source, p.country, t.tags
        from places p left join place_tags t on t.id = p.id where p.osm_type <> 'own'`,
      );
      const cells = new Set(places.map((p) => `${Math.floor(p.lat / CELL_DEG)}/${Math.floor(p.lon / CELL_DEG)}`));
      expect(cells.size).toBeGreaterThan(10); // the places span many cells
      const differing = places.filter((place) => {
        const tags = place.tags ? (JSON.parse(place.tags) as Tags) : {};
        let expected: [string | null, string | null] = [formatAddress(tags, place.country), null];
        if (!hasOwnAddress(tags)) {
          const derived = whole.derive(Number(place.lat), Number(place.lon));
          const text = derived ? derivedText(derived, place.country, tags) : null;
          if (text) expected = [text, derived!.source];
        }
        return expected[0] !== place.address || expected[1] !== place.address_source;
      });
      expect(places.length).toBeGreaterThan(4500);
      expect(differing).toEqual([]);
    } finally {
      await db.close();
    }
  }, 120_000);
});
