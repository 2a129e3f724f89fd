// npm run import -- <file-or-url>...   Loads OpenStreetMap places into the places index, or applies
// change files to it.
import { checkDb, createDb, migrate } from '../db/index.js';
import { ConfigError, loadConfig, loadDotEnv } from '../src/config.js';
import { applyChange, type ChangeSummary } from '../src/places/sources/changes/index.js';
import {
  detectFormat,
  formatSummary,
  importInputs,
  ImportError,
  isUrl,
  type ImportSummary,
} from '../src/places/sources/import/index.js';
import { TerminalProgress } from '../src/places/sources/import/progress.js';
import { createPlaceStore, type PlaceStore } from '../src/places/store/index.js';
import { CsvError, parseOwnPlacesCsv } from '../src/places/sources/own-places.js';
import { readFile } from 'node:fs/promises';

const HELP = `Usage: npm run import -- [--json] [--source NAME] <file-or-url>...

Loads OpenStreetMap places into the places index of the database in DATABASE_URL
(default sqlite:data/app.db; a .env file may set it). Each input is a file path or an
http(s) URL, in any of these formats (recognised from the content):
  .osm.pbf      OpenStreetMap PBF, e.g. an extract from download.geofabrik.de
  .osm          OpenStreetMap XML (also Overpass XML output)
  .json         Overpass JSON: {"elements": [...]}
  .geojson      a FeatureCollection whose features carry OSM tags as properties and an
                OSM_ID, @id or id such as "node/123"

  .osc .osc.gz  an OpenStreetMap change file (osmChange): applied to the index
  .csv          the admin's own places: a header row name,category,lat,lon,address,phone,
                website,opening_hours, UTF-8; added to the own places, all or nothing
                (problems are listed by line)

Only objects in at least one of the 34 locator categories are kept; ways and relations
become a point at the centre of their extent. Importing an object again replaces it
(same OSM type and id). All inputs are written in one transaction: if one cannot be read,
the index is left exactly as it was. The server may keep running meanwhile.

Every import belongs to a source: the replication feed the .osm.pbf header names, else the
file's name, else --source. Importing a source again replaces it: its places that are not in
the new file are removed, and its replication state restarts from the new file's header.
Other sources (other regions, the live fallback's places, the admin's own places) stay.

Change files are applied after the other inputs, one transaction each, in the order given:
created places are added, modified ones replaced (an older version never overwrites a newer
one), deleted ones removed; places mapped as ways follow their nodes. Their places belong to
--source, or to the index's only OpenStreetMap source.

Options:
  --source NAME  the source the inputs belong to
  --json         print the summary as JSON on stdout (for scripts)
  --help         show this text

Place data: (c) OpenStreetMap contributors, ODbL 1.0.`;

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    return 0;
  }
  const json = args.includes('--json');
  const sourceAt = args.indexOf('--source');
  const source = sourceAt >= 0 ? args[sourceAt + 1] : undefined;
  if (sourceAt >= 0 && (!source || source.startsWith('-') || source.trim() === '')) {
    console.error('--source needs a name (see --help)');
    return 2;
  }
  const rest = args.filter((_, i) => (i !== sourceAt && i !== sourceAt + 1) || sourceAt < 0);
  const unknown = rest.filter((a) => a.startsWith('-') && a !== '--json');
  if (unknown.length) {
    console.error(`Unknown option: ${unknown.join(' ')} (see --help)`);
    return 2;
  }
  const inputs = rest.filter((a) => !a.startsWith('-'));
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
    const index = createPlaceStore(handle);
    const changeFiles: string[] = [];
    const extracts: string[] = [];
    const csvFiles: string[] = [];
    for (const input of inputs) {
      const format = isUrl(input) ? null : await detectFormat(input);
      (format === 'osc' ? changeFiles : format === 'csv' ? csvFiles : extracts).push(input);
    }
    // Own places first: a CSV with a problem stops everything before any other input is written.
    const ownPlaces = [];
    for (const file of csvFiles) {
      try {
        ownPlaces.push(...parseOwnPlacesCsv(await readFile(file, 'utf8')));
      } catch (error) {
        if (error instanceof CsvError) throw new ImportError(`${file}: ${error.message}`);
        throw error;
      }
    }
    const own = ownPlaces.length ? (await index.writeOwn({ upsert: ownPlaces, remove: [] }, Date.now())).places : [];
    const progress = process.stderr.isTTY && !json ? new TerminalProgress() : undefined;
    let summary: ImportSummary | null = null;
    if (extracts.length) summary = await importInputs(index, extracts, { progress, source });
    const changes: (ChangeSummary & { file: string; source: string })[] = [];
    for (const file of changeFiles) {
      const name = source ?? (await onlyOsmSource(index));
      changes.push({ file, source: name, ...(await applyChange(index, file, { source: name })) });
    }
    const peak = process.resourceUsage().maxRSS * 1024;
    if (json) console.log(JSON.stringify({ ...(summary ?? {}), changes, ownPlaces: own.length, peakRssBytes: peak }));
    else {
      if (csvFiles.length)
        console.log(`${csvFiles.join(', ')}: ${own.length} own place${own.length === 1 ? '' : 's'} added`);
      if (summary) console.log(formatSummary(summary, peak));
      for (const c of changes) {
        console.log(
          `${c.file} (change file, source ${c.source}): ${c.created} created, ${c.modified} modified, ${c.deleted} deleted` +
            (c.skippedOlder ? `; ${c.skippedOlder} older than the index, skipped` : '') +
            (c.unknownLocations ? `; ${c.unknownLocations} left in place (node locations unknown)` : ''),
        );
      }
    }
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

/** A change file's places go to the index's one OpenStreetMap source, unless --source says. */
async function onlyOsmSource(index: PlaceStore): Promise<string> {
  const osm = (await index.listSources()).filter((s) => s.kind === 'osm');
  if (osm.length === 1) return osm[0].name;
  throw new ImportError(
    osm.length === 0
      ? 'the index has no OpenStreetMap data to apply changes to; import an extract first, or name a new source with --source'
      : `the index has several OpenStreetMap sources (${osm.map((s) => s.name).join(', ')}); say which with --source`,
  );
}

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exitCode = 1;
  },
);
