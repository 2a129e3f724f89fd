// The results map: the base map the admin chose, one marker per result (grouped into clusters so a
// thousand results stay smooth), the visitor's position, and a fly-to after each search.
import 'leaflet/dist/leaflet.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.Default.css';
import { divIcon } from 'leaflet';
import { memo, useEffect, useMemo } from 'react';
import { CircleMarker, MapContainer, Marker, Popup, Tooltip, useMap } from 'react-leaflet';
import MarkerClusterGroup from 'react-leaflet-cluster';
import { Link } from 'wouter';
import { useT } from '../i18n';
import { formatDistance } from '../lib/format';
import type { Position } from '../lib/geolocation';
import { useLanguage } from '../lib/i18n';
import { useDistanceUnit } from '../lib/settings';
import type { Place, PlaceStatus } from '../lib/rest';
import { usePrefersReducedMotion } from '../lib/useMediaQuery';
import { BaseMap, OpenOnDataExtent } from './BaseMap';
import { addressText } from './ResultCards';

export const DEFAULT_ZOOM = 13;
export const FLY_SECONDS = 1.5;

/** Where to fly; a new `key` flies again even to the same place. */
export interface FlyTarget extends Position {
  key: number;
}

// A CSS pin per status, drawn by styles.css: no marker image is fetched from a CDN.
const ICONS = Object.fromEntries(
  (['open', 'closing_soon', 'closed', 'unknown'] as PlaceStatus[]).map((status) => [
    status,
    divIcon({
      className: `place-pin place-pin--${status}`,
      html: '<span class="place-pin__dot"></span>',
      iconSize: [26, 26],
      iconAnchor: [13, 26],
      popupAnchor: [0, -24],
    }),
  ]),
) as Record<PlaceStatus, ReturnType<typeof divIcon>>;

function FlyTo({ target }: { target: FlyTarget | null }) {
  const map = useMap();
  const reducedMotion = usePrefersReducedMotion();
  useEffect(() => {
    if (!target) return;
    if (reducedMotion) map.setView([target.lat, target.lon], DEFAULT_ZOOM, { animate: false });
    else map.flyTo([target.lat, target.lon], DEFAULT_ZOOM, { duration: FLY_SECONDS });
    // Only a new target flies; a changed preference waits for the next one.
  }, [target?.key, map]);
  return null;
}

const PlaceMarkers = memo(function PlaceMarkers({ places }: { places: Place[] }) {
  const t = useT();
  const { lang } = useLanguage();
  const unit = useDistanceUnit();
  return (
    <>
      {places.map((place) => (
        <Marker key={place.id} position={[place.lat, place.lon]} icon={ICONS[place.status] ?? ICONS.unknown} title={place.name} alt={place.name}>
          <Popup>
            <strong className="map-popup__name">
              <Link href={`/place/${place.id}`}>{place.name}</Link>
            </strong>
            <br />
            {addressText(place, t)}
            <br />
            {place.status_label || t(`status.${place.status}`)} · {formatDistance(place.distance, lang, unit)}
          </Popup>
        </Marker>
      ))}
    </>
  );
});

export interface PlacesMapProps {
  center: Position;
  userPosition: Position | null;
  places: Place[];
  flyTarget: FlyTarget | null;
}

export function PlacesMap({ center, userPosition, places, flyTarget }: PlacesMapProps) {
  const t = useT();
  // The map is created once; later centre changes arrive as fly targets.
  const initialCenter = useMemo<[number, number]>(() => [center.lat, center.lon], []);
  return (
    // maxZoom: the clusters need one from the start, before the base map (which waits for the settings) is added.
    <MapContainer className="places-map" center={initialCenter} zoom={DEFAULT_ZOOM} maxZoom={19} scrollWheelZoom={false}>
      <BaseMap />
      <OpenOnDataExtent skip={flyTarget !== null} />
      <MarkerClusterGroup chunkedLoading showCoverageOnHover={false} maxClusterRadius={60}>
        <PlaceMarkers places={places} />
      </MarkerClusterGroup>
      {userPosition ? (
        <CircleMarker
          center={[userPosition.lat, userPosition.lon]}
          radius={9}
          pathOptions={{ color: '#ffffff', weight: 3, fillColor: '#1d4ed8', fillOpacity: 1 }}
          className="user-position"
        >
          <Tooltip>{t('map.you')}</Tooltip>
        </CircleMarker>
      ) : null}
      <FlyTo target={flyTarget} />
    </MapContainer>
  );
}

export default PlacesMap;
