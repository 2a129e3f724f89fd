// A small map to pick an own place's position: a click sets it. Tiles may not load (offline, or
// blocked): the click still gives the point, and the fields beside it take typed coordinates.
import 'leaflet/dist/leaflet.css';
import { useEffect } from 'react';
import { CircleMarker, MapContainer, useMap, useMapEvents } from 'react-leaflet';
import { BaseMap, OpenOnDataExtent } from '../../public/BaseMap';

interface Props {
  label: string;
  position: { lat: number; lon: number } | null;
  onPick: (position: { lat: number; lon: number }) => void;
}

function Picker({ position, onPick }: Omit<Props, 'label'>) {
  const map = useMap();
  useMapEvents({ click: (event) => onPick({ lat: event.latlng.lat, lon: event.latlng.wrap().lng }) });
  // A position typed in the fields is brought into view.
  useEffect(() => {
    if (position && !map.getBounds().contains([position.lat, position.lon]))
      map.setView([position.lat, position.lon], Math.max(map.getZoom(), 14));
  }, [map, position]);
  return position ? (
    <CircleMarker center={[position.lat, position.lon]} radius={8} pathOptions={{ color: '#1d4ed8' }} />
  ) : null;
}

export default function PositionPicker({ label, position, onPick }: Props) {
  return (
    <div
      className="admin-position-map"
      role="group"
      aria-label={label}
      aria-describedby="pick-hint"
      data-testid="position-map"
    >
      <MapContainer
        center={position ? [position.lat, position.lon] : [20, 0]}
        zoom={position ? 14 : 2}
        scrollWheelZoom={false}
        style={{ height: '100%' }}
      >
        <BaseMap />
        <OpenOnDataExtent skip={position !== null} />
        <Picker position={position} onPick={onPick} />
      </MapContainer>
    </div>
  );
}
