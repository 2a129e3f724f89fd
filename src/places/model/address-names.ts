// Street names as a reader compares them: "Av. Meritxell" and "Avinguda Meritxell" are one
// street, "West 4th Avenue" and "West 4th Street" two. Read by the address derivation (which
// street the neighbours' addresses name) and by the hiding measurement (whether a derived street
// is the hidden one).

/** Names compared as a reader would: case, accents, hyphens and apostrophes aside. */
export const normalName = (text: string | null | undefined) =>
  (text ?? '')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
/**
 * The same word written in full, abbreviated, or in a sister language ("Av." and "Avinguda",
 * "Ave" and "Avenue", "Plaza" and "Plaça"): a street's kind is kept, so that "West 4th Avenue"
 * and "West 4th Street", or "Rue" and "Avenue des Spélugues", stay different streets.
 */
const SAME_WORD: Readonly<Record<string, string>> = {
  av: 'avenue',
  ave: 'avenue',
  avda: 'avenue',
  avgda: 'avenue',
  avinguda: 'avenue',
  avenida: 'avenue',
  blvd: 'boulevard',
  bd: 'boulevard',
  bvd: 'boulevard',
  boul: 'boulevard',
  ctra: 'carretera',
  crta: 'carretera',
  pl: 'placa',
  pca: 'placa',
  plaza: 'placa',
  ptge: 'passatge',
  rd: 'road',
  str: 'street',
  cres: 'crescent',
  ln: 'lane',
  sq: 'square',
  hwy: 'highway',
  ste: 'sainte',
};
/** Words that mean one thing first and another last: "St George Street", "Dr. Vilanova" and "Marine Dr". */
const FIRST_WORD: Readonly<Record<string, string>> = {
  st: 'saint',
  c: 'carrer',
  e: 'east',
  w: 'west',
  n: 'north',
  s: 'south',
};
const LAST_WORD: Readonly<Record<string, string>> = { st: 'street', dr: 'drive' };
/** Articles, which mappers write or leave out ("Carrer del Prat Gran", "Carrer Prat Gran"). */
const ARTICLES = new Set('de del dels la les el du des d l the'.split(' '));

/** A street's name as a reader compares it: case, accents, punctuation, articles and abbreviations aside. */
export function streetKey(street: string): string {
  const words = normalName(street).split(' ');
  return words
    .map(
      (word, i) =>
        (i === 0 && FIRST_WORD[word]) || (i === words.length - 1 && LAST_WORD[word]) || SAME_WORD[word] || word,
    )
    .filter((word) => !ARTICLES.has(word))
    .join(' ');
}

/** Words that name a square when they come first ("Place du Casino", "Plaça del Poble", "Square Beaumarchais"). */
const SQUARE_FIRST = new Set([
  'place',
  'placa',
  'placeta',
  'plaza',
  'plazuela',
  'plazoleta',
  'piazza',
  'piazzale',
  'piazzetta',
  'praca',
  'praceta',
  'largo',
  'square',
]);

/**
 * Whether a street's name says it is a square: "Place d'Armes", "Piazza Navona", "Union Square",
 * "Marktplatz", "Museumplein" (in English "Place" last is a kind of street, as in "Canada Place").
 */
export function isSquareName(name: string): boolean {
  const words = normalName(name).split(' ');
  const last = words[words.length - 1];
  return SQUARE_FIRST.has(words[0]) || last === 'square' || last.endsWith('platz') || last.endsWith('plein');
}

/** How long a street's key must be for a misspelling to be told from another street (ONE_EDIT_APART). */
export const MISSPELT_MIN_LENGTH = 8;

/**
 * Whether two street keys (streetKey) are one slip of the pen apart: both at least
 * MISSPELT_MIN_LENGTH characters long, and one letter added, dropped or changed, or two
 * neighbouring letters swapped ("Saimt" for "Saint", "Meritxlel" for "Meritxell"). A digit is
 * never the slip: "West 4th Avenue" and "West 5th Avenue" are two streets. Read by the hiding
 * measurement: a misspelt addr:street still names the street the place is on.
 */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.min(a.length, b.length) < MISSPELT_MIN_LENGTH || Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  // what differs: a[start, endA) and b[start, endB)
  const slipA = a.slice(start, endA);
  const slipB = b.slice(start, endB);
  if (/\d/.test(slipA + slipB)) return false;
  if (slipA.length + slipB.length <= 1) return true; // one letter added or dropped
  if (slipA.length === 1 && slipB.length === 1) return true; // one letter changed
  return slipA.length === 2 && slipA[0] === slipB[1] && slipA[1] === slipB[0]; // two swapped
}

/**
 * Whether a name spells out a road number: "Carretera General 2" is "CG-2", "Route Nationale 7"
 * "RN 7" (the number's letters are the initials of the name's words, articles aside, and the
 * numbers agree). Read by the hiding measurement: an address may name its road either way.
 */
export function spellsOutNumber(name: string, roadNumber: string): boolean {
  const number = /^([a-z]+) ?(\d+[a-z]?)$/.exec(normalName(roadNumber).replace(' ', ''));
  const words = normalName(name)
    .split(' ')
    .filter((word) => !ARTICLES.has(word));
  if (!number || words.length < 2) return false;
  const [, letters, digits] = number;
  return words.pop() === digits && words.map((word) => word[0]).join('') === letters;
}
