// npm run tiles -- <extract.osm.pbf>... [--coastline <dir>]   Builds the site's own map tiles.
import { ConfigError, loadConfig, loadDotEnv } from '../src/config.js';
import { buildTiles, TilesBuildError } from '../src/map/build.js';

const HELP = `Usage: npm run tiles -- <extract.osm.pbf>... [--coastline <dir>]

Builds the site's own vector map tiles from one or more OpenStreetMap extracts (all the regions
the site imported: one map holds them all) with Debian's tilemaker and osmium and the
OpenMapTiles profile, with place and street names also in English, Spanish, Portuguese, Italian
and French. The sea is drawn from the extracts' own coastline, closed along the edge of each
extract, by osmcoastline and ogr2ogr (apt-get install tilemaker osmium-tool osmcoastline
gdal-bin). The tiles are written to a temporary file and swapped in whole over TILES_FILE
(default data/tiles.mbtiles): a failed build leaves the old tiles serving, and a running server
serves the new ones within a second. Choose "The site's own map" in the admin's settings to show
them (it is the default).

An extract cut without complete ways (its ways name nodes it lacks) is built without those
references.

Options:
  --coastline <dir>  a folder holding ready-made water polygons (water_polygons.shp, WGS84) to
                     draw the sea from instead, e.g. unpacked from
                     https://osmdata.openstreetmap.de/download/water-polygons-split-4326.zip
  --help             show this text

Map data: (c) OpenStreetMap contributors, ODbL 1.0; schema (c) OpenMapTiles.`;

const kb = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;

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
  if (!rest.length) {
    console.error('Give one or more .osm.pbf extracts (see --help)');
    return 2;
  }
  loadDotEnv();
  const config = loadConfig();
  const terminal = process.stderr.isTTY;
  let lastPhase = '';
  const summary = await buildTiles({
    inputs: rest,
    output: config.tilesFile,
    coastline,
    // On a terminal the tile count is redrawn in place; elsewhere each phase is one line.
    progress: ({ phase, done, total }) => {
      if (terminal && done !== undefined && total)
        process.stderr.write(`\r${phase}: ${done}/${total} (${Math.round((done / total) * 100)}%)\x1b[K`);
      else if (phase !== lastPhase) process.stderr.write(`${terminal ? '\r\x1b[K' : ''}${phase}\n`);
      lastPhase = phase;
    },
  });
  if (terminal) process.stderr.write('\r\x1b[K');
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const leftOut = summary.droppedCoastlines
    ? `; ${count(summary.droppedCoastlines, 'piece', 'pieces')} of cut coastline left out`
    : '';
  const sea = {
    coastline: `the sea from the coastline (${count(summary.seaPolygons, 'polygon', 'polygons')}${leftOut})`,
    folder: `the sea from ${coastline}`,
    none: 'no coastline in the extracts',
  }[summary.sea];
  console.log(
    `tiles: ${summary.tiles} tiles, ${kb(summary.bytes)}, in ${summary.seconds.toFixed(1)} s -> ${config.tilesFile}` +
      `${summary.repaired ? ' (dangling references dropped)' : ''}; ${sea}; layers: ${summary.layers.join(', ')}`,
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
