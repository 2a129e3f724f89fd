// Pages that group places, a category in a town ("Pharmacies in Andorra la Vella"): their paths,
// what the server gives for them (src/pages/groups.ts) and the queries that read it in the browser.
import { useQuery } from '@tanstack/react-query';
import type { CategoryId } from '../../src/places/model/category-ids';
import type { Lang } from './i18n';
import { getJson } from './rest';

/** A town that has places, and the categories it has places of (how many of each). */
export interface GroupTown {
  slug: string;
  name: string;
  categories: { id: CategoryId; count: number }[];
}

/** What the home page's Browse section lists: the towns with the most places first. */
export interface GroupsList {
  towns: GroupTown[];
}

export interface GroupPlace {
  /** "node/123", as in /place/node/123 */
  id: string;
  name: string | null;
  address: string | null;
}

export interface Group {
  category: CategoryId;
  town: { slug: string; name: string };
  places: GroupPlace[];
}

/** A group page's path without language: /places/pharmacy/andorra-la-vella. */
export const groupPath = (category: string, townSlug: string) => `/places/${category}/${townSlug}`;

export const GROUPS_QUERY_KEY = ['groups'] as const;
export const groupQueryKey = (category: string, town: string, lang: Lang) => ['group', category, town, lang] as const;

export function useGroups() {
  return useQuery({ queryKey: GROUPS_QUERY_KEY, queryFn: ({ signal }) => getJson<GroupsList>('/api/groups', signal) });
}

export function useGroup(category: string, town: string, lang: Lang) {
  return useQuery({
    queryKey: groupQueryKey(category, town, lang),
    queryFn: ({ signal }) =>
      getJson<Group | null>(
        `/api/groups/${encodeURIComponent(category)}/${encodeURIComponent(town)}?lang=${lang}`,
        signal,
      ),
  });
}
