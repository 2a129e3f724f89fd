// The results map: the base map the admin chose; a numbered pin for each result shown as a card
// (numbered like its card, never hidden in a cluster); the other results as small dots that group
// into named clusters; the visitor's position; and after each search a flight that centres on
// the searched place at the zoom that holds the numbered pins.
import 'leaflet/dist/leaflet.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.css';
import 'react-leaflet-cluster/dist/assets/MarkerCluster.Default.css';
import { divIcon, latLngBounds, point, type Marker as LeafletMarker } from 'leaflet';
import { memo, useEffect, useMemo, useRef } from 'react';
import { MapContainer, Marker, Popup, useMap } from 'react-leaflet';
import MarkerClusterGroup from 'react-leaflet-cluster';
import { Link } from 'wouter';
import { useT } from '../i18n';
import { escapeHtml } from '../lib/baseMap';
import { formatDistance, formatNumber } from '../lib/format';
import type { Position } from '../lib/geolocation';
import { useLanguage } from '../lib/i18n';
import { useDistanceUnit } from '../lib/settings';
import type { Place, PlaceStatus } from '../lib/rest';
import { usePrefersReducedMotion } from '../lib/useMediaQuery';
import { BaseMap, OpenOnDataExtent } from './BaseMap';
import { addressText } from './ResultCards';

export const DEFAULT_ZOOM = 13;
export const FLY_SECONDS = 1.5;
/** Closest a search frames its results: a few streets, not one building. */
export const MAX_FRAME_ZOOM = 18;
/** Room kept around the framed pins, in pixels on each side (a pin stands 30 px above its point). */
const FRAME_PADDING = 40;
/**
 * Leaflet stacks markers by their screen row plus an offset: the visitor above the dots and
 * clusters, the numbered pins above the visitor (a near place's number stays readable; the
 * visitor is the map's centre), a lit pin above all.
 */
const VISITOR_Z = 10_000;
const PIN_Z = 20_000;
const ACTIVE_PIN_Z = 30_000;

/** Where to fly; a new `key` flies again even to the same place. */
export interface FlyTarget extends Position {
  key: number;
}

const STATUSES: PlaceStatus[] = ['open', 'closing_soon', 'closed', 'unknown'];

// CSS pins and dots, drawn by styles.css: no marker image is fetched from a CDN.
const DOTS = Object.fromEntries(
  STATUSES.map((status) => [
    status,
    divIcon({
      className: `place-dot place-dot--${status}`,
      iconSize: [14, 14],
      iconAnchor: [7, 7],
      popupAnchor: [0, -6],
    }),
  ]),
) as Record<PlaceStatus, ReturnType<typeof divIcon>>;

/** One icon per status and number, made once: a new icon object would replace the marker's element (and its focus). */
const numberedIcons = new Map<string, ReturnType<typeof divIcon>>();
function numberedIcon(status: PlaceStatus, number: number) {
  const key = `${status}|${number}`;
  let icon = numberedIcons.get(key);
  if (!icon) {
    icon = divIcon({
      className: `place-pin place-pin--${status}`,
      html: `<span class="place-pin__dot"></span><span class="place-pin__number" aria-hidden="true">${number}</span>`,
      iconSize: [30, 30],
      iconAnchor: [15, 30],
    });
    numberedIcons.set(key, icon);
  }
  return icon;
}

/**
 * The zoom at which every point shows in a map of `size` pixels centred on `centre`: the
 * farthest point sets the half-width in each direction, so the centre stays the centre.
 */
function zoomHolding(map: ReturnType<typeof useMap>, centre: Position, points: Position[]): number {
  if (points.length === 0) return DEFAULT_ZOOM;
  let dLat = 0;
  let dLon = 0;
  for (const p of points) {
    dLat = Math.max(dLat, Math.abs(p.lat - centre.lat));
    dLon = Math.max(dLon, Math.abs(p.lon - centre.lon));
  }
  const bounds = latLngBounds([centre.lat - dLat, centre.lon - dLon], [centre.lat + dLat, centre.lon + dLon]);
  return Math.min(map.getBoundsZoom(bounds, false, point(FRAME_PADDING * 2, FRAME_PADDING * 2)), MAX_FRAME_ZOOM);
}

/** Flies to each new target, at the zoom that holds the numbered pins; frames them again when more cards show. */
function Frame({ target, pinned }: { target: FlyTarget | null; pinned: Place[] }) {
  const map = useMap();
  const reducedMotion = usePrefersReducedMotion();
  useEffect(() => {
    if (!target) return;
    const zoom = zoomHolding(map, target, pinned);
    if (reducedMotion) map.setView([target.lat, target.lon], zoom, { animate: false });
    else map.flyTo([target.lat, target.lon], zoom, { duration: FLY_SECONDS });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new target, or more cards shown; a changed preference waits for the next one
  }, [target?.key, pinned.length, map]);
  return null;
}

interface PinProps {
  place: Place;
  number: number;
  active: boolean;
  onHighlight(id: string | null): void;
  onSelect(id: string): void;
}

/** A result shown as a card: numbered like it, named for screen readers, and leading to it. */
function NumberedPin({ place, number, active, onHighlight, onSelect }: PinProps) {
  const marker = useRef<LeafletMarker>(null);
  // The latest callbacks, so the element's listeners are added once.
  const handlers = useRef({ onHighlight, onSelect });
  handlers.current = { onHighlight, onSelect };

  useEffect(() => {
    const element = marker.current?.getElement();
    if (!element) return;
    const id = place.id;
    const on = () => handlers.current.onHighlight(id);
    const off = () => handlers.current.onHighlight(null);
    const select = () => handlers.current.onSelect(id);
    const key = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      select();
    };
    element.addEventListener('mouseenter', on);
    element.addEventListener('focus', on);
    element.addEventListener('mouseleave', off);
    element.addEventListener('blur', off);
    element.addEventListener('click', select);
    element.addEventListener('keydown', key);
    return () => {
      element.removeEventListener('mouseenter', on);
      element.removeEventListener('focus', on);
      element.removeEventListener('mouseleave', off);
      element.removeEventListener('blur', off);
      element.removeEventListener('click', select);
      element.removeEventListener('keydown', key);
    };
  }, [place.id]);

  useEffect(() => {
    marker.current?.getElement()?.classList.toggle('place-pin--active', active);
    marker.current?.setZIndexOffset(active ? ACTIVE_PIN_Z : PIN_Z);
  }, [active]);

  return (
    <Marker
      ref={marker}
      position={[place.lat, place.lon]}
      icon={numberedIcon(place.status, number)}
      // The element's name (its number is hidden from screen readers; this says it in full).
      title={`${number}. ${place.name}`}
      zIndexOffset={PIN_Z}
      // Leaflet would pan on focus; the search already framed every numbered pin.
      autoPanOnFocus={false}
      bubblingMouseEvents={false}
    />
  );
}

/** The results past the cards: a dot each, with a popup that names the place and links to its page. */
const OtherDots = memo(function OtherDots({ places }: { places: Place[] }) {
  const t = useT();
  const { lang } = useLanguage();
  const unit = useDistanceUnit();
  return (
    <>
      {places.map((place) => (
        // Not a Tab stop: a keyboard reaches these places through Load More's cards.
        <Marker
          key={place.id}
          position={[place.lat, place.lon]}
          icon={DOTS[place.status] ?? DOTS.unknown}
          keyboard={false}
          title={place.name}
        >
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

function VisitorMarker({ position }: { position: Position }) {
  const t = useT();
  const label = escapeHtml(t('map.you'));
  // Not interactive, so not a Tab stop; an image with a name for screen readers and a title for the mouse.
  const icon = useMemo(
    () =>
      divIcon({
        className: 'user-position',
        html: `<span class="user-position__dot" role="img" aria-label="${label}" title="${label}"></span>`,
        iconSize: [18, 18],
        iconAnchor: [9, 9],
      }),
    [label],
  );
  return (
    <Marker
      position={[position.lat, position.lon]}
      icon={icon}
      interactive={false}
      keyboard={false}
      zIndexOffset={VISITOR_Z}
    />
  );
}

export interface PlacesMapProps {
  center: Position;
  userPosition: Position | null;
  /** every result of the search, nearest first */
  places: Place[];
  /** how many of them are shown as cards (numbered 1 to this on the map) */
  shownCount: number;
  flyTarget: FlyTarget | null;
  /** the place whose card is hovered or focused */
  activeId: string | null;
  onHighlight(id: string | null): void;
  /** a numbered pin was clicked or pressed: its card comes into view */
  onSelect(id: string): void;
}

export function PlacesMap({
  center,
  userPosition,
  places,
  shownCount,
  flyTarget,
  activeId,
  onHighlight,
  onSelect,
}: PlacesMapProps) {
  const t = useT();
  const { lang } = useLanguage();
  // The map is created once; later centre changes arrive as fly targets.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the first centre only
  const initialCenter = useMemo<[number, number]>(() => [center.lat, center.lon], []);
  const pinned = useMemo(() => places.slice(0, shownCount), [places, shownCount]);
  const others = useMemo(() => places.slice(shownCount), [places, shownCount]);
  // A cluster says how many places it holds and what pressing it does.
  const clusterIcon = useMemo(
    () => (cluster: { getChildCount(): number }) => {
      const count = cluster.getChildCount();
      const size = count < 10 ? 'small' : count < 100 ? 'medium' : 'large';
      return divIcon({
        className: `marker-cluster marker-cluster-${size}`,
        html: `<div><span aria-hidden="true">${formatNumber(count, lang)}</span><span class="visually-hidden">${escapeHtml(t('map.cluster', { count }))}</span></div>`,
        iconSize: point(40, 40),
      });
    },
    [t, lang],
  );
  return (
    // maxZoom: the clusters need one from the start, before the base map (which waits for the settings) is added.
    <MapContainer
      className="places-map"
      center={initialCenter}
      zoom={DEFAULT_ZOOM}
      maxZoom={19}
      scrollWheelZoom={false}
    >
      <BaseMap />
      <OpenOnDataExtent skip={flyTarget !== null} />
      {/* A new group for a new language: the cluster icons are made when the group draws them. */}
      <MarkerClusterGroup
        key={lang}
        chunkedLoading
        showCoverageOnHover={false}
        maxClusterRadius={50}
        iconCreateFunction={clusterIcon}
      >
        <OtherDots places={others} />
      </MarkerClusterGroup>
      {userPosition ? <VisitorMarker position={userPosition} /> : null}
      {pinned.map((place, index) => (
        <NumberedPin
          key={place.id}
          place={place}
          number={index + 1}
          active={place.id === activeId}
          onHighlight={onHighlight}
          onSelect={onSelect}
        />
      ))}
      <Frame target={flyTarget} pinned={pinned} />
    </MapContainer>
  );
}

export default PlacesMap;
