// Small OpenStreetMap XML files written by tests, laid out in metres around one origin (45.5 N,
// 9.2 E), so that a test reads as a plan: "a pharmacy 20 m north of Old Street".
const M = 1 / 111_195;
const LAT = 45.5;
const MLON = M / Math.cos((LAT * Math.PI) / 180);
const LON = 9.2;

/** lat/lon of a point `x` m east and `y` m north of the origin */
export const at = (x: number, y: number) => ({ lat: +(LAT + y * M).toFixed(7), lon: +(LON + x * MLON).toFixed(7) });

const tags = (t: Record<string, string>) =>
  Object.entries(t)
    .map(([k, v]) => `<tag k="${k}" v="${v}"/>`)
    .join('');

/** a node `x` m east and `y` m north of the origin */
export const node = (id: number, x: number, y: number, t: Record<string, string> = {}, version = 1) => {
  const p = at(x, y);
  return `<node id="${id}" version="${version}" lat="${p.lat}" lon="${p.lon}">${tags(t)}</node>`;
};

export const way = (id: number, refs: number[], t: Record<string, string>, version = 1) =>
  `<way id="${id}" version="${version}">${refs.map((r) => `<nd ref="${r}"/>`).join('')}${tags(t)}</way>`;

/** an .osm file's text around `body` */
export const osmFile = (body: string) => `<?xml version="1.0"?>\n<osm version="0.6">${body}</osm>`;

/** an .osc change file around `body` */
export const osmChange = (body: string) =>
  Buffer.from(`<?xml version="1.0"?>\n<osmChange version="0.6">${body}</osmChange>`);
