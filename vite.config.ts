import { readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** What is worth compressing: text. Images, fonts and videos are compressed already. */
const TEXT_FILE = /\.(js|mjs|css|svg|json|txt|xml|ico|webmanifest)$/;

/**
 * Writes a brotli (quality 11) and a gzip (level 9) sibling of every text file of the build, kept
 * only when smaller: compressed once here, served as they are (@fastify/static `preCompressed`,
 * nginx `gzip_static`), never compressed again per request. Same mtime as the original, which
 * nginx's gzip_static expects.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
        );
      for (const file of walk(outDir).filter((name) => TEXT_FILE.test(name))) {
        const data = readFileSync(file);
        const { mtime } = statSync(file);
        const variants: [string, Buffer][] = [
          [
            '.br',
            brotliCompressSync(data, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 11,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
          ],
          ['.gz', gzipSync(data, { level: 9 })],
        ];
        for (const [suffix, packed] of variants) {
          if (packed.length >= data.length) continue;
          writeFileSync(file + suffix, packed);
          utimesSync(file + suffix, mtime, mtime);
        }
      }
    },
  };
}

export default defineConfig({
  root: 'web',
  // Files served as they are (the icon, the link-preview picture). Not Vite's default `public/`:
  // web/public holds the public pages' components, which must never be served.
  publicDir: 'static',
  plugins: [react(), precompress()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      // The site, and the locator alone for other sites' pages (/embed).
      input: {
        main: fileURLToPath(new URL('web/index.html', import.meta.url)),
        embed: fileURLToPath(new URL('web/embed.html', import.meta.url)),
      },
      output: {
        // The vector map drawing in a chunk of its own, fetched with the map: the bundle benchmark
        // prints what it adds (support/bundle.ts).
        manualChunks: (id) =>
          /node_modules\/(protomaps-leaflet|@protomaps|@mapbox|pbf|pmtiles|rbush|quickselect|potpack|color2k|fflate)\//.test(
            id,
          ) || /web\/public\/ownMapStyle/.test(id)
            ? 'vector-map'
            : undefined,
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/trpc': 'http://localhost:3000', '/uploads': 'http://localhost:3000' },
  },
});
