// Builds the site's own vector tiles from an OpenStreetMap extract with Debian's tilemaker and its
// OpenMapTiles profile (names also in the site's five languages), into a temporary file renamed
// over the served one only when whole: a failed build leaves the old tiles serving.
// Extracts cut without complete ways (ways naming nodes the file lacks) stop tilemaker at once;
// with osmium installed the command drops those references first and builds the rest.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { LANGUAGES } from '../i18n.js';
import { openMbtiles } from './mbtiles.js';

/** Where Debian's tilemaker package puts the OpenMapTiles profile. */
export const PROFILE_DIR = '/usr/share/doc/tilemaker/examples';
export const INSTALL_HINT = 'sudo apt-get install tilemaker osmium-tool';
/** The Natural Earth layers of the profile: shapefiles a site does not have; dropped from its config. */
const NATURAL_EARTH_LAYERS = ['urban_areas', 'ice_shelf', 'glacier'];

export class TilesBuildError extends Error {}

export interface BuildOptions {
  input: string;
  output: string;
  /** a folder holding water_polygons.shp (osmdata.openstreetmap.de's "water polygons", WGS84) */
  coastline?: string;
  /** told what happens: phases and tile counts */
  progress?: (event: { phase: string; done?: number; total?: number }) => void;
  tilemaker?: string;
  osmium?: string;
}

export interface BuildSummary {
  tiles: number;
  bytes: number;
  seconds: number;
  /** node references dropped from ways because the extract lacks those nodes */
  repaired: boolean;
  layers: string[];
}

interface Run {
  code: number | null;
  stderr: string;
  missing: boolean;
}

/** Runs a program, feeding its stdout lines to `onLine`; `missing` when it is not installed. */
async function run(command: string, args: string[], options: { cwd?: string; onLine?: (line: string) => void } = {}): Promise<Run> {
  const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-20_000)));
  // tilemaker redraws its progress with \r: each redraw is a line here.
  child.stdout.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split(/[\r\n]+/)) if (line.trim()) options.onLine?.(line);
  });
  try {
    const [code] = (await once(child, 'close')) as [number | null];
    return { code, stderr, missing: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { code: null, stderr: '', missing: true };
    throw error;
  }
}

/** The profile, adapted: the site's languages, the coastline where given, no Natural Earth layers. */
function writeProfile(dir: string, coastline: string | undefined): void {
  const config = JSON.parse(readFileSync(join(PROFILE_DIR, 'config-openmaptiles.json'), 'utf8'));
  for (const name of NATURAL_EARTH_LAYERS) delete config.layers[name];
  if (coastline) config.layers.ocean.source = join(resolve(coastline), 'water_polygons.shp');
  else delete config.layers.ocean;
  config.settings.name = 'The site’s own map';
  config.settings.description = 'OpenMapTiles schema, built by tilemaker from the site’s OpenStreetMap extract';
  // The site serves its own TileJSON (/tiles.json); the profile's example address would mislead.
  delete config.settings.filemetadata.tiles;
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, 1));
  const lua = readFileSync(join(PROFILE_DIR, 'process-openmaptiles.lua'), 'utf8');
  const languages = `additional_languages = { ${LANGUAGES.map((lang) => `"${lang}"`).join(', ')} }`;
  if (!/^additional_languages = \{.*\}$/m.test(lua)) throw new TilesBuildError(`${PROFILE_DIR}/process-openmaptiles.lua has no additional_languages line: is it tilemaker 2.2's profile?`);
  writeFileSync(join(dir, 'process.lua'), lua.replace(/^additional_languages = \{.*\}$/m, languages));
}

/** The last line of a program's error output that says something (never a whole stack). */
function lastWords(stderr: string): string {
  const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line && !/^Unable to open .*\.shp/.test(line));
  const what = lines.find((line) => line.startsWith('what():'));
  return (what ? what.slice('what():'.length) : lines.at(-1) ?? 'no message').trim().slice(0, 300);
}

/**
 * A copy of `input` without the node references its ways make to nodes it does not hold (ways
 * left with fewer than two nodes go, and relation members that are gone), through osmium's OPL
 * text format: a node is always listed before the ways that use it.
 */
async function dropDanglingReferences(osmium: string, input: string, output: string): Promise<void> {
  const reader = spawn(osmium, ['cat', '--no-progress', '-f', 'opl', input, '-o', '-'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const writer = spawn(osmium, ['cat', '--no-progress', '-F', 'opl', '-', '-o', output, '--overwrite'], { stdio: ['pipe', 'ignore', 'pipe'] });
  const nodes = new Set<string>();
  const ways = new Set<string>();
  // Listened for from the start: a child may be done before the rewriting loop is.
  const closed = Promise.all([once(reader, 'close'), once(writer, 'close')]);
  closed.catch(() => {}); // a spawn error is answered through the race below
  let errors = '';
  for (const child of [reader, writer]) child.stderr.on('data', (chunk: Buffer) => void (errors = (errors + chunk.toString()).slice(-20_000)));
  const spawnFailed = new Promise<never>((_, reject) => {
    for (const child of [reader, writer]) child.once('error', (error) => reject(new TilesBuildError(`osmium could not be run (${error.message}): ${INSTALL_HINT}`)));
  });
  spawnFailed.catch(() => {}); // answered through the race below
  const rewrite = (async () => {
    for await (const line of createInterface({ input: reader.stdout, crlfDelay: Infinity })) {
      const kind = line[0];
      let out: string | null = line;
      if (kind === 'n') nodes.add(line.slice(1, line.indexOf(' ')));
      else if (kind === 'w' || kind === 'r') {
        const fields = line.split(' ');
        const at = fields.findIndex((field) => field[0] === (kind === 'w' ? 'N' : 'M'));
        const refs = fields[at].slice(1).split(',').filter(Boolean);
        if (kind === 'w') {
          const kept = refs.filter((ref) => nodes.has(ref.slice(1)));
          fields[at] = `N${kept.join(',')}`;
          if (kept.length >= 2) ways.add(fields[0].slice(1));
          out = kept.length >= 2 ? fields.join(' ') : null;
        } else {
          const present = (member: string) => {
            const id = member.slice(1, member.indexOf('@'));
            return member[0] === 'n' ? nodes.has(id) : member[0] === 'w' ? ways.has(id) : true;
          };
          fields[at] = `M${refs.filter(present).join(',')}`;
          out = fields.join(' ');
        }
      }
      if (out !== null && !writer.stdin.write(`${out}\n`)) await once(writer.stdin, 'drain');
    }
    writer.stdin.end();
    const [[readCode], [writeCode]] = await closed;
    if (readCode !== 0 || writeCode !== 0) throw new TilesBuildError(`osmium could not rewrite the extract: ${lastWords(errors)}`);
  })();
  await Promise.race([rewrite, spawnFailed]);
}

/** The bounding box in the extract's header, as tilemaker's --bbox wants it, or null. */
async function headerBox(osmium: string, input: string): Promise<string | null> {
  let box: string | null = null;
  await run(osmium, ['fileinfo', '-g', 'header.boxes', input], { onLine: (line) => void (box ??= /^\(([-\d.,]+)\)/.exec(line.trim())?.[1] ?? null) });
  return box;
}

export async function buildTiles(options: BuildOptions): Promise<BuildSummary> {
  const tilemaker = options.tilemaker ?? 'tilemaker';
  const osmium = options.osmium ?? 'osmium';
  const progress = options.progress ?? (() => {});
  const started = performance.now();
  const input = resolve(options.input);
  if (!existsSync(input) || !statSync(input).isFile()) throw new TilesBuildError(`${options.input}: no such file`);
  if (!/\.pbf$/i.test(input)) throw new TilesBuildError(`${options.input}: tilemaker reads .osm.pbf extracts only (osmium cat file.osm -o file.osm.pbf converts one)`);
  if (options.coastline && !existsSync(join(options.coastline, 'water_polygons.shp'))) {
    throw new TilesBuildError(
      `${options.coastline}: no water_polygons.shp there; download and unpack https://osmdata.openstreetmap.de/download/water-polygons-split-4326.zip`,
    );
  }
  if (!existsSync(join(PROFILE_DIR, 'config-openmaptiles.json'))) throw new TilesBuildError(`tilemaker is not installed (no OpenMapTiles profile in ${PROFILE_DIR}): ${INSTALL_HINT}`);

  const output = resolve(options.output);
  mkdirSync(dirname(output), { recursive: true });
  const work = mkdtempSync(join(dirname(output), '.tiles-build-'));
  // Beside the served file, so that the rename that swaps them in is atomic.
  const building = join(work, 'tiles.mbtiles');
  try {
    writeProfile(work, options.coastline);
    const tilemakerRun = async (source: string, bbox: string | null) =>
      run(tilemaker, ['--input', source, '--output', building, '--config', 'config.json', '--process', 'process.lua', ...(bbox ? ['--bbox', bbox] : [])], {
        cwd: work,
        onLine: (line) => {
          const written = /writing tile (\d+) of (\d+)/.exec(line);
          if (written) progress({ phase: 'writing tiles', done: Number(written[1]), total: Number(written[2]) });
          else if (/^Reading \.pbf/.test(line)) progress({ phase: 'reading the extract' });
        },
      });

    progress({ phase: 'reading the extract' });
    let result = await tilemakerRun(input, null);
    if (result.missing) throw new TilesBuildError(`tilemaker is not installed: ${INSTALL_HINT}`);
    let repaired = false;
    const missingNode = /Could not find node with id (\d+)/.exec(result.stderr);
    if (result.code !== 0 && missingNode) {
      const why = `the extract's ways use nodes it does not hold (node ${missingNode[1]}, for one): it was cut without complete ways`;
      if ((await run(osmium, ['--version'])).missing) {
        throw new TilesBuildError(`${why}. Install osmium-tool (${INSTALL_HINT}) to have them dropped, or download an extract cut with complete ways (e.g. from download.geofabrik.de)`);
      }
      progress({ phase: `${why}; dropping those references` });
      rmSync(building, { force: true });
      const repairedFile = join(work, 'repaired.osm.pbf');
      await dropDanglingReferences(osmium, input, repairedFile);
      repaired = true;
      result = await tilemakerRun(repairedFile, await headerBox(osmium, input));
    }
    if (result.code !== 0 || !existsSync(building)) throw new TilesBuildError(`tilemaker could not build the tiles: ${lastWords(result.stderr)}`);

    const reader = openMbtiles(building);
    let tiles: number;
    let layers: string[];
    try {
      tiles = reader.tileCount();
      layers = (JSON.parse(reader.metadata().json ?? '{}').vector_layers ?? []).map((layer: { id: string }) => layer.id);
    } finally {
      reader.close();
    }
    if (tiles === 0) throw new TilesBuildError(`tilemaker wrote no tiles from ${options.input}: is it an empty extract, or no .osm.pbf at all?`);
    const bytes = statSync(building).size;
    renameSync(building, output);
    return { tiles, bytes, seconds: (performance.now() - started) / 1000, repaired, layers };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
