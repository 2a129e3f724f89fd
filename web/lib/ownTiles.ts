// Whether the site's own map tiles are built: GET /tiles.json answers their TileJSON, or 204.
import { useQuery } from '@tanstack/react-query';
import type { OwnTiles } from './baseMap';

/** The TileJSON of the site's own tiles; null while none are built, undefined while asking. */
export function useOwnTiles() {
  return useQuery({
    queryKey: ['own-tiles'],
    queryFn: async ({ signal }): Promise<OwnTiles | null> => {
      const response = await fetch('/tiles.json', { headers: { Accept: 'application/json' }, signal });
      return response.status === 200 ? ((await response.json()) as OwnTiles) : null;
    },
    staleTime: Infinity,
  });
}
