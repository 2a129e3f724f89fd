// npm run import -- <file-or-url>...   Loads OpenStreetMap places into the places index.
import { checkDb, createDb, migrate } from '../db/index.js';
import { ConfigError, loadConfig, loadDotEnv } from '../src/config.js';
import { formatSummary, importInputs, ImportError } from '../src/places/import/index.js';
import { TerminalProgress } from '../src/places/import/progress.js';
import { createPlaceIndex } from '../src/places/index/index.js';

const HELP = `Usage: npm run import -- [--json] <file-or-url>...

Loads OpenStreetMap places into the places index of the database in DATABASE_URL
(default sqlite:data/app.db; a .env file may set it). Each input is a file path or an
http(s) URL, in any of these formats (recognised from the content):
  .osm.pbf      OpenStreetMap PBF, e.g. an extract from download.geofabrik.de
  .osm          OpenStreetMap XML (also Overpass XML output)
  .json         Overpass JSON: {"elements": [...]}
  .geojson      a FeatureCollection whose features carry OSM tags as properties and an
                OSM_ID, @id or id such as "node/123"

Only objects in at least one of the 34 locator categories are kept; ways and relations
become a point at the centre of their extent. Importing an object again replaces it
(same OSM type and id). All inputs are written in one transaction: if one cannot be read,
the index is left exactly as it was. The server may keep running meanwhile.

Options:
  --json    print the summary as JSON on stdout (for scripts)
  --help    show this text

Place data: (c) OpenStreetMap contributors, ODbL 1.0.`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  const json = args.includes('--json');
  const unknown = args.filter((a) => a.startsWith('-') && a !== '--json');
  if (unknown.length) {
    console.error(`Unknown option: ${unknown.join(' ')} (see --help)`);
    return 2;
  }
  const inputs = args.filter((a) => !a.startsWith('-'));
  if (inputs.length === 0) {
    console.error('Give at least one file or URL to import (see --help)');
    return 2;
  }

  loadDotEnv();
  const config = loadConfig();
  const handle = createDb(config.database);
  try {
    await checkDb(handle);
    await migrate(handle);
    const progress = process.stderr.isTTY && !json ? new TerminalProgress() : undefined;
    const summary = await importInputs(createPlaceIndex(handle), inputs, { progress });
    const peak = process.resourceUsage().maxRSS * 1024;
    if (json) console.log(JSON.stringify({ ...summary, peakRssBytes: peak }));
    else console.log(formatSummary(summary, peak));
    return 0;
  } catch (error) {
    if (error instanceof ImportError) {
      console.error(`Import failed: ${error.message}. The index was not changed.`);
      return 1;
    }
    throw error;
  } finally {
    await handle.close();
  }
}

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 1;
  },
);
