// A place page's address parts, derived with its address text from the context features that
// reach the place, however tall: an address point beside it, a town whose extent starts
// kilometres south of it, a street 30 km long running past it; on both engines.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importInputs } from '../../../src/places/sources/import/index.js';
import { tempDb, type TempDb } from '../../support/places.js';
import { node, osmFile, way } from '../../support/osm-xml.js';

describe('address parts of a place page', () => {
  let db: TempDb;

  beforeAll(async () => {
    db = await tempDb();
    // Long Road runs 30 km north-south (0.27 degrees: the tallest tier), 30 m west of the
    // pharmacy; the town of Borgo 3 km south (its 4 km extent reaches the pharmacy); an address
    // point 120 m north gives its postcode. A bakery 25 km north is beyond the road's end.
    const xml = osmFile(`
      ${node(1, -30, -15000)}${node(2, -30, 15000)}
      ${node(10, 0, 0, { amenity: 'pharmacy', name: 'Farmacia' })}
      ${node(11, 0, 25000, { shop: 'bakery', name: 'Forno' })}
      ${node(13, 0, -3000, { place: 'town', name: 'Borgo' })}
      ${node(20, 0, 120, { 'addr:street': 'Long Road', 'addr:housenumber': '9', 'addr:postcode': '20100' })}
      ${way(100, [1, 2], { highway: 'residential', name: 'Long Road' })}
    `);
    const file = join(db.dir, 'road.osm');
    writeFileSync(file, xml);
    await importInputs(db.index, [file], { source: 'road' });
  });
  afterAll(() => db.close());

  it('finds features of every height tier that reach the place', async () => {
    const heights = await db.rows<{ kind: string; height: number }>(
      'select kind, max_lat - min_lat as height from address_context order by kind',
    );
    // one feature per tier: at most 0.01 degrees, at most 0.1, taller
    expect(
      heights.map(({ kind, height }) => [kind, Number(height) <= 0.01 ? 0 : Number(height) <= 0.1 ? 1 : 2]),
    ).toEqual([
      ['locality', 1],
      ['point', 0],
      ['street', 2],
    ]);
    expect((await db.index.placeWithAddressParts('node', 10))?.parts).toEqual({
      source: 'nearby',
      street: 'Long Road',
      housenumber: null,
      postcode: '20100',
      city: 'Borgo',
      country: 'IT',
    });
    expect((await db.index.placeWithAddressParts('node', 10))?.place).toEqual(await db.index.getByOsmId('node', 10));
    expect((await db.index.getByOsmId('node', 10))?.address).toBe('Long Road, 20100 Borgo');
  });

  it('finds none beyond their reach', async () => {
    expect((await db.index.placeWithAddressParts('node', 11))?.parts).toBeNull();
  });
});
