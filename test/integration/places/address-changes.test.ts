// Addresses follow change files and replication updates, on both engines: a new address point, a
// renamed street, a moved place and a new building change the derived addresses they reach, and
// only those; a place's own address and the admin's places are left as they are.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyChange } from '../../../src/places/sources/changes/index.js';
import { parseOsmChange } from '../../../src/places/sources/changes/parse.js';
import { planChanges, type ChangeSummary } from '../../../src/places/sources/changes/plan.js';
import { toPlace } from '../../../src/places/model/osm.js';
import type { ContextFeature } from '../../../src/places/model/address-context.js';
import { importInputs } from '../../../src/places/sources/import/index.js';
import { tempDb, type TempDb } from '../../support/places.js';
import { at, node, osmChange, osmFile, way } from '../../support/osm-xml.js';

describe('addresses after changes', () => {
  let db: TempDb;
  const address = async (id: number) => {
    const place = await db.index.getByOsmId('node', id);
    return { address: place?.address ?? null, source: place?.addressSource ?? null };
  };

  beforeAll(async () => {
    db = await tempDb();
    // Old Street runs east-west at y = 0; Far Road 2 km north. A pharmacy 20 m north of Old
    // Street, a bakery 20 m south of Far Road, a shop with its own address 60 m from the pharmacy.
    const xml = osmFile(`
      ${node(1, -300, 0)}${node(2, 300, 0)}${node(3, -300, 2000)}${node(4, 300, 2000)}
      ${node(10, 0, 20, { amenity: 'pharmacy', name: 'Farmacia' })}
      ${node(11, 0, 1980, { shop: 'bakery', name: 'Forno' })}
      ${node(12, 60, 20, { shop: 'supermarket', name: 'Mercato', 'addr:street': 'Via Propria', 'addr:housenumber': '1' })}
      ${node(13, 0, 1000, { place: 'town', name: 'Borgo' })}
      ${way(100, [1, 2], { highway: 'residential', name: 'Old Street' })}
      ${way(101, [3, 4], { highway: 'residential', name: 'Far Road' })}
    `);
    const file = join(db.dir, 'town.osm');
    writeFileSync(file, xml);
    await importInputs(db.index, [file], { source: 'town' });
  });
  afterAll(() => db.close());

  it('derives at import: the nearest street and the town', async () => {
    expect(await address(10)).toEqual({ address: 'Old Street, Borgo', source: 'nearby' });
    expect(await address(11)).toEqual({ address: 'Far Road, Borgo', source: 'nearby' });
    expect(await address(12)).toEqual({ address: 'Via Propria, 1', source: null });
  });

  it('a renamed street changes the addresses on it, and only those', async () => {
    const summary = await applyChange(
      db.index,
      osmChange(`<modify>${way(100, [1, 2], { highway: 'residential', name: 'New Street' }, 2)}</modify>`),
      { source: 'town' },
    );
    expect(await address(10)).toEqual({ address: 'New Street, Borgo', source: 'nearby' });
    expect(await address(11)).toEqual({ address: 'Far Road, Borgo', source: 'nearby' });
    // and its place page's parts, kept with it
    expect((await db.index.placeWithAddressParts('node', 10))?.parts).toMatchObject({
      source: 'nearby',
      street: 'New Street',
      housenumber: null,
      postcode: null,
      city: 'Borgo',
    });
    // the pharmacy and the shop are within reach of the street; the bakery 2 km away is not
    expect(summary.addresses).toEqual({ derived: 2, changed: 1 });
  });

  it('a new address point nearer than the street gives its street', async () => {
    const summary = await applyChange(
      db.index,
      osmChange(`<create>${node(20, 5, 25, { 'addr:street': 'Vicolo Corto', 'addr:housenumber': '7' })}</create>`),
      { source: 'town' },
    );
    expect(await address(10)).toEqual({ address: 'Vicolo Corto, Borgo', source: 'nearby' });
    expect(summary.addresses?.changed).toBe(1);
    // and its removal gives the street back
    await applyChange(db.index, osmChange(`<delete>${node(20, 5, 25, {}, 2)}</delete>`), { source: 'town' });
    expect(await address(10)).toEqual({ address: 'New Street, Borgo', source: 'nearby' });
  });

  it('a new building with an address gives it to the places in it, with its number', async () => {
    const body = `<create>${node(30, -10, 10)}${node(31, 10, 10)}${node(32, 10, 30)}${node(33, -10, 30)}
      ${way(200, [30, 31, 32, 33, 30], { building: 'yes', 'addr:street': 'New Street', 'addr:housenumber': '4', 'addr:postcode': '20100' })}</create>`;
    await applyChange(db.index, osmChange(body), { source: 'town' });
    expect(await address(10)).toEqual({ address: 'New Street, 4, 20100 Borgo', source: 'building' });
    expect((await db.index.placeWithAddressParts('node', 10))?.parts).toMatchObject({
      source: 'building',
      street: 'New Street',
      housenumber: '4',
      postcode: '20100',
      city: 'Borgo',
    });
    // a place with its own address keeps it
    expect(await address(12)).toEqual({ address: 'Via Propria, 1', source: null });
  });

  it('a moved place gets the address of where it is now', async () => {
    await applyChange(
      db.index,
      osmChange(`<modify>${node(11, 100, 5, { shop: 'bakery', name: 'Forno' }, 2)}</modify>`),
      {
        source: 'town',
      },
    );
    expect(await address(11)).toEqual({ address: 'New Street, Borgo', source: 'nearby' });
  });

  it('a change and its addresses are written together or not at all', async () => {
    const change = osmChange(`<create>${node(40, 100, 20, { amenity: 'cafe', name: 'Caffè' })}</create>`);
    const source = { name: 'town', sequence: 77, dataTimestamp: null, replicationUrl: null };
    const summary: ChangeSummary = { created: 0, modified: 0, deleted: 0, skippedOlder: 0, unknownLocations: 0 };
    // the process stops after the places are written, before their addresses are derived
    const crash = db.index.applyChanges(
      planChanges(parseOsmChange(change, 'crash'), source, Date.now(), summary),
      () => {
        throw new Error('stopped');
      },
    );
    await expect(crash).rejects.toThrow('stopped');
    expect(await db.index.getByOsmId('node', 40)).toBeNull();
    expect((await db.index.getSource('town'))?.sequence).not.toBe(77);
    // the same change again, whole: the new place has its address
    await applyChange(db.index, change, { source: 'town', sequence: 77 });
    expect(await address(40)).toEqual({ address: 'New Street, Borgo', source: 'nearby' });
    expect((await db.index.getSource('town'))?.sequence).toBe(77);
  });

  it("an import's places and addresses are written together or not at all", async () => {
    const writer = db.index.importWriter(Date.now());
    const p = at(200, 20);
    writer.add(toPlace('node', 50, p.lat, p.lon, { amenity: 'bar', name: 'Bar' })!);
    // the address step fails inside the commit (a feature of no known kind breaks a constraint)
    const broken = {
      osmType: 'node',
      osmId: 51,
      kind: 'nothing',
      coords: [p.lon, p.lat],
      tags: {},
    } as unknown as ContextFeature;
    await expect(writer.commit([{ source: 'town', put: [broken], remove: [], within: 'all' }])).rejects.toThrow();
    expect(await db.index.getByOsmId('node', 50)).toBeNull();
    // whole, the import stores the place with its address
    const again = db.index.importWriter(Date.now());
    again.add(toPlace('node', 50, p.lat, p.lon, { amenity: 'bar', name: 'Bar' })!);
    const written = await again.commit([{ source: 'town', put: [], remove: [], within: 'all' }]);
    expect(written.addresses?.withAddress).toBeGreaterThan(0);
    expect(await address(50)).toEqual({ address: 'New Street, Borgo', source: 'nearby' });
  });

  it('answers say where an address comes from', async () => {
    const place = await db.index.getByOsmId('node', 12);
    expect(place?.addressSource).toBeNull();
    const rows = await db.rows<{ n: number }>("select count(*) as n from address_context where kind = 'street'");
    expect(Number(rows[0].n)).toBe(2);
  });
});
