// The server's entry: a public page as HTML, from the same components the browser hydrates, with
// its data already in the query client (read by the server's loaders, no HTTP).
import { renderToString } from 'react-dom/server';
import { App, createQueryClient } from './app';
import { fillQueryClient, pageDataJson, PAGE_DATA_ID, type PageData } from './lib/pageData';

/** The markup of the root element's content, and the data block the browser hydrates with. */
export function renderPage(path: string, data: PageData): { html: string; dataBlock: string } {
  const queryClient = createQueryClient();
  fillQueryClient(queryClient, data);
  const html = renderToString(<App queryClient={queryClient} ssrPath={path} />);
  queryClient.clear();
  return { html, dataBlock: `<script type="application/json" id="${PAGE_DATA_ID}">${pageDataJson(data)}</script>` };
}
