// A one-polygon ESRI shapefile (.shp, .shx, .dbf) in WGS84, written byte by byte: the stand-in for
// the water polygons `npm run tiles --coastline` reads, without downloading them in a test.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `<dir>/<name>.shp/.shx/.dbf` holding one polygon, `ring` clockwise as [lon, lat] closed. */
export function writePolygonShapefile(dir: string, name: string, ring: [number, number][]): void {
  const xs = ring.map(([x]) => x);
  const ys = ring.map(([, y]) => y);
  const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  const contentBytes = 4 + 32 + 4 + 4 + 4 + 16 * ring.length;

  const header = (fileBytes: number) => {
    const h = Buffer.alloc(100);
    h.writeInt32BE(9994, 0);
    h.writeInt32BE(fileBytes / 2, 24);
    h.writeInt32LE(1000, 28);
    h.writeInt32LE(5, 32); // polygon
    box.forEach((value, i) => h.writeDoubleLE(value, 36 + 8 * i));
    return h;
  };

  const record = Buffer.alloc(8 + contentBytes);
  record.writeInt32BE(1, 0);
  record.writeInt32BE(contentBytes / 2, 4);
  record.writeInt32LE(5, 8);
  box.forEach((value, i) => record.writeDoubleLE(value, 12 + 8 * i));
  record.writeInt32LE(1, 44); // parts
  record.writeInt32LE(ring.length, 48); // points
  record.writeInt32LE(0, 52); // the one part starts at point 0
  ring.forEach(([x, y], i) => {
    record.writeDoubleLE(x, 56 + 16 * i);
    record.writeDoubleLE(y, 64 + 16 * i);
  });
  writeFileSync(join(dir, `${name}.shp`), Buffer.concat([header(100 + record.length), record]));

  const index = Buffer.alloc(8);
  index.writeInt32BE(50, 0);
  index.writeInt32BE(contentBytes / 2, 4);
  writeFileSync(join(dir, `${name}.shx`), Buffer.concat([header(108), index]));

  // dBASE III: one numeric field FID, one record
  const dbf = Buffer.alloc(32 + 32 + 1 + 1 + 10 + 1);
  dbf.writeUInt8(0x03, 0);
  dbf.writeUInt8(126, 1);
  dbf.writeUInt8(1, 2);
  dbf.writeUInt8(1, 3);
  dbf.writeUInt32LE(1, 4);
  dbf.writeUInt16LE(32 + 32 + 1, 8);
  dbf.writeUInt16LE(1 + 10, 10);
  dbf.write('FID', 32, 'latin1');
  dbf.write('N', 43, 'latin1');
  dbf.writeUInt8(10, 48);
  dbf.writeUInt8(0x0d, 64);
  dbf.write(' ' + '0'.padStart(10, ' '), 65, 'latin1');
  dbf.writeUInt8(0x1a, 76);
  writeFileSync(join(dir, `${name}.dbf`), dbf);
}
