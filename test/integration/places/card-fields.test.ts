// What a card says beyond the basics, on both engines: names for unnamed places, the wheelchair
// filter, and "open when you get there" (travel minutes and the status on arrival, in the place's
// own time zone: across midnight, on a public holiday, on a daylight-saving day).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlaceStore } from '../../../src/places/store/index.js';
import { toPlace, type PlaceRecord } from '../../../src/places/model/osm.js';
import { travelMinutes } from '../../../src/places/model/travel.js';
import { buildTestApp, testClock, type TestApp } from '../../helpers.js';
import { placesCaller, writeImported, zonedTime } from '../../support/places.js';

// Paris: France's public holidays are known to the hours library.
const CENTRE = { lat: 48.8566, lon: 2.3522 };
/** ~1 km north of the centre: 16 minutes on foot, 5 by bike, 3 by car */
const KM_NORTH = CENTRE.lat + 0.009;
let nextId = 1;
const place = (tags: Record<string, string>, lat = KM_NORTH, lon = CENTRE.lon): PlaceRecord =>
  toPlace('node', nextId++, lat, lon, tags)!;

describe('card fields', () => {
  let t: TestApp;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await buildTestApp({ clock: testClock(zonedTime('2026-11-18T12:00:00', 'Europe/Paris')) });
    const named: [string, PlaceRecord][] = [
      [
        'named',
        place(
          { amenity: 'pharmacy', name: 'Pharmacie du Centre', wheelchair: 'yes', opening_hours: 'Mo-Su 08:00-20:00' },
          CENTRE.lat + 0.001,
        ),
      ],
      [
        'brand',
        place(
          { amenity: 'pharmacy', brand: 'Pharmavie', 'brand:es': 'Farmavida', operator: 'SA X', wheelchair: 'limited' },
          CENTRE.lat + 0.002,
        ),
      ],
      [
        'operator',
        place({ amenity: 'pharmacy', operator: 'Mutuelle Y', wheelchair: 'designated' }, CENTRE.lat + 0.003),
      ],
      ['bare', place({ amenity: 'pharmacy', wheelchair: 'no' }, CENTRE.lat + 0.004)],
      [
        'unknownAccess',
        place(
          { amenity: 'pharmacy', name: 'Pharmacie Inconnue', opening_hours: 'Mo-Su 08:00-20:00' },
          CENTRE.lat + 0.005,
        ),
      ],
      ['midnight', place({ amenity: 'restaurant', name: 'Late Bistro', opening_hours: 'Mo-Su 18:00-02:00' })],
      ['evening', place({ shop: 'supermarket', name: 'Supérette du Soir', opening_hours: 'Mo-Su 08:00-19:00' })],
      ['holiday', place({ shop: 'bakery', name: 'Boulangerie', opening_hours: 'Mo-Su 07:00-24:00; PH off' })],
      ['dst', place({ leisure: 'fitness_centre', name: 'Nuit Gym', opening_hours: 'Mo-Su 03:00-05:00' })],
    ];
    for (const [key, record] of named) ids[key] = `node/${record.osmId}`;
    // a store on the app's handle: the app's reads hold what it wrote when the write returns
    await writeImported(
      createPlaceStore(t.handle),
      named.map(([, record]) => record),
    );
  });
  afterAll(() => t.close());

  const search = async (query: string) => {
    const response = await t.request({
      method: 'GET',
      url: `/api/places?lat=${CENTRE.lat}&lon=${CENTRE.lon}&${query}`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().results as Record<string, unknown>[];
  };
  const byId = (results: Record<string, unknown>[]) => Object.fromEntries(results.map((r) => [r.id, r]));

  it('names a place without a name by its brand (in the language asked), its operator, else its category, marked unnamed', async () => {
    for (const lang of ['en', 'es'] as const) {
      const results = byId(await search(`active_categories=pharmacy&lang=${lang}`));
      expect(results[ids.named]).toMatchObject({ name: 'Pharmacie du Centre', unnamed: false });
      expect(results[ids.brand]).toMatchObject({ name: lang === 'es' ? 'Farmavida' : 'Pharmavie', unnamed: false });
      expect(results[ids.operator]).toMatchObject({ name: 'Mutuelle Y', unnamed: false });
      expect(results[ids.bare]).toMatchObject({ name: lang === 'es' ? 'Farmacia' : 'Pharmacy', unnamed: true });
    }
    // the objects of tRPC say the same as the JSON text
    const objects = await placesCaller(t).search({
      active_categories: ['pharmacy'],
      lat: CENTRE.lat,
      lon: CENTRE.lon,
      open_now: false,
    });
    expect(objects.results.map((r) => [r.id, r.name, r.unnamed])).toEqual(
      (await search('active_categories=pharmacy')).map((r) => [r.id, r.name, r.unnamed]),
    );
    // and so does the place's page
    const page = await t.request({ method: 'GET', url: `/api/places/${ids.bare}?lang=fr` });
    expect(page.json()).toMatchObject({ name: 'Pharmacie', unnamed: true });
  });

  it('keeps places marked accessible for wheelchair=yes, and limited ones too for wheelchair=limited', async () => {
    const yes = (await search('active_categories=pharmacy&wheelchair=yes')).map((r) => r.id);
    expect(yes).toEqual([ids.named, ids.operator]);
    const limited = (await search('active_categories=pharmacy&wheelchair=limited')).map((r) => r.id);
    expect(limited).toEqual([ids.named, ids.brand, ids.operator]);
    const all = (await search('active_categories=pharmacy')).map((r) => r.wheelchair);
    expect(all).toEqual(['yes', 'limited', 'yes', 'no', null]);
    // with open now (only the named one has hours) and with several categories
    expect((await search('active_categories=pharmacy&wheelchair=yes&open_now=1')).map((r) => r.id)).toEqual([
      ids.named,
    ]);
    expect((await search('active_categories=pharmacy,restaurant&wheelchair=limited')).map((r) => r.id)).toEqual([
      ids.named,
      ids.brand,
      ids.operator,
    ]);
    const objects = await placesCaller(t).search({
      active_categories: ['pharmacy'],
      lat: CENTRE.lat,
      lon: CENTRE.lon,
      open_now: false,
      wheelchair: 'limited',
    });
    expect(objects.results.map((r) => r.id)).toEqual(limited);
    const bad = await t.request({
      method: 'GET',
      url: `/api/places?lat=1&lon=1&active_categories=pharmacy&wheelchair=maybe`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^wheelchair: /);
  });

  it('gives travel minutes from the distance, a detour factor and a speed per mode', async () => {
    const [walk] = await search(`active_categories=supermarket&travel=walk`);
    const km = walk.distance as number;
    expect(walk.travel_minutes).toBe(travelMinutes(km, 'walk'));
    expect(walk.travel_minutes).toBe(16);
    expect((await search(`active_categories=supermarket&travel=bike`))[0].travel_minutes).toBe(5);
    expect((await search(`active_categories=supermarket&travel=drive`))[0].travel_minutes).toBe(3);
    // without travel, no trip fields
    expect((await search(`active_categories=supermarket`))[0]).not.toHaveProperty('travel_minutes');
    const bad = await t.request({
      method: 'GET',
      url: `/api/places?lat=1&lon=1&active_categories=supermarket&travel=fly`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^travel: /);
  });

  it('says a place that closes on the way is closed on arrival, and open_now with travel leaves it out', async () => {
    t.clock.set(zonedTime('2026-11-18T18:50:00', 'Europe/Paris'));
    const [cafe] = await search('active_categories=supermarket&travel=walk');
    expect(cafe).toMatchObject({
      status: 'closing_soon',
      status_on_arrival: 'closed',
      status_on_arrival_label: 'Closed when you arrive (closes 19:00)',
    });
    expect(await search('active_categories=supermarket&travel=walk&open_now=1')).toEqual([]);
    expect((await search('active_categories=supermarket&open_now=1')).map((r) => r.id)).toEqual([ids.evening]);
    // by car it is still open: 18:53
    const [byCar] = await search('active_categories=supermarket&travel=drive&open_now=1&lang=fr');
    expect(byCar).toMatchObject({
      status_on_arrival: 'closing_soon',
      status_on_arrival_label: 'Ouvert, ferme à 19:00 (vous arrivez à 18:53 en voiture)',
    });
    const objects = await placesCaller(t).search({
      active_categories: ['supermarket'],
      lat: CENTRE.lat,
      lon: CENTRE.lon,
      open_now: true,
      travel: 'drive',
      lang: 'fr',
    });
    expect(objects.results).toEqual([byCar]);
  });

  it('follows the hours across midnight', async () => {
    t.clock.set(zonedTime('2026-11-18T23:50:00', 'Europe/Paris'));
    const [late] = await search('active_categories=restaurant&travel=walk&open_now=1');
    expect(late).toMatchObject({
      id: ids.midnight,
      travel_minutes: 16,
      status_on_arrival: 'open',
      status_on_arrival_label: 'Open, closes 02:00 (you arrive 00:06 on foot)',
    });
    const [spanish] = await search('active_categories=restaurant&travel=bike&lang=es');
    expect(spanish.status_on_arrival_label).toBe('Abierto, cierra a las 02:00 (llegas a las 23:55 en bici)');
  });

  it('knows a public holiday that starts on the way (PH off)', async () => {
    // 14 July is a public holiday in France: open until midnight on the 13th, closed on the 14th.
    t.clock.set(zonedTime('2026-07-13T23:50:00', 'Europe/Paris'));
    const [bakery] = await search('active_categories=bakery&travel=walk');
    expect(bakery).toMatchObject({
      status: 'closing_soon',
      status_on_arrival: 'closed',
      status_on_arrival_label: 'Closed when you arrive (closes 00:00)',
    });
    t.clock.set(zonedTime('2026-07-14T10:00:00', 'Europe/Paris'));
    const [holiday] = await search('active_categories=bakery&travel=walk&lang=it');
    expect(holiday).toMatchObject({
      status: 'closed',
      status_on_arrival: 'closed',
      status_on_arrival_label: 'Chiuso quando arrivi (apre alle 07:00)',
    });
    expect(await search('active_categories=bakery&travel=walk&open_now=1')).toEqual([]);
  });

  it('counts the hour that daylight saving skips', async () => {
    // 29 March 2026: Paris's clocks go from 02:00 to 03:00. Leaving at 01:50, on foot, one arrives at 03:06.
    t.clock.set(zonedTime('2026-03-29T01:50:00', 'Europe/Paris'));
    const [snack] = await search('active_categories=gym&travel=walk&open_now=1&lang=pt');
    expect(snack).toMatchObject({
      status: 'closed',
      status_on_arrival: 'open',
      status_on_arrival_label: 'Aberto, fecha às 05:00 (chega às 03:06 a pé)',
    });
  });
});
