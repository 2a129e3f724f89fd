// Change files: how long a day of changes takes to apply, and what keeping node
// locations costs. From the Vancouver extract's own index, a change file that modifies 10 % of
// the places (new name and version), deletes 1 % and moves every node of 1,000 place ways (the
// ways themselves not in the file, as in real diffs); applied to a fresh copy of the index on
// each engine, median of three runs; places changed per second.
import { mkdtempSync, rmSync, statSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from '../db/sqlite-driver.js';
import pg from 'pg';
import { checkDb, createDb, migrate } from '../db/index.js';
import { applyChange } from '../src/places/sources/changes/index.js';
import { importInputs } from '../src/places/sources/import/index.js';
import { createPlaceStore } from '../src/places/store/index.js';
import { createPostgresDatabase, median, postgresServer, round } from './support/load.js';

const VANCOUVER = join(import.meta.dirname, '..', '..', 'shared', 'data', 'vancouver_canada-2015.osm.pbf');
const SOURCE = 'vancouver_canada-2015.osm.pbf';
const RUNS = 3;
const SHAPE_TABLES = ['node_locations', 'way_nodes', 'relation_members', 'place_nodes'];

const escape = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const tagXml = (tags: Record<string, string>) =>
  Object.entries(tags)
    .map(([k, v]) => `<tag k="${escape(k)}" v="${escape(v)}"/>`)
    .join('');

/** A deterministic day of changes against the index in `file` (SQLite). */
function dayOfChanges(file: string): {
  xml: string;
  modified: number;
  deleted: number;
  waysMoved: number;
  nodesMoved: number;
} {
  const db = new Database(file, { readonly: true });
  const places = db
    .prepare(
      `select p.osm_type, p.osm_id, p.lat, p.lon, coalesce(p.version, 1) as version, t.tags, w.refs, r.members
       from places p join place_tags t on t.id = p.id left join way_nodes w on p.osm_type = 'way' and w.id = p.osm_id
       left join relation_members r on p.osm_type = 'relation' and r.id = p.osm_id order by p.id`,
    )
    .all() as {
    osm_type: string;
    osm_id: number;
    lat: number;
    lon: number;
    version: number;
    tags: string;
    refs: string | null;
    members: string | null;
  }[];
  const location = db.prepare('select lat, lon from node_locations where id = ?');
  const modify: string[] = [];
  const remove: string[] = [];
  let modified = 0;
  let waysMoved = 0;
  const movedNodes = new Set<number>();
  places.forEach((p, i) => {
    const version = p.version + 1;
    if (i % 100 === 0) {
      remove.push(
        `<${p.osm_type} id="${p.osm_id}" version="${version}"${p.osm_type === 'node' ? ` lat="${p.lat}" lon="${p.lon}"` : ''}/>`,
      );
      return;
    }
    if (i % 10 === 1) {
      modified++;
      const tags = JSON.parse(p.tags) as Record<string, string>;
      tags.name = `${tags.name ?? 'Unnamed'} (changed)`;
      if (p.osm_type === 'node')
        modify.push(`<node id="${p.osm_id}" version="${version}" lat="${p.lat}" lon="${p.lon}">${tagXml(tags)}</node>`);
      else if (p.osm_type === 'way' && p.refs) {
        modify.push(
          `<way id="${p.osm_id}" version="${version}">${(JSON.parse(p.refs) as number[]).map((r) => `<nd ref="${r}"/>`).join('')}${tagXml(tags)}</way>`,
        );
      } else if (p.osm_type === 'relation' && p.members) {
        const members = (JSON.parse(p.members) as [string, number][])
          .map(([type, ref]) => `<member type="${type}" ref="${ref}" role=""/>`)
          .join('');
        modify.push(`<relation id="${p.osm_id}" version="${version}">${members}${tagXml(tags)}</relation>`);
      }
      return;
    }
    if (p.osm_type === 'way' && p.refs && waysMoved < 1000) {
      waysMoved++;
      for (const ref of JSON.parse(p.refs) as number[]) {
        if (movedNodes.has(ref)) continue;
        const at = location.get(ref) as { lat: number; lon: number } | undefined;
        if (!at) continue;
        movedNodes.add(ref);
        modify.push(`<node id="${ref}" version="99" lat="${round(at.lat + 0.0002, 7)}" lon="${at.lon}"/>`);
      }
    }
  });
  db.close();
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<osmChange version="0.6" generator="bench">\n<modify>\n${modify.join('\n')}\n</modify>\n<delete>\n${remove.join('\n')}\n</delete>\n</osmChange>\n`;
  return { xml, modified, deleted: remove.length, waysMoved, nodesMoved: movedNodes.size };
}

/** Bytes the node-location tables take: the SQLite file with and without them, vacuumed. */
function sqliteShapeBytes(file: string, work: string): { with: number; without: number } {
  const copy = join(work, 'shape-size.db');
  copyFileSync(file, copy);
  const db = new Database(copy);
  db.exec('vacuum');
  const withShapes = statSync(copy).size;
  for (const table of SHAPE_TABLES) db.exec(`delete from ${table}`);
  db.exec('vacuum');
  db.close();
  return { with: withShapes, without: statSync(copy).size };
}

async function applyTimed(url: string, file: Buffer) {
  const handle = createDb(
    url.startsWith('sqlite:') ? { kind: 'sqlite', path: url.slice(7) } : { kind: 'postgres', url },
  );
  try {
    const started = performance.now();
    const summary = await applyChange(createPlaceStore(handle), file, { source: SOURCE, sequence: 1 });
    return { seconds: (performance.now() - started) / 1000, ...summary };
  } finally {
    await handle.close();
  }
}

export async function run() {
  const work = mkdtempSync(join(tmpdir(), 'changes-bench-'));
  const postgres = await postgresServer();
  try {
    const base = join(work, 'base.db');
    const handle = createDb({ kind: 'sqlite', path: base });
    await migrate(handle);
    await importInputs(createPlaceStore(handle), [VANCOUVER]);
    await handle.close();
    const change = dayOfChanges(base);
    const file = gzipSync(change.xml);
    console.log(
      `a day of changes for ${SOURCE}: ${change.modified.toLocaleString('en')} places modified, ${change.deleted} deleted, ` +
        `${change.nodesMoved.toLocaleString('en')} nodes of ${change.waysMoved} place ways moved; ` +
        `${Math.round(file.length / 1024)} KiB gzipped`,
    );
    const bytes = sqliteShapeBytes(base, work);
    const shapeMb = round((bytes.with - bytes.without) / 2 ** 20);
    console.log(
      `  node locations kept for ways and relations (SQLite): ${shapeMb} MB of a ${round(bytes.with / 2 ** 20)} MB database`,
    );

    const engines: Record<string, string[]> = { sqlite: [] };
    for (let i = 0; i < RUNS; i++) {
      const copy = join(work, `run-${i}.db`);
      copyFileSync(base, copy);
      engines.sqlite.push(`sqlite:${copy}`);
    }
    const pgShapes: Record<string, number> = {};
    if (postgres) {
      engines.postgres = [];
      for (let i = 0; i < RUNS; i++) {
        const url = await createPostgresDatabase(postgres.adminUrl, `bench_changes_${i}`);
        const h = createDb({ kind: 'postgres', url });
        await checkDb(h);
        await migrate(h);
        await importInputs(createPlaceStore(h), [VANCOUVER]);
        await h.close();
        engines.postgres.push(url);
      }
      const client = new pg.Client({ connectionString: engines.postgres[0] });
      await client.connect();
      for (const table of SHAPE_TABLES) {
        pgShapes[table] = Number(
          (await client.query<{ n: string }>(`select pg_total_relation_size('${table}') as n`)).rows[0].n,
        );
      }
      await client.end();
      console.log(
        `  the same on PostgreSQL (tables and indexes): ${round(Object.values(pgShapes).reduce((a, b) => a + b, 0) / 2 ** 20)} MB`,
      );
    }

    const results: Record<string, object> = {};
    for (const [engine, urls] of Object.entries(engines)) {
      const runs = [];
      for (const url of urls) runs.push(await applyTimed(url, file));
      const seconds = median(runs.map((r) => r.seconds));
      const changed = runs[0].created + runs[0].modified + runs[0].deleted;
      results[engine] = {
        seconds: round(seconds),
        places_changed: changed,
        places_per_s: Math.round(changed / seconds),
        summary: runs[0],
      };
      console.log(
        `  applied on ${engine}: ${round(seconds)} s (median of ${RUNS}), ${changed.toLocaleString('en')} places changed ` +
          `(${runs[0].modified.toLocaleString('en')} modified or moved, ${runs[0].deleted} deleted): ` +
          `${Math.round(changed / seconds).toLocaleString('en')} places/s`,
      );
    }
    return {
      change: { ...change, xml: undefined, gzip_bytes: file.length },
      node_locations_mb: {
        sqlite: shapeMb,
        postgres: round(Object.values(pgShapes).reduce((a, b) => a + b, 0) / 2 ** 20),
      },
      apply: results,
    };
  } finally {
    if (postgres && !postgres.cluster) {
      const admin = new pg.Client({ connectionString: postgres.adminUrl });
      await admin.connect();
      for (let i = 0; i < RUNS; i++) await admin.query(`drop database if exists bench_changes_${i} with (force)`);
      await admin.end();
    }
    postgres?.cluster?.remove();
    rmSync(work, { recursive: true, force: true });
  }
}
