// Addresses from context, on small made-up neighbourhoods: the building a place stands in, else
// the nearest address point or named street within reach, plus the town and a postcode.
import { describe, expect, it } from 'vitest';
import { AddressContext, type ContextFeature } from '../../../src/places/model/address-context.js';
import { addressTags, contextKind, derivedText } from '../../../src/places/model/address-features.js';
import { sameStreet, sameStreetBy } from '../../../src/places/sources/addresses/hiding.js';

const M = 1 / 111_195; // a metre of latitude, in degrees
const LAT = 45;
const MLON = M / Math.cos((LAT * Math.PI) / 180); // a metre of longitude here
const LON = 7;
/** [lon, lat] of a point `x` metres east and `y` north of the origin */
const at = (x: number, y: number) => [LON + x * MLON, LAT + y * M];
const point = (id: number, x: number, y: number, tags: ContextFeature['tags']): ContextFeature => ({
  osmType: 'node',
  osmId: id,
  kind: 'point',
  coords: at(x, y),
  tags,
});
const square = (
  id: number,
  x: number,
  y: number,
  size: number,
  tags: ContextFeature['tags'],
  hole?: number,
): ContextFeature => {
  const ring = (x0: number, y0: number, s: number) => [
    ...at(x0, y0),
    ...at(x0 + s, y0),
    ...at(x0 + s, y0 + s),
    ...at(x0, y0 + s),
  ];
  const outer = ring(x, y, size);
  if (hole === undefined) return { osmType: 'way', osmId: id, kind: 'area', coords: outer, tags };
  const inner = ring(x + (size - hole) / 2, y + (size - hole) / 2, hole);
  return { osmType: 'relation', osmId: id, kind: 'area', coords: [...outer, ...inner], parts: [0, 4], tags };
};
const street = (id: number, name: string, ...xy: [number, number][]): ContextFeature => ({
  osmType: 'way',
  osmId: id,
  kind: 'street',
  coords: xy.flatMap(([x, y]) => at(x, y)),
  tags: { name },
});
const town = (id: number, name: string, x: number, y: number, extentM: number): ContextFeature => ({
  osmType: 'node',
  osmId: id,
  kind: 'locality',
  coords: at(x, y),
  tags: { name },
  extentM,
});
const derive = (context: AddressContext, x: number, y: number) => {
  const [lon, lat] = at(x, y);
  return context.derive(lat, lon);
};

describe('addresses from context', () => {
  const context = new AddressContext([
    square(1, 0, 0, 20, { housenumber: '12', street: 'Rue Grimaldi', postcode: '98000' }),
    // a block with a courtyard: the courtyard is not in the building
    square(2, 100, 0, 40, { housenumber: '3', street: 'Avenue de la Costa' }, 20),
    // a mall with an address, and a shop unit inside it with its own
    square(3, 200, 0, 100, { housenumber: '1', street: 'Boulevard du Larvotto' }),
    square(4, 210, 10, 10, { housenumber: '1bis', street: 'Boulevard du Larvotto' }),
    point(5, 0, 200, { housenumber: '7', street: 'Rue Basse', postcode: '98001' }),
    point(6, 25, 200, { housenumber: '9', street: 'Rue Basse' }),
    street(7, 'Quai Antoine Ier', [-500, 400], [500, 400]),
    town(8, 'Monaco', 0, 0, 15_000),
    town(9, 'Beausoleil', 3000, 3000, 4_000),
  ]);

  it('gives a place the address of the building it stands in, with the town around it', () => {
    expect(derive(context, 10, 10)).toEqual({
      source: 'building',
      street: 'Rue Grimaldi',
      housenumber: '12',
      postcode: '98000',
      city: 'Monaco',
    });
    expect(derivedText(derive(context, 10, 10)!, 'MC')).toBe('12 Rue Grimaldi, 98000 Monaco');
    expect(derivedText(derive(context, 10, 10)!, 'ES')).toBe('Rue Grimaldi, 12, 98000 Monaco');
  });

  it('reads a multipolygon even-odd: the courtyard is outside', () => {
    expect(derive(context, 105, 5)).toMatchObject({ source: 'building', street: 'Avenue de la Costa' });
    expect(derive(context, 120, 20)?.source).not.toBe('building');
  });

  it('takes the street nearby where the building holds a number without its street', () => {
    const numberOnly = new AddressContext([
      square(1, 0, 0, 20, { housenumber: '4' }),
      street(2, 'Rue Suffren Reymond', [-500, 30], [500, 30]),
    ]);
    expect(derive(numberOnly, 10, 10)).toMatchObject({
      source: 'nearby',
      street: 'Rue Suffren Reymond',
      housenumber: null,
    });
  });

  it("gives a place on a building's wall that building's street, not its number", () => {
    const wall = new AddressContext([
      square(1, 0, 0, 20, { housenumber: '12', street: 'Rue Grimaldi' }),
      street(2, 'Rue Comte Félix Gastaldi', [22, -500], [22, 500]),
    ]);
    // a shop door mapped on the wall, half a metre outside; the other street 1.5 m away
    expect(derive(wall, 20.5, 10)).toMatchObject({ source: 'nearby', street: 'Rue Grimaldi', housenumber: null });
    // a metre and a half out, it is on the pavement of the other street
    expect(derive(wall, 21.5, 10)?.street).toBe('Rue Comte Félix Gastaldi');
  });

  it('takes the smallest area that holds the place', () => {
    expect(derive(context, 215, 15)).toMatchObject({ source: 'building', housenumber: '1bis' });
    expect(derive(context, 250, 50)).toMatchObject({ source: 'building', housenumber: '1' });
  });

  it('takes the street of the nearest address point within 40 m, never its number', () => {
    expect(derive(context, 3, 200)).toMatchObject({
      source: 'nearby',
      street: 'Rue Basse',
      housenumber: null,
      postcode: '98001',
    });
    expect(derive(context, 0, 235)).toMatchObject({ source: 'nearby', street: 'Rue Basse', housenumber: null });
    expect(derivedText(derive(context, 3, 200)!, 'MC')).toBe('Rue Basse, 98001 Monaco');
  });

  it('counts a main road as nearer than a side street', () => {
    const corner = new AddressContext([
      { ...street(1, 'Side Street', [20, -500], [20, 500]), tags: { name: 'Side Street', highway: 'residential' } },
      { ...street(2, 'Main Road', [-500, 30], [500, 30]), tags: { name: 'Main Road', highway: 'primary' } },
    ]);
    // 10 m from the side street, 20 m from the main road (counted as 10 x 1, 20 x 0.5): a tie goes by order
    expect(derive(corner, 10, 10)?.street).toBe('Side Street');
    expect(derive(corner, 10, 12)?.street).toBe('Main Road');
  });

  it('counts a square as nearer than a side street, whatever its class', () => {
    const corner = new AddressContext([
      {
        ...street(1, 'Rue Terrazzani', [20, -500], [20, 500]),
        tags: { name: 'Rue Terrazzani', highway: 'residential' },
      },
      { ...street(2, "Place d'Armes", [-500, 30], [500, 30]), tags: { name: "Place d'Armes", highway: 'pedestrian' } },
    ]);
    // 10 m from the side street, 15 m from the square's way (counted as 15 x 0.6)
    expect(derive(corner, 10, 15)?.street).toBe("Place d'Armes");
    // a street named "Place" last is a street like any other
    const english = new AddressContext([
      { ...street(1, 'Hornby Street', [20, -500], [20, 500]), tags: { name: 'Hornby Street', highway: 'residential' } },
      { ...street(2, 'Canada Place', [-500, 30], [500, 30]), tags: { name: 'Canada Place', highway: 'residential' } },
    ]);
    expect(derive(english, 10, 15)?.street).toBe('Hornby Street');
  });

  it("counts a street the neighbours' addresses name as nearer than one they do not", () => {
    const corner = [
      { ...street(1, 'Smithe Street', [20, -500], [20, 500]), tags: { name: 'Smithe Street', highway: 'secondary' } },
      { ...street(2, 'Burrard Street', [-500, 32], [500, 32]), tags: { name: 'Burrard Street', highway: 'secondary' } },
    ];
    // 10 m from one street, 12 m from the other: the nearer wins while no address says anything
    expect(derive(new AddressContext(corner), 10, 20)?.street).toBe('Smithe Street');
    // a building down the block (120 m away, too far to lend its street by itself) is numbered on
    // the other: 12 x 0.8 < 10
    const numbered = new AddressContext([
      ...corner,
      square(3, -130, 36, 20, { housenumber: '900', street: 'Burrard St' }),
    ]);
    expect(derive(numbered, 10, 20)).toMatchObject({ source: 'nearby', street: 'Burrard Street', housenumber: null });
    // past 150 m the neighbours say nothing
    const far = new AddressContext([...corner, square(3, -200, 36, 20, { housenumber: '900', street: 'Burrard St' })]);
    expect(derive(far, 10, 20)?.street).toBe('Smithe Street');
  });

  it("gives a place at a big building's far side the street it is on, not the building's", () => {
    const site = [
      square(1, 0, 0, 120, { housenumber: '1', street: 'Place du Casino' }),
      street(2, 'Place du Casino', [-500, -20], [500, -20]),
      street(3, 'Allée François Blanc', [-500, 126], [500, 126]),
    ];
    // 2 m inside the far wall: 8 m from the side street, 118 m from its own
    expect(derive(new AddressContext(site), 60, 118)).toMatchObject({
      source: 'nearby',
      street: 'Allée François Blanc',
      housenumber: null,
    });
    // near its own street, or not right on another, the building's address holds
    expect(derive(new AddressContext(site), 60, 20)).toMatchObject({ source: 'building', housenumber: '1' });
    expect(derive(new AddressContext(site), 60, 100)).toMatchObject({ source: 'building', housenumber: '1' });
  });

  it('else the nearest named street within 100 m, and past it only the town', () => {
    expect(derive(context, 300, 480)).toMatchObject({
      source: 'nearby',
      street: 'Quai Antoine Ier',
      housenumber: null,
      city: 'Monaco',
    });
    expect(derive(context, 300, 520)).toEqual({
      source: 'nearby',
      street: null,
      housenumber: null,
      postcode: null,
      city: 'Monaco',
    });
    expect(derivedText(derive(context, 300, 520)!, 'MC')).toBe('Monaco');
  });

  it('names a road known only by its number where no named street is in reach', () => {
    const road = (id: number, ...xy: [number, number][]): ContextFeature => ({
      ...street(id, '', ...xy),
      tags: addressTags({ highway: 'primary', ref: 'CG-2' }),
    });
    const roads = new AddressContext([
      road(1, [0, 0], [1000, 0]),
      street(2, 'Avinguda Meritxell', [0, 60], [1000, 60]),
      town(3, 'Encamp', 0, 0, 2_000),
    ]);
    // out of town: 50 m from the road, 110 m from the named street
    expect(derive(roads, 500, -50)?.street).toBe('CG-2');
    // in town the named street 50 m away, though the road is 10 m away and a main road
    expect(derive(roads, 500, 10)?.street).toBe('Avinguda Meritxell');
  });

  it('names the town whose extent holds the place, nearest for its size', () => {
    // 500 m from Beausoleil (a town, 4 km), 4.2 km from Monaco (a city, 15 km)
    expect(derive(context, 3000, 2500)?.city).toBe('Beausoleil');
    // outside every extent: nothing at all
    expect(derive(context, 40_000, 0)).toBeNull();
  });

  it('knows which objects are context', () => {
    expect(contextKind('node', { place: 'town', name: 'X' }, false)).toBe('locality');
    expect(contextKind('node', { place: 'suburb', name: 'X' }, false)).toBeNull();
    expect(contextKind('node', { 'addr:housenumber': '1', 'addr:street': 'A' }, false)).toBe('point');
    expect(contextKind('node', { 'addr:housenumber': '1' }, false)).toBeNull();
    expect(contextKind('way', { building: 'yes', 'addr:housenumber': '1', 'addr:street': 'A' }, true)).toBe('area');
    expect(contextKind('way', { building: 'yes', 'addr:housenumber': '1' }, false)).toBeNull();
    // a number without its street: nothing to derive from
    expect(contextKind('way', { building: 'yes', 'addr:housenumber': '1' }, true)).toBeNull();
    expect(contextKind('way', { highway: 'residential', name: 'A' }, false)).toBe('street');
    expect(contextKind('way', { highway: 'proposed', name: 'A' }, false)).toBeNull();
    // a named quay or slip road is a street; a footway, a motorway's ramp or an unnamed way is not
    expect(contextKind('way', { highway: 'service', name: 'Quai Antoine 1er' }, false)).toBe('street');
    expect(contextKind('way', { highway: 'primary_link', name: 'Rue du Portier' }, false)).toBe('street');
    expect(contextKind('way', { highway: 'service' }, false)).toBeNull();
    expect(contextKind('way', { highway: 'footway', name: 'A' }, false)).toBeNull();
    expect(contextKind('way', { highway: 'motorway_link', name: 'A' }, false)).toBeNull();
    expect(contextKind('relation', { type: 'multipolygon', 'addr:street': 'A' }, false)).toBe('area');
    // a road known only by its number is a street, named by it
    expect(contextKind('way', { highway: 'primary', ref: 'CG-2' }, false)).toBe('street');
    expect(addressTags({ highway: 'primary', ref: 'CG-2;E-09' })).toEqual({
      highway: 'primary',
      name: 'CG-2',
      nameIsRef: true,
      otherNames: ['E-09'],
    });
    // a street's other names, each once, its name not among them
    expect(
      addressTags({ highway: 'primary', name: 'Avinguda Meritxell', ref: 'CG-2', 'name:es': 'Avenida Meritxell' })
        .otherNames,
    ).toEqual(['CG-2', 'Avenida Meritxell']);
  });
});

describe('the hiding measurement compares streets as a reader would', () => {
  it('sees one street through case, accents, articles and abbreviations', () => {
    expect(sameStreet('avinguda Rocafort', 'Av. Rocafort')).toBe(true);
    expect(sameStreet('Carrer del Prat Gran', 'Carrer Prat Gran')).toBe(true);
    expect(sameStreet('Boulevard du Ténao', 'boulevard du tenao')).toBe(true);
    expect(sameStreet('Saint George Street', 'St George St')).toBe(true);
    expect(sameStreet('East 8th Avenue', 'E 8th Ave')).toBe(true);
    expect(sameStreet('Plaça dels Arinsols', 'Plaza dels Arinsols')).toBe(true);
    // a corner: either of its streets
    expect(sameStreet('Rue du Portier', 'Rond-Point du Portier;Rue du Portier')).toBe(true);
  });

  it('keeps streets of another kind apart, as they are on the map', () => {
    expect(sameStreet('West 4th Street', 'West 4th Avenue')).toBe(false);
    expect(sameStreet('Rue des Spélugues', 'Avenue des Spélugues')).toBe(false);
    expect(sameStreet('Avinguda de les Escoles', 'Carrer de les Escoles')).toBe(false);
    expect(sameStreet('Marine Drive', 'Marine Way')).toBe(false);
    expect(sameStreet('Boulevard Albert 1er', 'Quai Albert 1er')).toBe(false);
  });

  it("counts a street's other names, its road number spelt out and a slip of the pen, and says which", () => {
    expect(sameStreetBy('Avinguda Meritxell', 'Av. Meritxell', ['CG-2'])).toBe('name');
    expect(sameStreetBy('Avinguda Meritxell', 'CG-2', ['CG-2'])).toBe('otherName');
    expect(sameStreetBy('CG-2', 'carretera general 2')).toBe('roadNumber');
    expect(sameStreetBy('CG-2', 'Carretera General 3')).toBeNull();
    expect(sameStreetBy('Johnston Street', 'Johnson Street')).toBe('oneEdit');
    expect(sameStreetBy('Allée Saint Jean-Paul II', 'Allée Saimt Jean-Paul II')).toBe('oneEdit');
    expect(sameStreetBy('Avinguda Meritxell', 'Avinguda Meritxlel')).toBe('oneEdit');
    // a number is never the slip; a short name has too few letters to tell a slip from another street
    expect(sameStreetBy('West 4th Avenue', 'West 5th Avenue')).toBeNull();
    expect(sameStreetBy('Rue Bel', 'Rue Bal')).toBeNull();
    // two letters moved apart are two slips
    expect(sameStreetBy('Avinguda Meritxell', 'Avigunda Meritxell')).toBeNull();
  });
});
