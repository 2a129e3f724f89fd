// The place page's small map: one pin, no clusters. Lazy like the locator's map (Leaflet stays
// out of the first chunk); tiles may never load, the page works without them.
import 'leaflet/dist/leaflet.css';
import { divIcon } from 'leaflet';
import { MapContainer, Marker } from 'react-leaflet';
import { BaseMap } from './BaseMap';

export default function PlaceMap({
  lat,
  lon,
  name,
  status,
}: {
  lat: number;
  lon: number;
  name: string;
  status: string;
}) {
  const icon = divIcon({
    className: `place-pin place-pin--${status}`,
    html: '<span class="place-pin__dot"></span>',
    iconSize: [26, 26],
    iconAnchor: [13, 26],
  });
  return (
    <MapContainer className="place-map" center={[lat, lon]} zoom={17} scrollWheelZoom={false}>
      <BaseMap />
      <Marker position={[lat, lon]} icon={icon} title={name} alt={name} />
    </MapContainer>
  );
}
