// GET /api/places/<type>/<id> and places.get: one place with the fields of a search result plus
// its week of opening hours in its own time zone, on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testClock, type TestApp } from '../../helpers.js';
import { EXTRACTS, placesCaller, zonedTime } from '../../support/places.js';

// Wednesday 18 November 2026, 12:00 in Vancouver.
const WEDNESDAY_NOON_PST = zonedTime('2026-11-18T12:00:00', 'America/Vancouver');

describe('one place', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ clock: testClock(WEDNESDAY_NOON_PST), imported: { extracts: [EXTRACTS.vancouver] } });
  });
  afterAll(() => t.close());

  it('answers the fields of a search result plus the week in the place’s time zone', async () => {
    const response = await t.request({ method: 'GET', url: '/api/places/node/799580956' });
    expect(response.statusCode).toBe(200);
    const place = response.json();
    expect(place).toMatchObject({
      id: 'node/799580956',
      name: 'London Drugs',
      address: '3328 Kingsway, Vancouver V5R 5L1',
      phone_number: '+1 604 448 4828',
      category: 'pharmacy',
      status: 'open',
      status_label: 'Open now',
      opening_hours: 'Mo-Sa 09:00-22:00; Su 10:00-20:00; PH 09:00-21:00',
      timezone: 'America/Vancouver',
    });
    expect(place).not.toHaveProperty('distance');
    expect(place.categories[0]).toBe('pharmacy');
    const days = place.hours.days;
    expect(days.map((d: { date: string }) => d.date)).toEqual([
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
    ]);
    expect(days.filter((d: { today: boolean }) => d.today).map((d: { weekday: number }) => d.weekday)).toEqual([2]);
    expect(days[2].intervals).toEqual([{ from: '09:00', to: '22:00' }]);
    expect(days[6].intervals).toEqual([{ from: '10:00', to: '20:00' }]);
    // Closes at 22:00 Vancouver time.
    expect(place.hours.next_change).toEqual({
      at: new Date(zonedTime('2026-11-18T22:00:00', 'America/Vancouver')).toISOString(),
      local_time: '22:00',
      weekday: 2,
      opens: false,
      in_minutes: 600,
    });
  });

  it('gives the distance from lat/lon and names in the language asked', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/api/places/node/799580956?lat=49.2328094&lon=-123.0451511&lang=es',
    });
    const place = response.json();
    expect(place.distance).toBeGreaterThan(0.7);
    expect(place.distance).toBeLessThan(0.75);
    expect(place.status_label).toBe('Abierto ahora');
  });

  it('answers 404 for an unknown place and 400 naming the field for a bad one', async () => {
    const missing = await t.request({ method: 'GET', url: '/api/places/way/1' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Place not found' });
    const badType = await t.request({ method: 'GET', url: '/api/places/planet/1' });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().error).toMatch(/^type: /);
    const badId = await t.request({ method: 'GET', url: '/api/places/node/abc' });
    expect(badId.json().error).toMatch(/^id: /);
    const halfPosition = await t.request({ method: 'GET', url: '/api/places/node/799580956?lat=49' });
    expect(halfPosition.json().error).toBe('lon: is required with lat');
  });

  it('is the places.get procedure', async () => {
    const caller = placesCaller(t);
    const place = await caller.get({ type: 'node', id: 799580956 });
    expect(place.name).toBe('London Drugs');
    await expect(caller.get({ type: 'relation', id: 5 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
