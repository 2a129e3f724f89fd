// The base map under every map of the site (locator, place page, admin pickers): what the admin
// chose in the settings, read at each page load: the site's own vector tiles, OpenStreetMap's
// standard tiles, or a provider's. Nothing is drawn until the choice is known, so a page never
// asks a tile server the admin did not choose.
import { leafletLayer } from 'protomaps-leaflet';
import { useEffect, useRef } from 'react';
import { TileLayer, useMap } from 'react-leaflet';
import { useT } from '../i18n';
import { chooseBaseLayer, type BaseMapSettings } from '../lib/baseMap';
import { useOwnTiles } from '../lib/ownTiles';
import { useLanguage } from '../lib/i18n';
import { useSettings } from '../lib/settings';
import { BACKGROUND, ownLabelRules, ownPaintRules } from './ownMapStyle';

/** How far in the site's own tiles are drawn: zoom 14 data holds street detail up to here. */
const OWN_MAX_ZOOM = 19;

function OwnTilesLayer({
  url,
  maxDataZoom,
  attribution,
  accent,
}: {
  url: string;
  maxDataZoom: number;
  attribution: string;
  accent: string;
}) {
  const map = useMap();
  const { lang } = useLanguage();
  useEffect(() => {
    const layer = leafletLayer({
      url,
      maxDataZoom,
      // Past the data's deepest zoom the tiles are drawn larger (Leaflet needs a maximum to be given).
      maxZoom: OWN_MAX_ZOOM,
      attribution,
      lang,
      backgroundColor: BACKGROUND,
      paintRules: ownPaintRules(accent),
      labelRules: ownLabelRules(lang),
    });
    layer.addTo(map);
    return () => void layer.remove();
  }, [map, url, maxDataZoom, attribution, accent, lang]);
  return null;
}

/** `choice`: the settings to show instead of the saved ones (the admin's live preview). */
export function BaseMap({ choice }: { choice?: BaseMapSettings }) {
  const t = useT();
  const site = useSettings();
  const ownTiles = useOwnTiles();
  const settings = choice ?? site.settings.baseMap;
  if ((!choice && site.isPending) || (settings.base === 'own' && ownTiles.isPending)) return null;
  const layer = chooseBaseLayer(settings, ownTiles.data ?? null, t('map.contributors'));
  if (layer.kind === 'own') {
    return (
      <OwnTilesLayer
        url={layer.url}
        maxDataZoom={layer.maxDataZoom}
        attribution={layer.attribution}
        accent={site.settings.primaryColor}
      />
    );
  }
  return (
    <TileLayer
      // A new layer for a new address: react-leaflet only updates the URL of the one it has.
      key={`${layer.url}|${layer.attribution}`}
      url={layer.url.replace('{key}', encodeURIComponent(layer.key))}
      attribution={layer.attribution}
      maxZoom={layer.maxZoom}
      // Tile servers want to see which site asks (OpenStreetMap's tile policy).
      referrerPolicy="strict-origin-when-cross-origin"
    />
  );
}

/**
 * Brings a map with nothing of its own to show yet (no visitor's position, no place picked) onto
 * what the site's map covers, the extracts imported and built into tiles, instead of a blank
 * default. Once only: a map the visitor or the page has moved stays where it is.
 */
export function OpenOnDataExtent({ skip }: { skip: boolean }) {
  const map = useMap();
  const { data: ownTiles } = useOwnTiles();
  const done = useRef(false);
  useEffect(() => {
    if (skip) done.current = true;
    if (done.current || !ownTiles?.bounds) return;
    done.current = true;
    const [west, south, east, north] = ownTiles.bounds;
    map.fitBounds(
      [
        [south, west],
        [north, east],
      ],
      { animate: false },
    );
  }, [map, ownTiles, skip]);
  return null;
}
