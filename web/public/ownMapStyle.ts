// How the site's own vector tiles (OpenMapTiles schema, built by tilemaker: npm run tiles) are
// drawn by protomaps-leaflet: a light map that leaves the result pins the strongest colours on
// it, boundaries in the site's primary colour, labels in the visitor's language.
import {
  CenteredTextSymbolizer,
  LineLabelSymbolizer,
  LineSymbolizer,
  PolygonSymbolizer,
  type Feature,
  type LabelRule,
  type PaintRule,
} from 'protomaps-leaflet';

export const BACKGROUND = '#f3f1ec';
const WATER = '#a9cce3';
const PARK = '#cfe8c4';
const WOOD = '#b9dbab';
const RESIDENTIAL = '#ebe7df';
const INDUSTRIAL = '#e6e0ea';
const BUILDING = '#dcd6cc';
const ROAD_CASING = '#c9c2b6';
const TEXT = '#3b3b3b';
const HALO = '#ffffff';
const FONT = 'system-ui, sans-serif';

const cls = (f: Feature) => String(f.props.class ?? '');
const is =
  (...classes: string[]) =>
  (_z: number, f: Feature) =>
    classes.includes(cls(f));

/** Road classes, widest first, with their widths at zoom 12, 14 and 17 (pixels). */
const ROADS: [classes: string[], colour: string, widths: [number, number, number], minzoom: number][] = [
  [['motorway'], '#f2b880', [2.5, 5, 14], 4],
  [['trunk', 'primary'], '#f7d58b', [2, 4.5, 12], 7],
  [['secondary', 'tertiary'], '#ffffff', [1.2, 3.5, 10], 9],
  [['minor', 'service', 'unclassified', 'residential', 'living_street', 'pedestrian'], '#ffffff', [0.6, 2, 7], 12],
  [['track', 'path'], '#b5a48e', [0.5, 1, 2], 13],
];

/** A width that grows with the zoom between the three given stops. */
const widthAt =
  ([w12, w14, w17]: [number, number, number]) =>
  (z: number) =>
    z <= 12
      ? w12 * 2 ** (z - 12)
      : z <= 14
        ? w12 + ((w14 - w12) * (z - 12)) / 2
        : w14 + ((w17 - w14) * Math.min(z - 14, 3)) / 3;

export function ownPaintRules(accent: string): PaintRule[] {
  const roads = ROADS.filter(([classes]) => !classes.includes('track'));
  return [
    {
      dataLayer: 'landuse',
      symbolizer: new PolygonSymbolizer({ fill: RESIDENTIAL }),
      filter: is('residential', 'suburb', 'neighbourhood', 'commercial', 'retail'),
    },
    {
      dataLayer: 'landuse',
      symbolizer: new PolygonSymbolizer({ fill: INDUSTRIAL }),
      filter: is('industrial', 'railway', 'garages', 'hospital', 'school', 'university'),
    },
    { dataLayer: 'landcover', symbolizer: new PolygonSymbolizer({ fill: WOOD }), filter: is('wood', 'forest') },
    {
      dataLayer: 'landcover',
      symbolizer: new PolygonSymbolizer({ fill: PARK }),
      filter: is('grass', 'farmland', 'wetland', 'scrub'),
    },
    { dataLayer: 'park', symbolizer: new PolygonSymbolizer({ fill: PARK }) },
    { dataLayer: 'water', symbolizer: new PolygonSymbolizer({ fill: WATER }) },
    { dataLayer: 'waterway', symbolizer: new LineSymbolizer({ color: WATER, width: (z) => (z < 13 ? 1 : 2.5) }) },
    { dataLayer: 'aeroway', symbolizer: new PolygonSymbolizer({ fill: INDUSTRIAL }) },
    { dataLayer: 'building', symbolizer: new PolygonSymbolizer({ fill: BUILDING, stroke: ROAD_CASING, width: 0.5 }) },
    // Casings under every road, then the roads from the smallest up, so that big ones cross on top.
    ...roads.map(([classes, , widths, minzoom]): PaintRule => ({
      dataLayer: 'transportation',
      minzoom,
      symbolizer: new LineSymbolizer({ color: ROAD_CASING, width: (z) => widthAt(widths)(z) + 1.5, lineCap: 'round' }),
      filter: is(...classes),
    })),
    ...[...ROADS].reverse().map(([classes, colour, widths, minzoom]): PaintRule => ({
      dataLayer: 'transportation',
      minzoom,
      symbolizer: new LineSymbolizer({
        color: colour,
        width: widthAt(widths),
        lineCap: 'round',
        ...(classes.includes('track') ? { dash: [3, 2], dashColor: colour } : {}),
      }),
      filter: is(...classes),
    })),
    {
      dataLayer: 'transportation',
      minzoom: 10,
      symbolizer: new LineSymbolizer({ color: '#9a9a9a', width: 1.2, dash: [4, 3], dashColor: '#9a9a9a' }),
      filter: is('rail', 'transit'),
    },
    {
      dataLayer: 'boundary',
      symbolizer: new LineSymbolizer({
        color: accent,
        width: (z) => (z < 8 ? 1 : 1.6),
        opacity: 0.55,
        dash: [5, 3],
        dashColor: accent,
      }),
      filter: (_z, f) => Number(f.props.admin_level) <= 4,
    },
  ];
}

/** The name to show: the visitor's language, else the name in Latin script, else the name. */
export const labelProps = (lang: string) => [`name:${lang}`, 'name:latin', 'name'];

export function ownLabelRules(lang: string): LabelRule[] {
  const names = labelProps(lang);
  const halo = { fill: TEXT, stroke: HALO, width: 2.5, labelProps: names };
  return [
    {
      dataLayer: 'water_name',
      symbolizer: new CenteredTextSymbolizer({ ...halo, fill: '#2f5f80', font: `italic 12px ${FONT}` }),
    },
    {
      dataLayer: 'transportation_name',
      minzoom: 13,
      symbolizer: new LineLabelSymbolizer({ ...halo, font: `11px ${FONT}` }),
    },
    {
      dataLayer: 'place',
      symbolizer: new CenteredTextSymbolizer({
        ...halo,
        font: (_z, f) => (['city', 'town'].includes(cls(f!)) ? `600 15px ${FONT}` : `13px ${FONT}`),
      }),
      // Towns first; villages from zoom 12, neighbourhoods from 14, where there is room for them.
      filter: (z, f) =>
        ['city', 'town'].includes(cls(f)) || (z >= 12 && ['village', 'hamlet'].includes(cls(f))) || z >= 14,
      sort: (a, b) => Number(a.rank ?? 99) - Number(b.rank ?? 99),
    },
  ];
}
