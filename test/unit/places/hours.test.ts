// Issue 3, point 4: open now, at the place's own local time, with a fixed clock.
import { afterEach, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../src/i18n.js';
import {
  freshOpeningStatus,
  openingStatus,
  shiftedTime,
  STATUS_LABELS,
  statusLabel,
  type HoursPlace,
} from '../../../src/places/model/hours.js';
import { zonedTime } from '../../support/places.js';

const vancouver = (openingHours: string | null): HoursPlace => ({
  openingHours,
  lat: 49.2827,
  lon: -123.1207,
  timezone: 'America/Vancouver',
  country: 'CA',
});
const monaco = (openingHours: string | null): HoursPlace => ({
  openingHours,
  lat: 43.7384,
  lon: 7.4246,
  timezone: 'Europe/Monaco',
  country: 'MC',
});
/** An instant given as Vancouver wall-clock time in November (PST, UTC-8). */
const pst = (isoLocal: string) => zonedTime(isoLocal, 'America/Vancouver');

/** null: TZ unset (the system's zone); '': TZ set to nothing (UTC) */
const serverZones = ['UTC', 'Asia/Tokyo', 'America/New_York', 'Pacific/Kiritimati', null, ''];
const originalTz = process.env.TZ;
const setServerZone = (zone: string | null | undefined) => {
  if (zone === null || zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
};
afterEach(() => setServerZone(originalTz));

/** Runs the check with the server in several time zones: the answer must not change. */
function inEveryServerZone(check: () => void) {
  for (const zone of serverZones) {
    setServerZone(zone);
    check();
  }
}

describe('openingStatus', () => {
  it('24/7 is open at any time', () => {
    inEveryServerZone(() => {
      expect(openingStatus(vancouver('24/7'), pst('2026-11-21T03:00:00'))).toBe('open');
      expect(openingStatus(vancouver('24/7'), pst('2026-11-23T23:59:00'))).toBe('open');
    });
  });

  it('a plain weekly schedule: open inside, closed outside and on days off', () => {
    const place = vancouver('Mo-Fr 09:00-17:00; Sa 10:00-14:00');
    inEveryServerZone(() => {
      expect(openingStatus(place, pst('2026-11-18T12:00:00'))).toBe('open'); // Wednesday noon
      expect(openingStatus(place, pst('2026-11-18T08:59:00'))).toBe('closed');
      expect(openingStatus(place, pst('2026-11-18T17:00:00'))).toBe('closed');
      expect(openingStatus(place, pst('2026-11-21T11:00:00'))).toBe('open'); // Saturday
      expect(openingStatus(place, pst('2026-11-22T11:00:00'))).toBe('closed'); // Sunday
    });
  });

  it('hours past midnight belong to the evening they start in', () => {
    const bar = vancouver('Fr 18:00-02:00');
    inEveryServerZone(() => {
      expect(openingStatus(bar, pst('2026-11-20T23:00:00'))).toBe('open'); // Friday night
      expect(openingStatus(bar, pst('2026-11-21T00:30:00'))).toBe('open'); // Saturday 00:30
      expect(openingStatus(bar, pst('2026-11-21T01:30:00'))).toBe('closing_soon');
      expect(openingStatus(bar, pst('2026-11-21T02:30:00'))).toBe('closed');
      expect(openingStatus(bar, pst('2026-11-21T23:00:00'))).toBe('closed'); // Saturday night
    });
  });

  it('uses the place’s own time zone, not the server’s', () => {
    const shop = vancouver('Mo-Su 09:00-17:00');
    // 20:00 UTC is noon in Vancouver and 21:00 in Monaco
    const instant = Date.parse('2026-11-21T20:00:00Z');
    inEveryServerZone(() => {
      expect(openingStatus(shop, instant)).toBe('open');
      expect(openingStatus(monaco('Mo-Su 09:00-17:00'), instant)).toBe('closed');
      expect(openingStatus(monaco('Mo-Su 20:00-23:00'), instant)).toBe('open');
    });
  });

  it('closing within 60 minutes is closing_soon; 30 minutes before, and exactly 60', () => {
    const place = vancouver('Mo-Su 09:00-17:00');
    inEveryServerZone(() => {
      expect(openingStatus(place, pst('2026-11-18T16:30:00'))).toBe('closing_soon');
      expect(openingStatus(place, pst('2026-11-18T16:00:00'))).toBe('closing_soon');
      expect(openingStatus(place, pst('2026-11-18T15:59:00'))).toBe('open');
    });
  });

  it('reads common mistakes the way the opening_hours library corrects them', () => {
    // real value from the DC extract (the post office on 20th Street)
    expect(openingStatus(vancouver('M-F 9am-5pm;'), pst('2026-11-18T12:00:00'))).toBe('open');
    expect(openingStatus(vancouver('M-F 9am-5pm;'), pst('2026-11-21T12:00:00'))).toBe('closed');
  });

  it('a change from one opening range to the next is not a closing', () => {
    const place = vancouver('Mo-Su 08:00-12:00,12:00-20:00');
    expect(openingStatus(place, pst('2026-11-18T11:30:00'))).toBe('open');
  });

  it('is unknown (never a guessed closed) when there are no hours, or they cannot be read', () => {
    for (const value of [null, '', '   ', 'by appointment', 'garbage hours', 'Mo-Fr 25:00-26:00']) {
      expect(openingStatus(vancouver(value), pst('2026-11-18T12:00:00')), String(value)).toBe('unknown');
    }
    expect(
      openingStatus({ ...vancouver('Mo-Su 09:00-17:00'), timezone: 'Not/AZone' }, pst('2026-11-18T12:00:00')),
    ).toBe('unknown');
    // an explicit "unknown" rule of the opening_hours syntax
    expect(openingStatus(vancouver('Mo-Fr 09:00-17:00 "on appointment"; Sa unknown'), pst('2026-11-21T12:00:00'))).toBe(
      'unknown',
    );
  });

  it('closes on the public holidays of the place’s country', () => {
    const christmas = Date.parse('2026-12-25T18:00:00Z'); // a Friday; 10:00 in Vancouver, 19:00 in Monaco
    expect(openingStatus(vancouver('Mo-Su 09:00-18:00; PH off'), christmas)).toBe('closed');
    expect(openingStatus(vancouver('Mo-Su 09:00-18:00; PH off'), Date.parse('2026-12-23T18:00:00Z'))).toBe('open');
    expect(openingStatus(monaco('Mo-Su 09:00-20:00; PH off'), christmas)).toBe('closed');
    // Canada Day is a Canadian holiday, not a French one
    const canadaDay = Date.parse('2026-07-01T18:00:00Z');
    expect(openingStatus(vancouver('Mo-Su 09:00-18:00; PH off'), canadaDay)).toBe('closed');
    expect(
      openingStatus(
        { ...vancouver('Mo-Su 09:00-18:00; PH off'), timezone: 'America/Vancouver', country: 'FR' },
        canadaDay,
      ),
    ).toBe('open');
  });

  it('is unknown when the hours depend on holidays the library does not know for the country', () => {
    const andorra: HoursPlace = {
      openingHours: 'Mo-Su 09:00-20:00; PH off',
      lat: 42.507,
      lon: 1.521,
      timezone: 'Europe/Andorra',
      country: 'AD',
    };
    expect(openingStatus(andorra, Date.parse('2026-11-18T12:00:00Z'))).toBe('unknown');
    expect(openingStatus({ ...andorra, country: null }, Date.parse('2026-11-18T12:00:00Z'))).toBe('unknown');
    expect(openingStatus({ ...andorra, openingHours: 'Mo-Su 09:00-20:00' }, Date.parse('2026-11-18T12:00:00Z'))).toBe(
      'open',
    );
  });

  it('places sunrise and sunset at the place, whatever the server’s zone', () => {
    const daylight = vancouver('sunrise-sunset');
    inEveryServerZone(() => {
      expect(openingStatus(daylight, pst('2026-11-18T12:00:00'))).toBe('open');
      expect(openingStatus(daylight, pst('2026-11-18T22:00:00'))).toBe('closed');
      expect(openingStatus(daylight, pst('2026-11-18T05:00:00'))).toBe('closed');
      // sunset in Vancouver in mid-November is about 16:30 at UTC-8, whatever its clocks say
      expect(openingStatus(daylight, Date.parse('2026-11-18T16:00:00-08:00'))).toBe('closing_soon');
    });
  });

  it('shiftedTime shows the wall clock of the zone in the process’s local fields', () => {
    inEveryServerZone(() => {
      const at = shiftedTime(pst('2026-11-21T12:15:30'), 'America/Vancouver');
      expect([at.getFullYear(), at.getMonth(), at.getDate(), at.getHours(), at.getMinutes(), at.getSeconds()]).toEqual([
        2026, 10, 21, 12, 15, 30,
      ]);
    });
  });
});

describe('held statuses', () => {
  // A status is reused until the hours next change: it must be what a fresh evaluation says, at
  // any instant, in any order, across a DST change (Vancouver, 1 November 2026) and midnight.
  const values = [
    'Mo-Fr 09:00-17:00',
    'Mo-Sa 08:00-12:00,13:00-19:30; Su off',
    '24/7',
    'Mo-Su 11:30-23:00',
    'Mo-Fr 08:00-18:00; PH off',
    'Tu-Th 17:00-01:00',
    'sunrise-sunset',
    'Mo-Fr 10:00-14:00 open "call first"; Sa unknown',
    'broken value',
  ];
  const places = values.flatMap((value) => [vancouver(value), monaco(value)]);

  it('are what a fresh evaluation says, at every instant of a week around a DST change', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1664525 + 1013904223) % 2 ** 32) / 2 ** 32;
    const start = Date.parse('2026-10-29T00:00:00Z');
    const week = 7 * 86_400_000;
    // Instants in a random order (the clock may also go back), and on every minute of the hour
    // before each full hour, where "closing soon" begins.
    const instants = Array.from({ length: 600 }, () => start + Math.floor((next() * week) / 60_000) * 60_000);
    for (let t = start; t < start + week; t += 60 * 60_000) instants.push(t, t + 60_000 * 59, t + 60_000 * 60 - 1);
    let compared = 0;
    for (const t of instants) {
      for (const place of places) {
        const held = openingStatus(place, t);
        expect(held, `${place.openingHours} in ${place.timezone} at ${new Date(t).toISOString()}`).toBe(
          freshOpeningStatus(place, t),
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });
});

describe('status labels', () => {
  it('are the exact Spanish texts of the original site', () => {
    expect(statusLabel('open', 'es')).toBe('Abierto ahora');
    expect(statusLabel('closing_soon', 'es')).toBe('Cierra pronto');
    expect(statusLabel('closed', 'es')).toBe('Cerrado');
  });

  it('exist in all five languages, distinct within each', () => {
    for (const lang of LANGUAGES) {
      const labels = Object.values(STATUS_LABELS[lang]);
      expect(labels).toHaveLength(4);
      expect(new Set(labels).size).toBe(4);
      for (const label of labels) expect(label.trim()).not.toBe('');
    }
    expect(statusLabel('open', 'en')).toBe('Open now');
    expect(statusLabel('closed', 'fr')).toBe('Fermé');
  });
});
