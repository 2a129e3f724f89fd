// The gzipped size of the JavaScript the home page loads: the entry script of dist/web/index.html
// and every chunk it imports statically, transitively. Lazily imported chunks (the admin panel,
// the map) are not part of that figure; the map chunk, which the home page fetches right after,
// is reported beside it. Budget: 200 KB.
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

export const BUDGET_KB = 200;
const ROOT = join(import.meta.dirname, '..');
const WEB = join(ROOT, 'dist', 'web');

/** Relative imports a chunk makes up front: `import ... from "./x.js"` and `import "./x.js"`, never `import("./x.js")`. */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)(["'`])(\.{1,2}\/[^"'`]+?\.js)\1/g)) found.add(match[2]);
  return [...found];
}

/** Relative imports a chunk makes on demand: `import("./x.js")`. */
export function dynamicImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/\bimport\(\s*(["'`])(\.{1,2}\/[^"'`]+?\.js)\1\s*\)/g)) found.add(match[2]);
  return [...found];
}

const gzipBytes = (file: string) => gzipSync(readFileSync(join(WEB, file))).length;
const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** Every chunk loaded before the page can run, starting at index.html's module script. */
export function homePageScripts(): { eager: string[]; lazy: string[] } {
  const html = readFileSync(join(WEB, 'index.html'), 'utf8');
  const entry = /<script[^>]+type="module"[^>]+src="\/?([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error('dist/web/index.html has no module script');
  const eager: string[] = [];
  const lazy = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.shift()!;
    if (eager.includes(file)) continue;
    eager.push(file);
    const code = readFileSync(join(WEB, file), 'utf8');
    const dir = posix.dirname(file);
    for (const spec of staticImports(code)) queue.push(posix.join(dir, spec));
    for (const spec of dynamicImports(code)) lazy.add(posix.join(dir, spec));
  }
  return { eager, lazy: [...lazy].filter((file) => !eager.includes(file)) };
}

/** `file` and every chunk it imports statically, transitively, but for those in `loaded`. */
function closure(file: string, loaded: string[]): string[] {
  const found: string[] = [];
  const queue = [file];
  while (queue.length) {
    const next = queue.shift()!;
    if (found.includes(next) || loaded.includes(next)) continue;
    found.push(next);
    const code = readFileSync(join(WEB, next), 'utf8');
    for (const spec of staticImports(code)) queue.push(posix.join(posix.dirname(next), spec));
  }
  return found;
}

export async function run(options: { build?: boolean } = {}) {
  if (options.build ?? !existsSync(join(WEB, 'index.html'))) {
    const { build } = await import('vite');
    await build({ configFile: join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  }
  const { eager, lazy } = homePageScripts();
  const files = eager.map((file) => ({ file, gzip_bytes: gzipBytes(file) }));
  const bytes = files.reduce((sum, f) => sum + f.gzip_bytes, 0);
  const mapChunks = lazy.filter((file) => /PlacesMap/.test(file)).flatMap((file) => closure(file, eager));
  const map = mapChunks.map((file) => ({ file, gzip_bytes: gzipBytes(file) }));
  const mapBytes = map.reduce((sum, f) => sum + f.gzip_bytes, 0);
  // The site's own vector map (protomaps-leaflet and the style rules), a chunk of its own (vite.config.ts).
  const vectorBytes = map.filter((f) => /vector-map/.test(f.file)).reduce((sum, f) => sum + f.gzip_bytes, 0);
  const result = {
    home_js_gzip_bytes: bytes,
    home_js_gzip_kb: kb(bytes),
    budget_kb: BUDGET_KB,
    within_budget: kb(bytes) < BUDGET_KB,
    files,
    lazy_chunks: lazy,
    with_map_chunk_gzip_kb: kb(bytes + mapBytes),
    map_chunks: map,
    vector_map_gzip_bytes: vectorBytes,
    vector_map_gzip_kb: kb(vectorBytes),
  };
  console.log(
    `bundle: the home page loads ${kb(bytes)} KB of gzipped JavaScript up front (${files.length} file(s); budget ${BUDGET_KB} KB), ` +
      `${kb(bytes + mapBytes)} KB with the map chunks it fetches next (${map.length} file(s), of which ${kb(vectorBytes)} KB draw the site's own vector map); lazily loaded: ${lazy.map((f) => posix.basename(f)).join(', ') || 'none'}`,
  );
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
