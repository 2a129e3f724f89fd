// The data a server-rendered page was rendered with, handed to the browser so that hydration
// renders exactly the same: the react-query entries, in a JSON block (not a script that runs: the
// site's CSP allows no inline script).
import type { QueryClient, QueryKey } from '@tanstack/react-query';

export const PAGE_DATA_ID = 'page-data';

export interface PageData {
  queries: [QueryKey, unknown][];
}

/** The JSON block's text: `<` escaped, so no value can close the element or open a comment. */
export function pageDataJson(data: PageData): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

export function fillQueryClient(client: QueryClient, data: PageData): void {
  for (const [key, value] of data.queries) client.setQueryData(key, value);
}
