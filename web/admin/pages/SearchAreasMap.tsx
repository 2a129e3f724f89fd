// The dashboard's small map of the areas where searches found nothing (~1 km cells), loaded only
// when there are some; tiles may fail to load, the list beside it says the same.
import 'leaflet/dist/leaflet.css';
import { CircleMarker, MapContainer, Tooltip } from 'react-leaflet';
import { BaseMap } from '../../public/BaseMap';

export default function SearchAreasMap({ areas }: { areas: { lat: number; lon: number; count: number }[] }) {
  const bounds = areas.map((a) => [a.lat, a.lon] as [number, number]);
  return (
    <MapContainer
      className="admin-search-map"
      bounds={bounds}
      boundsOptions={{ padding: [20, 20], maxZoom: 12 }}
      scrollWheelZoom={false}
    >
      <BaseMap />
      {areas.map((a) => (
        <CircleMarker
          key={`${a.lat},${a.lon}`}
          center={[a.lat, a.lon]}
          radius={6 + Math.min(a.count, 20)}
          pathOptions={{ color: '#b91c1c' }}
        >
          <Tooltip>{a.count}</Tooltip>
        </CircleMarker>
      ))}
    </MapContainer>
  );
}
