// "Open when you get there": how long the trip to a place takes by a way of travelling, and what a
// card says of the place at that moment, in the visitor's language.
//
// A trip is the great-circle distance times a detour factor, at an average speed. Detour
// (circuity) factor 1.3: the ratio of network to straight-line distance measured for road
// networks (Wang et al., "How much longer do you have to drive than the crow has to fly?", npj
// Complexity 2024: 1.3 +/- 0.1; Newell 1980 gives about 1.2 for urban trips); short walks and
// rides wind about as much. Speeds: 5 km/h on foot and 15 km/h by bike, the defaults of OSRM's
// foot and bicycle profiles; 25 km/h by car, a city-centre average with its stops and lights,
// well under the posted limits that OSRM's car profile uses between them.
import type { Lang } from '../../i18n.js';
import type { Arrival } from './hours.js';

export const TRAVEL_MODES = ['walk', 'bike', 'drive'] as const;
export type TravelMode = (typeof TRAVEL_MODES)[number];

export const DETOUR_FACTOR = 1.3;
export const SPEED_KMH: Readonly<Record<TravelMode, number>> = { walk: 5, bike: 15, drive: 25 };

/** Whole minutes to get `distanceKm` away (as the crow flies); at least 1. */
export function travelMinutes(distanceKm: number, mode: TravelMode): number {
  return Math.max(1, Math.round(((distanceKm * DETOUR_FACTOR) / SPEED_KMH[mode]) * 60));
}

interface ArrivalTexts {
  by: Record<TravelMode, string>;
  /** {closes}, {arrives}, {by} */
  openCloses: string;
  open: string;
  closedClosed: string;
  closedOpens: string;
  closed: string;
  unknown: string;
}

const TEXTS: Readonly<Record<Lang, ArrivalTexts>> = {
  en: {
    by: { walk: 'on foot', bike: 'by bike', drive: 'by car' },
    openCloses: 'Open, closes {closes} (you arrive {arrives} {by})',
    open: 'Open (you arrive {arrives} {by})',
    closedClosed: 'Closed when you arrive (closes {closes})',
    closedOpens: 'Closed when you arrive (opens {opens})',
    closed: 'Closed when you arrive',
    unknown: 'Hours unknown',
  },
  es: {
    by: { walk: 'a pie', bike: 'en bici', drive: 'en coche' },
    openCloses: 'Abierto, cierra a las {closes} (llegas a las {arrives} {by})',
    open: 'Abierto (llegas a las {arrives} {by})',
    closedClosed: 'Cerrado cuando llegues (cierra a las {closes})',
    closedOpens: 'Cerrado cuando llegues (abre a las {opens})',
    closed: 'Cerrado cuando llegues',
    unknown: 'Horario desconocido',
  },
  pt: {
    by: { walk: 'a pé', bike: 'de bicicleta', drive: 'de carro' },
    openCloses: 'Aberto, fecha às {closes} (chega às {arrives} {by})',
    open: 'Aberto (chega às {arrives} {by})',
    closedClosed: 'Fechado quando chegar (fecha às {closes})',
    closedOpens: 'Fechado quando chegar (abre às {opens})',
    closed: 'Fechado quando chegar',
    unknown: 'Horário desconhecido',
  },
  it: {
    by: { walk: 'a piedi', bike: 'in bici', drive: 'in auto' },
    openCloses: 'Aperto, chiude alle {closes} (arrivi alle {arrives} {by})',
    open: 'Aperto (arrivi alle {arrives} {by})',
    closedClosed: 'Chiuso quando arrivi (chiude alle {closes})',
    closedOpens: 'Chiuso quando arrivi (apre alle {opens})',
    closed: 'Chiuso quando arrivi',
    unknown: 'Orari sconosciuti',
  },
  fr: {
    by: { walk: 'à pied', bike: 'à vélo', drive: 'en voiture' },
    openCloses: 'Ouvert, ferme à {closes} (vous arrivez à {arrives} {by})',
    open: 'Ouvert (vous arrivez à {arrives} {by})',
    closedClosed: 'Fermé à votre arrivée (ferme à {closes})',
    closedOpens: 'Fermé à votre arrivée (ouvre à {opens})',
    closed: 'Fermé à votre arrivée',
    unknown: 'Horaires inconnus',
  },
};

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/** What a card says of the place when the visitor arrives. */
export function arrivalLabel(arrival: Arrival, mode: TravelMode, lang: Lang): string {
  const texts = TEXTS[lang];
  const values = {
    arrives: arrival.arrives,
    closes: arrival.closes ?? '',
    opens: arrival.opens ?? '',
    by: texts.by[mode],
  };
  if (arrival.status === 'unknown') return texts.unknown;
  if (arrival.status === 'closed') {
    return fill(arrival.closes ? texts.closedClosed : arrival.opens ? texts.closedOpens : texts.closed, values);
  }
  return fill(arrival.closes ? texts.openCloses : texts.open, values);
}
