// Builds the site's own vector tiles from one or more OpenStreetMap extracts with Debian's tilemaker
// and its OpenMapTiles profile (names also in the site's five languages), into a temporary file
// renamed over the served one only when whole: a failed build leaves the old tiles serving.
// Several extracts are merged by osmium into one input first, so that tiles where two regions
// meet (and every low zoom) hold both. The sea is drawn from the extracts' own coastline, closed
// along each extract's box (coastline.ts) and made into water polygons by osmcoastline, or from
// ready-made water polygons given as a folder.
// Extracts cut without complete ways (ways naming nodes the file lacks) stop tilemaker at once;
// the command drops those references first and builds the rest.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { LANGUAGES } from '../i18n.js';
import { assembleCoastline, landRings, type Box, type CoastlineNode, type Ring } from './coastline.js';
import { openMbtiles, writeMbtilesMetadata } from './mbtiles.js';

/** Where Debian's tilemaker package puts the OpenMapTiles profile. */
export const PROFILE_DIR = '/usr/share/doc/tilemaker/examples';
export const INSTALL_HINT = 'sudo apt-get install tilemaker osmium-tool osmcoastline gdal-bin';
/** The Natural Earth layers of the profile: shapefiles a site does not have; dropped from its config. */
const NATURAL_EARTH_LAYERS = ['urban_areas', 'ice_shelf', 'glacier'];

export class TilesBuildError extends Error {}

export interface BuildOptions {
  /** one or more .osm.pbf extracts, drawn together in one map */
  inputs: string[];
  output: string;
  /** a folder holding water_polygons.shp (osmdata.openstreetmap.de's "water polygons", WGS84) */
  coastline?: string;
  /** told what happens: phases and tile counts */
  progress?: (event: { phase: string; done?: number; total?: number }) => void;
  tilemaker?: string;
  osmium?: string;
  osmcoastline?: string;
  ogr2ogr?: string;
}

export interface BuildSummary {
  tiles: number;
  bytes: number;
  seconds: number;
  /** node references dropped from ways because the extract lacks those nodes */
  repaired: boolean;
  layers: string[];
  /** where the sea came from: the extracts' coastline, the coastline folder, or nowhere (no coast) */
  sea: 'coastline' | 'folder' | 'none';
  /** water polygons made from the extracts' coastline (osmcoastline's, cut to the extracts' boxes) */
  seaPolygons: number;
  /** pieces of cut coastline left out: no way to the edge of the data without crossing the coast, or contradicting it */
  droppedCoastlines: number;
  /** what the extracts cover: [west, south, east, north] */
  bounds: [number, number, number, number];
}

interface Run {
  code: number | null;
  stderr: string;
  missing: boolean;
}

/** Runs a program, feeding its stdout lines to `onLine`; `missing` when it is not installed. */
async function run(
  command: string,
  args: string[],
  options: { cwd?: string; onLine?: (line: string) => void } = {},
): Promise<Run> {
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

/** The profile, adapted: the site's languages, the sea's shapefile where there is one, no Natural Earth layers. */
function writeProfile(dir: string, seaShapefile: string | null): void {
  const config = JSON.parse(readFileSync(join(PROFILE_DIR, 'config-openmaptiles.json'), 'utf8'));
  for (const name of NATURAL_EARTH_LAYERS) delete config.layers[name];
  if (seaShapefile) config.layers.ocean.source = seaShapefile;
  else delete config.layers.ocean;
  config.settings.name = 'The site’s own map';
  config.settings.description = 'OpenMapTiles schema, built by tilemaker from the site’s OpenStreetMap extracts';
  // The site serves its own TileJSON (/tiles.json); the profile's example address would mislead.
  delete config.settings.filemetadata.tiles;
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, 1));
  const lua = readFileSync(join(PROFILE_DIR, 'process-openmaptiles.lua'), 'utf8');
  const languages = `additional_languages = { ${LANGUAGES.map((lang) => `"${lang}"`).join(', ')} }`;
  if (!/^additional_languages = \{.*\}$/m.test(lua))
    throw new TilesBuildError(
      `${PROFILE_DIR}/process-openmaptiles.lua has no additional_languages line: is it tilemaker 2.2's profile?`,
    );
  writeFileSync(join(dir, 'process.lua'), lua.replace(/^additional_languages = \{.*\}$/m, languages));
}

/** The last line of a program's error output that says something (never a whole stack). */
function lastWords(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const what = lines.find((line) => line.startsWith('what():'));
  return (what ? what.slice('what():'.length) : (lines.at(-1) ?? 'no message')).trim().slice(0, 300);
}

/**
 * A copy of `input` without the node references its ways make to nodes it does not hold (ways
 * left with fewer than two nodes go, and relation members that are gone), through osmium's OPL
 * text format: a node is always listed before the ways that use it.
 */
async function dropDanglingReferences(osmium: string, input: string, output: string): Promise<void> {
  const reader = spawn(osmium, ['cat', '--no-progress', '-f', 'opl', input, '-o', '-'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const writer = spawn(osmium, ['cat', '--no-progress', '-F', 'opl', '-', '-o', output, '--overwrite'], {
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const nodes = new Set<string>();
  const ways = new Set<string>();
  // Listened for from the start: a child may be done before the rewriting loop is.
  const closed = Promise.all([once(reader, 'close'), once(writer, 'close')]);
  closed.catch(() => {}); // a spawn error is answered through the race below
  let errors = '';
  for (const child of [reader, writer])
    child.stderr.on('data', (chunk: Buffer) => void (errors = (errors + chunk.toString()).slice(-20_000)));
  const spawnFailed = new Promise<never>((_, reject) => {
    for (const child of [reader, writer])
      child.once('error', (error) =>
        reject(new TilesBuildError(`osmium could not be run (${error.message}): ${INSTALL_HINT}`)),
      );
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
    if (readCode !== 0 || writeCode !== 0)
      throw new TilesBuildError(`osmium could not rewrite the extract: ${lastWords(errors)}`);
  })();
  await Promise.race([rewrite, spawnFailed]);
}

/** A box as osmium prints it, "(west,south,east,north)", or null. */
function parseBox(text: string): Box | null {
  const numbers = /^\(([-\d.]+),([-\d.]+),([-\d.]+),([-\d.]+)\)/.exec(text.trim())?.slice(1).map(Number);
  if (!numbers || numbers.some((n) => !Number.isFinite(n))) return null;
  const [west, south, east, north] = numbers;
  return west < east && south < north ? { west, south, east, north } : null;
}

/**
 * What an extract covers: the box in its header (where its maker cut it), else the box of its
 * nodes (osmium reads the whole file for that), or null when it holds none.
 */
async function coverage(osmium: string, input: string): Promise<Box | null> {
  for (const args of [
    ['-g', 'header.boxes'],
    ['-e', '-g', 'data.bbox'],
  ]) {
    let box: Box | null = null;
    await run(osmium, ['fileinfo', ...args, input], { onLine: (line) => void (box ??= parseBox(line)) });
    if (box) return box;
  }
  return null;
}

/** The natural=coastline ways of an extract, with their nodes' locations (null where it lacks one). */
export async function readCoastlineWays(osmium: string, input: string, work: string): Promise<CoastlineNode[][]> {
  const filtered = join(work, 'coastline.osm.pbf');
  const filter = await run(osmium, [
    'tags-filter',
    '--no-progress',
    input,
    'w/natural=coastline',
    '-o',
    filtered,
    '--overwrite',
  ]);
  if (filter.code !== 0)
    throw new TilesBuildError(`osmium could not read the coastline of ${input}: ${lastWords(filter.stderr)}`);
  const reader = spawn(
    osmium,
    ['add-locations-to-ways', '--no-progress', '--ignore-missing-nodes', filtered, '-f', 'opl', '-o', '-'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let errors = '';
  reader.stderr.on('data', (chunk: Buffer) => void (errors = (errors + chunk.toString()).slice(-20_000)));
  const closed = once(reader, 'close');
  const ways: CoastlineNode[][] = [];
  for await (const line of createInterface({ input: reader.stdout, crlfDelay: Infinity })) {
    if (line[0] !== 'w') continue;
    const refs =
      line
        .split(' ')
        .find((field) => field[0] === 'N')
        ?.slice(1)
        .split(',')
        .filter(Boolean) ?? [];
    ways.push(
      refs.map((ref) => {
        // n<id>x<lon>y<lat>, with empty coordinates for a node the extract lacks
        const [, id, lon, lat] = /^n(\d+)x([-\d.]*)y([-\d.]*)$/.exec(ref) ?? [];
        return { id: id ?? ref, at: lon && lat ? [Number(lon), Number(lat)] : null };
      }),
    );
  }
  const [code] = (await closed) as [number | null];
  if (code !== 0) throw new TilesBuildError(`osmium could not read the coastline of ${input}: ${lastWords(errors)}`);
  rmSync(filtered, { force: true });
  return ways;
}

/**
 * Land rings as an OSM file (OPL) of closed natural=coastline ways, one per ring, for osmcoastline.
 * Locations keep osmium's 7 decimals; points that round to the same location are one node.
 */
export function writeCoastlineFile(path: string, rings: Ring[]): void {
  const nodes: string[] = [];
  const ways: string[] = [];
  for (const ring of rings) {
    const locations: string[] = [];
    for (const [lon, lat] of ring) {
      const at = `x${lon.toFixed(7)} y${lat.toFixed(7)}`;
      if (at !== locations.at(-1)) locations.push(at);
    }
    if (locations.length > 1 && locations.at(-1) === locations[0]) locations.pop();
    if (locations.length < 3) continue;
    const first = nodes.length + 1;
    for (const at of locations) nodes.push(`n${nodes.length + 1} v1 ${at}`);
    const refs = locations.map((_, i) => `n${first + i}`);
    ways.push(`w${ways.length + 1} v1 Tnatural=coastline N${[...refs, refs[0]].join(',')}`);
  }
  writeFileSync(path, [...nodes, ...ways, ''].join('\n'));
}

interface Sea {
  /** the water polygons' shapefile, or null where no coast reaches into any box */
  shapefile: string | null;
  polygons: number;
  dropped: number;
}

/**
 * The sea from the extracts' coastline, as one shapefile in `work`. For each extract's box, the
 * coastline closed along the box (coastline.ts) is written as coastline ways; osmcoastline
 * assembles them into land polygons and writes the water around them (the whole world but that
 * land); ogr2ogr keeps what lies in the box and adds it to the shapefile.
 */
async function seaFromCoastline(
  tools: { osmium: string; osmcoastline: string; ogr2ogr: string },
  source: string,
  boxes: Box[],
  work: string,
): Promise<Sea> {
  const coastline = assembleCoastline(await readCoastlineWays(tools.osmium, source, work));
  const shapefile = join(work, 'water_polygons.shp');
  const coastFile = join(work, 'coastline.opl');
  let dropped = 0;
  let written = false;
  for (const [i, box] of boxes.entries()) {
    const land = landRings(coastline, box);
    dropped += land.dropped;
    // No coast reaches into the box: it is land (inland, or a coast beyond the data).
    if (!land.rings.length) continue;
    writeCoastlineFile(coastFile, land.rings);
    // A folder of its own for each box: osmcoastline's --overwrite replaces a file, not a folder.
    const polygonsDir = join(work, `osmcoastline-${i}`);
    const made = await run(tools.osmcoastline, [
      '--output-polygons=water',
      '--gdal-driver=ESRI Shapefile',
      // Every ring is closed already: nothing for osmcoastline to guess.
      '--close-distance=0',
      '--output-database',
      polygonsDir,
      coastFile,
    ]);
    // 1 and 2 are warnings and errors about the data; 3 and more, a failure to run.
    if (made.code === null || made.code > 2 || !existsSync(join(polygonsDir, 'water_polygons.shp')))
      throw new TilesBuildError(`osmcoastline could not make the water polygons: ${lastWords(made.stderr)}`);
    const clipped = await run(tools.ogr2ogr, [
      ...(written ? ['-update', '-append'] : []),
      '-clipdst',
      ...[box.west, box.south, box.east, box.north].map(String),
      '-explodecollections',
      '-nlt',
      'POLYGON',
      '-nln',
      'water_polygons',
      shapefile,
      join(polygonsDir, 'water_polygons.shp'),
    ]);
    if (clipped.code !== 0)
      throw new TilesBuildError(`ogr2ogr could not cut the water polygons: ${lastWords(clipped.stderr)}`);
    written = true;
  }
  if (!written) return { shapefile: null, polygons: 0, dropped };
  // The index file holds a 100-byte header and 8 bytes per polygon.
  const polygons = (statSync(shapefile.replace(/\.shp$/, '.shx')).size - 100) / 8;
  return { shapefile: polygons ? shapefile : null, polygons, dropped };
}

/** The zoom at which a box fills about 512 pixels (the centre's zoom in the TileJSON). */
function fittingZoom(box: Box, maxZoom: number): number {
  const mercatorY = (lat: number) =>
    Math.log(Math.tan(Math.PI / 4 + (Math.max(-85, Math.min(85, lat)) * Math.PI) / 360));
  const width = (box.east - box.west) / 360;
  const height = (mercatorY(box.north) - mercatorY(box.south)) / (2 * Math.PI);
  const zoom = Math.floor(Math.log2(512 / 256 / Math.max(width, height, 1e-9)));
  return Math.max(0, Math.min(maxZoom, zoom));
}

export async function buildTiles(options: BuildOptions): Promise<BuildSummary> {
  const tilemaker = options.tilemaker ?? 'tilemaker';
  const osmium = options.osmium ?? 'osmium';
  const osmcoastline = options.osmcoastline ?? 'osmcoastline';
  const ogr2ogr = options.ogr2ogr ?? 'ogr2ogr';
  const progress = options.progress ?? (() => {});
  const started = performance.now();
  if (!options.inputs.length) throw new TilesBuildError('no extract given');
  const inputs = options.inputs.map((input) => resolve(input));
  options.inputs.forEach((given, i) => {
    if (!existsSync(inputs[i]) || !statSync(inputs[i]).isFile()) throw new TilesBuildError(`${given}: no such file`);
    if (!/\.pbf$/i.test(given))
      throw new TilesBuildError(
        `${given}: tilemaker reads .osm.pbf extracts only (osmium cat file.osm -o file.osm.pbf converts one)`,
      );
  });
  const folderShapefile = options.coastline ? join(resolve(options.coastline), 'water_polygons.shp') : null;
  if (folderShapefile && !existsSync(folderShapefile)) {
    throw new TilesBuildError(
      `${options.coastline}: no water_polygons.shp there; download and unpack https://osmdata.openstreetmap.de/download/water-polygons-split-4326.zip`,
    );
  }
  if (!existsSync(join(PROFILE_DIR, 'config-openmaptiles.json')))
    throw new TilesBuildError(
      `tilemaker is not installed (no OpenMapTiles profile in ${PROFILE_DIR}): ${INSTALL_HINT}`,
    );
  // osmcoastline and ogr2ogr draw the sea from the coastline; a folder of water polygons needs neither.
  for (const [name, command, needed] of [
    ['osmium', osmium, true],
    ['osmcoastline', osmcoastline, !folderShapefile],
    ['ogr2ogr', ogr2ogr, !folderShapefile],
  ] as const) {
    if (needed && (await run(command, ['--version'])).missing)
      throw new TilesBuildError(`${name} is not installed: ${INSTALL_HINT}`);
  }

  const output = resolve(options.output);
  mkdirSync(dirname(output), { recursive: true });
  const work = mkdtempSync(join(dirname(output), '.tiles-build-'));
  // Beside the served file, so that the rename that swaps them in is atomic.
  const building = join(work, 'tiles.mbtiles');
  try {
    const boxes: Box[] = [];
    for (const [i, input] of inputs.entries()) {
      const box = await coverage(osmium, input);
      if (!box)
        throw new TilesBuildError(
          `${options.inputs[i]}: osmium finds no data in it: is it an empty extract, or no .osm.pbf at all?`,
        );
      boxes.push(box);
    }
    const extent: Box = {
      west: Math.min(...boxes.map((box) => box.west)),
      south: Math.min(...boxes.map((box) => box.south)),
      east: Math.max(...boxes.map((box) => box.east)),
      north: Math.max(...boxes.map((box) => box.north)),
    };

    let source = inputs[0];
    if (inputs.length > 1) {
      progress({ phase: `merging ${inputs.length} extracts` });
      source = join(work, 'merged.osm.pbf');
      const merged = await run(osmium, ['merge', '--no-progress', ...inputs, '-o', source]);
      if (merged.code !== 0) {
        const why = lastWords(merged.stderr);
        const hint = /out of order/.test(why) ? ' (osmium sort <extract> -o <sorted extract> puts one in order)' : '';
        throw new TilesBuildError(`osmium could not merge the extracts: ${why}${hint}`);
      }
    }

    let sea: Sea = { shapefile: folderShapefile, polygons: 0, dropped: 0 };
    if (!folderShapefile) {
      progress({ phase: 'drawing the sea from the coastline' });
      sea = await seaFromCoastline({ osmium, osmcoastline, ogr2ogr }, source, boxes, work);
    }
    writeProfile(work, sea.shapefile);

    const bbox = [extent.west, extent.south, extent.east, extent.north].join(',');
    const tilemakerRun = async (input: string) =>
      run(
        tilemaker,
        ['--input', input, '--output', building, '--config', 'config.json', '--process', 'process.lua', '--bbox', bbox],
        {
          cwd: work,
          onLine: (line) => {
            const written = /writing tile (\d+) of (\d+)/.exec(line);
            if (written) progress({ phase: 'writing tiles', done: Number(written[1]), total: Number(written[2]) });
            else if (/^Reading \.pbf/.test(line)) progress({ phase: 'reading the extract' });
          },
        },
      );

    progress({ phase: 'reading the extract' });
    let result = await tilemakerRun(source);
    if (result.missing) throw new TilesBuildError(`tilemaker is not installed: ${INSTALL_HINT}`);
    let repaired = false;
    const missingNode = /Could not find node with id (\d+)/.exec(result.stderr);
    if (result.code !== 0 && missingNode) {
      progress({
        phase: `the extract's ways use nodes it does not hold (node ${missingNode[1]}, for one): it was cut without complete ways; dropping those references`,
      });
      rmSync(building, { force: true });
      const repairedFile = join(work, 'repaired.osm.pbf');
      await dropDanglingReferences(osmium, source, repairedFile);
      repaired = true;
      result = await tilemakerRun(repairedFile);
    }
    if (result.code !== 0 || !existsSync(building))
      throw new TilesBuildError(`tilemaker could not build the tiles: ${lastWords(result.stderr)}`);

    const reader = openMbtiles(building);
    let tiles: number;
    let layers: string[];
    let maxZoom: number;
    try {
      tiles = reader.tileCount();
      layers = (JSON.parse(reader.metadata().json ?? '{}').vector_layers ?? []).map(
        (layer: { id: string }) => layer.id,
      );
      maxZoom = Number(reader.metadata().maxzoom ?? 14);
    } finally {
      reader.close();
    }
    if (tiles === 0)
      throw new TilesBuildError(`tilemaker wrote no tiles from ${options.inputs.join(', ')}: are they empty extracts?`);
    // What the extracts cover (tilemaker writes the box of the first one): the maps open on it.
    const bounds: BuildSummary['bounds'] = [extent.west, extent.south, extent.east, extent.north];
    writeMbtilesMetadata(building, {
      bounds: bounds.join(','),
      center: [(extent.west + extent.east) / 2, (extent.south + extent.north) / 2, fittingZoom(extent, maxZoom)].join(
        ',',
      ),
    });
    const bytes = statSync(building).size;
    renameSync(building, output);
    return {
      tiles,
      bytes,
      seconds: (performance.now() - started) / 1000,
      repaired,
      layers,
      sea: folderShapefile ? 'folder' : sea.shapefile ? 'coastline' : 'none',
      seaPolygons: sea.polygons,
      droppedCoastlines: sea.dropped,
      bounds,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
