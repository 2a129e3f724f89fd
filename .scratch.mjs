import fs from 'node:fs';
import { Readable } from 'node:stream';
import parseOSM from 'osm-pbf-parser';
const t0 = performance.now();
let n = 0, nodes=0, ways=0, rels=0;
const osm = parseOSM();
fs.createReadStream(process.argv[2]).pipe(osm);
const r = new Readable({objectMode: true, highWaterMark: 1, read(){}}).wrap(osm);
for await (const items of r) { for (const it of items) { n++; if (it.type==='node') nodes++; else if (it.type==='way') ways++; else rels++; } }
console.log(n, nodes, ways, rels, (performance.now()-t0).toFixed(0)+'ms', Math.round(process.resourceUsage().maxRSS/1024)+'MB');
