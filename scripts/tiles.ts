// npm run tiles -- <extract.osm.pbf> [--coastline <dir>]   Builds the site's own map tiles.
import { ConfigError, loadConfig, loadDotEnv } from '../src/config.js';
import { buildTiles, TilesBuildError } from '../src/map/build.js';

const HELP = `Usage: npm run tiles -- <extract.osm.pbf> [--coastline <dir>]

Builds the site's own vector map tiles from an OpenStreetMap extract with Debian's tilemaker
(apt-get install tilemaker osmium-tool) and its OpenMapTiles profile, with place and street
names also in English, Spanish, Portuguese, Italian and French. The tiles are written to a
temporary file and swapped in whole over TILES_FILE (default data/tiles.mbtiles): a failed
build leaves the old tiles serving, and a running server serves the new ones within a second.
Choose "The site's own map" in the admin's settings to show them (it is the default).

An extract cut without complete ways (its ways name nodes it lacks) is built without those
references when osmium is installed.

Options:
  --coastline <dir>  a folder holding water_polygons.shp, to draw the sea: unpack
                     https://osmdata.openstreetmap.de/download/water-polygons-split-4326.zip
                     (without it, lakes and rivers are drawn but not the sea)
  --help             show this text

Map data: (c) OpenStreetMap contributors, ODbL 1.0; schema (c) OpenMapTiles.`;

const kb = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`);

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  const coastlineAt = args.indexOf('--coastline');
  const coastline = coastlineAt >= 0 ? args[coastlineAt + 1] : undefined;
  if (coastlineAt >= 0 && (!coastline || coastline.startsWith('-'))) {
    console.error('--coastline needs a folder (see --help)');
    return 2;
  }
  const rest = args.filter((_, i) => coastlineAt < 0 || (i !== coastlineAt && i !== coastlineAt + 1));
  const unknown = rest.filter((arg) => arg.startsWith('-'));
  if (unknown.length) {
    console.error(`Unknown option: ${unknown.join(' ')} (see --help)`);
    return 2;
  }
  if (rest.length !== 1) {
    console.error('Give one .osm.pbf extract (see --help)');
    return 2;
  }
  loadDotEnv();
  const config = loadConfig();
  const terminal = process.stderr.isTTY;
  let lastPhase = '';
  const summary = await buildTiles({
    input: rest[0],
    output: config.tilesFile,
    coastline,
    // On a terminal the tile count is redrawn in place; elsewhere each phase is one line.
    progress: ({ phase, done, total }) => {
      if (terminal && done !== undefined && total) process.stderr.write(`\r${phase}: ${done}/${total} (${Math.round((done / total) * 100)}%)\x1b[K`);
      else if (phase !== lastPhase) process.stderr.write(`${terminal ? '\r\x1b[K' : ''}${phase}\n`);
      lastPhase = phase;
    },
  });
  if (terminal) process.stderr.write('\r\x1b[K');
  console.log(
    `tiles: ${summary.tiles} tiles, ${kb(summary.bytes)}, in ${summary.seconds.toFixed(1)} s -> ${config.tilesFile}` +
      `${summary.repaired ? ' (dangling references dropped)' : ''}; layers: ${summary.layers.join(', ')}`,
  );
  return 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    if (error instanceof TilesBuildError || error instanceof ConfigError) console.error(`tiles: ${error.message}`);
    else console.error(error);
    process.exitCode = 1;
  },
);
