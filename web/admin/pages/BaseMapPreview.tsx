// The settings page's live preview of the base map being chosen (not yet saved). Lazy, so Leaflet
// loads only when the settings page shows it.
import 'leaflet/dist/leaflet.css';
import { MapContainer } from 'react-leaflet';
import type { BaseMapSettings } from '../../lib/baseMap';
import { BaseMap } from '../../public/BaseMap';

export default function BaseMapPreview({ choice, center }: { choice: BaseMapSettings; center: [number, number] }) {
  return (
    <MapContainer className="admin-map-preview" center={center} zoom={13} scrollWheelZoom={false}>
      <BaseMap choice={choice} />
    </MapContainer>
  );
}
