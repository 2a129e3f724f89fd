import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: {
      // The site, and the locator alone for other sites' pages (/embed).
      input: { main: fileURLToPath(new URL('web/index.html', import.meta.url)), embed: fileURLToPath(new URL('web/embed.html', import.meta.url)) },
      output: {
        // The vector map drawing in a chunk of its own, fetched with the map: the bundle benchmark
        // prints what it adds (bench/bundle.ts).
        manualChunks: (id) => (/node_modules\/(protomaps-leaflet|@protomaps|@mapbox|pbf|pmtiles|rbush|quickselect|potpack|color2k|fflate)\//.test(id) || /web\/public\/ownMapStyle/.test(id) ? 'vector-map' : undefined),
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000', '/trpc': 'http://localhost:3000', '/uploads': 'http://localhost:3000' },
  },
});
