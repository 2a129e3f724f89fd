// A synthetic country for the import benchmark: copies of a real extract laid side by side,
// each copy's ids renumbered into a range of its own and spread over today's id ranges (node ids
// above 2^31 and up to ~1.2e10, as in today's data), written ordered by type then id. The copies
// are written as OPL text and turned into .osm.pbf by Debian's osmium, which marks the file as
// ordered. `placeWays` adds leisure=park to every way without a leisure tag: the ceiling case,
// whose place ways use tens of millions of distinct nodes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export const VANCOUVER = join(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'vancouver_canada-2015.osm.pbf');
export const CACHE_DIR = process.env.BENCH_CACHE_DIR ?? join(tmpdir(), 'nearby-place-finder-bench');

/** Where today's ids end, per type: the copies' ids are spread up to these. */
const ID_RANGE = { n: 12e9, w: 1.3e9, r: 18e6 } as const;
type Kind = keyof typeof ID_RANGE;

interface Line {
  kind: Kind;
  rank: number;
  /** the fields between the id and the coordinates or the node/member list (version, tags...) */
  middle: string;
  x: number;
  y: number;
  /** ways: node ranks; relations: [kind, rank, role] per member */
  refs: Int32Array | null;
  members: [Kind, number, string][] | null;
}

export interface CountryOptions {
  copies: number;
  placeWays?: boolean;
  /** the extract copied (an .osm.pbf); Vancouver 2015 by default */
  source?: string;
}

export function osmiumAvailable(): boolean {
  return spawnSync('osmium', ['--version']).status === 0;
}

export function countryPath(options: CountryOptions): string {
  const of = options.source && options.source !== VANCOUVER ? `-${basename(options.source, '.osm.pbf')}` : '';
  return join(CACHE_DIR, `country-${options.copies}${options.placeWays ? '-placeways' : ''}${of}.osm.pbf`);
}

/** The synthetic country's path, made unless it is in the cache already. */
export async function syntheticCountry(
  options: CountryOptions,
): Promise<{ path: string; bytes: number; seconds: number }> {
  const path = countryPath(options);
  const started = performance.now();
  if (!existsSync(path)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    const partial = `${path}.partial.osm.pbf`;
    await writeCountry(options, partial);
    renameSync(partial, path);
  }
  return { path, bytes: statSync(path).size, seconds: (performance.now() - started) / 1000 };
}

function readLines(source: string): string[] {
  const result = spawnSync('osmium', ['cat', source, '-f', 'opl', '-o', '-'], { maxBuffer: 1 << 30, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`osmium cat ${source}: ${result.stderr}`);
  return result.stdout.split('\n').filter((line) => line.length > 0);
}

async function writeCountry(options: CountryOptions, path: string): Promise<void> {
  const raw = readLines(options.source ?? VANCOUVER);
  // Every id of each kind, present or referenced, gets a rank: a copy's ids keep their order.
  const ids: Record<Kind, Set<number>> = { n: new Set(), w: new Set(), r: new Set() };
  for (const line of raw) {
    const space = line.indexOf(' ');
    ids[line[0] as Kind].add(Number(line.slice(1, space)));
    const refs = / N(\S*)/.exec(line)?.[1];
    if (refs) for (const ref of refs.split(',')) ids.n.add(Number(ref.slice(1)));
    const members = / M(\S*)/.exec(line)?.[1];
    if (members)
      for (const member of members.split(',')) ids[member[0] as Kind].add(Number(member.slice(1, member.indexOf('@'))));
  }
  const rankOf = {} as Record<Kind, Map<number, number>>;
  const counts = {} as Record<Kind, number>;
  for (const kind of ['n', 'w', 'r'] as Kind[]) {
    const sorted = [...ids[kind]].sort((a, b) => a - b);
    rankOf[kind] = new Map(sorted.map((id, i) => [id, i]));
    counts[kind] = sorted.length;
  }
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  const lines: Line[] = raw.map((text) => {
    const fields = text.split(' ');
    const kind = text[0] as Kind;
    const line: Line = {
      kind,
      rank: rankOf[kind].get(Number(fields[0].slice(1)))!,
      middle: '',
      x: 0,
      y: 0,
      refs: null,
      members: null,
    };
    const middle: string[] = [];
    for (const field of fields.slice(1)) {
      if (kind === 'n' && field[0] === 'x') line.x = Number(field.slice(1));
      else if (kind === 'n' && field[0] === 'y') line.y = Number(field.slice(1));
      else if (kind === 'w' && field[0] === 'N')
        line.refs = Int32Array.from(field.length > 1 ? field.slice(1).split(',') : [], (ref) =>
          rankOf.n.get(Number(ref.slice(1)))!,
        );
      else if (kind === 'r' && field[0] === 'M') {
        line.members = (field.length > 1 ? field.slice(1).split(',') : []).map((member) => {
          const at = member.indexOf('@');
          const type = member[0] as Kind;
          return [type, rankOf[type].get(Number(member.slice(1, at)))!, member.slice(at + 1)];
        });
      } else if (kind === 'w' && options.placeWays && field[0] === 'T' && !/(^T|,)leisure=/.test(field)) {
        middle.push(field.length > 1 ? `${field},leisure=park` : 'Tleisure=park');
      } else middle.push(field);
    }
    line.middle = middle.join(' ');
    if (kind === 'n') {
      minX = Math.min(minX, line.x);
      maxX = Math.max(maxX, line.x);
      minY = Math.min(minY, line.y);
      maxY = Math.max(maxY, line.y);
    }
    return line;
  });

  // Copies side by side on a grid going east and south, a little apart.
  const columns = Math.ceil(Math.sqrt(options.copies * 1.5));
  const stepX = maxX - minX + 0.05;
  const stepY = maxY - minY + 0.05;
  const spread = (kind: Kind) => Math.max(1, Math.floor(ID_RANGE[kind] / (options.copies * counts[kind])));
  const newId = (kind: Kind, copy: number, rank: number) => (copy * counts[kind] + rank) * spread(kind) + 1;

  const osmium = spawn(
    'osmium',
    ['cat', '-F', 'opl', '-', '-o', path, '--overwrite', '--output-header=sorting=Type_then_ID'],
    {
      stdio: ['pipe', 'inherit', 'pipe'],
    },
  );
  let stderr = '';
  osmium.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number>((resolve) => osmium.on('close', (code) => resolve(code ?? 1)));
  let broken: Error | null = null;
  osmium.stdin.on('error', (error) => (broken = error));
  const write = async (text: string) => {
    if (broken) throw new Error(`osmium cat (OPL to PBF) stopped reading: ${stderr || broken.message}`);
    if (!osmium.stdin.write(text)) await new Promise((resolve) => osmium.stdin.once('drain', resolve));
  };
  try {
    for (const kind of ['n', 'w', 'r'] as Kind[]) {
      for (let copy = 0; copy < options.copies; copy++) {
        const dx = (copy % columns) * stepX;
        const dy = -Math.floor(copy / columns) * stepY;
        let chunk = '';
        for (const line of lines) {
          if (line.kind !== kind) continue;
          let text = `${kind}${newId(kind, copy, line.rank)} ${line.middle}`;
          if (kind === 'n') text += ` x${(line.x + dx).toFixed(7)} y${(line.y + dy).toFixed(7)}`;
          else if (line.refs) text += ` N${Array.from(line.refs, (rank) => `n${newId('n', copy, rank)}`).join(',')}`;
          else if (line.members)
            text += ` M${line.members.map(([type, rank, role]) => `${type}${newId(type, copy, rank)}@${role}`).join(',')}`;
          chunk += `${text}\n`;
          if (chunk.length > 1 << 20) {
            await write(chunk);
            chunk = '';
          }
        }
        if (chunk) await write(chunk);
      }
    }
    osmium.stdin.end();
    const code = await exited;
    if (code !== 0) throw new Error(`osmium cat (OPL to PBF) failed: ${stderr}`);
  } catch (error) {
    osmium.kill();
    rmSync(path, { force: true });
    throw error;
  }
}
