// The server's entry: a public page as HTML, from the same components the browser hydrates, with
// its data already in the query client (read by the server's loaders, no HTTP).
import { renderToString } from 'react-dom/server';
import { App, createQueryClient } from './app';
import { fillQueryClient, pageDataJson, PAGE_DATA_ID, type PageData } from './lib/pageData';

export interface RenderedMarkup {
  /** the root element's content */
  html: string;
  /** the data block the browser hydrates with */
  dataBlock: string;
}

/**
 * What surrounds <main>'s content in a whole page (the header, the footer, the theme): the same on
 * every page of a kind whose header and footer do not depend on the path, in one language, with
 * the same settings, in one year (the footer's copyright).
 */
export interface PageShell {
  before: string;
  after: string;
}

function markup(path: string, data: PageData, mainOnly: boolean): string {
  const queryClient = createQueryClient();
  fillQueryClient(queryClient, data);
  const html = renderToString(<App queryClient={queryClient} ssrPath={path} mainOnly={mainOnly} />);
  queryClient.clear();
  return html;
}

const dataBlockOf = (data: PageData) =>
  `<script type="application/json" id="${PAGE_DATA_ID}">${pageDataJson(data)}</script>`;

/** The page rendered whole. */
export function renderPage(path: string, data: PageData): RenderedMarkup {
  return { html: markup(path, data, false), dataBlock: dataBlockOf(data) };
}

/**
 * The page rendered whole, and its shell: the whole cut around <main>'s content. The shell is given
 * only where that content rendered alone is the same as within the whole (React's ids from useId
 * depend on where a component is in the tree: a page using them has no shell).
 */
export function renderPageAndShell(path: string, data: PageData): RenderedMarkup & { shell: PageShell | null } {
  const html = markup(path, data, false);
  const open = html.indexOf('<main ');
  const start = open < 0 ? -1 : html.indexOf('>', open) + 1;
  const end = html.lastIndexOf('</main>');
  const shell =
    start > 0 && end >= start && html.slice(start, end) === markup(path, data, true)
      ? { before: html.slice(0, start), after: html.slice(end) }
      : null;
  return { html, dataBlock: dataBlockOf(data), shell };
}

/** The page with <main>'s content rendered alone, in a shell made by renderPageAndShell. */
export function renderPageInShell(path: string, data: PageData, shell: PageShell): RenderedMarkup {
  return { html: shell.before + markup(path, data, true) + shell.after, dataBlock: dataBlockOf(data) };
}
