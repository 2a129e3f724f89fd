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
