// Polygons as an ESRI shapefile (.shp, .shx and a .dbf with one numeric field), longitude and
// latitude in WGS84: what tilemaker 2.2 reads for its sea layer. Written byte by byte, as the
// format's specification lays it out (file lengths in 16-bit words, big-endian headers).
import { writeFileSync } from 'node:fs';
import type { Polygon } from './coastline.js';

const POLYGON = 5;

function bounds(points: [number, number][]): number[] {
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    west = Math.min(west, x);
    south = Math.min(south, y);
    east = Math.max(east, x);
    north = Math.max(north, y);
  }
  return [west, south, east, north];
}

function fileHeader(fileBytes: number, box: number[]): Buffer {
  const header = Buffer.alloc(100);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE(fileBytes / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE(POLYGON, 32);
  box.forEach((value, i) => header.writeDoubleLE(value, 36 + 8 * i));
  return header;
}

/**
 * Writes `<path>.shp`, `.shx` and `.dbf`, one record per polygon. A shapefile's outer rings run
 * clockwise and its holes counter-clockwise, each outer ring followed by its holes (tilemaker
 * relies on that order): the reverse of the polygons' own orientation, so every ring is turned.
 */
export function writePolygonShapefile(path: string, polygons: Polygon[]): void {
  const records: Buffer[] = [];
  for (const polygon of polygons) {
    const rings = polygon.map((ring) => [...ring].reverse());
    const points = rings.flat();
    const content = Buffer.alloc(44 + 4 * rings.length + 16 * points.length);
    content.writeInt32LE(POLYGON, 0);
    bounds(points).forEach((value, i) => content.writeDoubleLE(value, 4 + 8 * i));
    content.writeInt32LE(rings.length, 36);
    content.writeInt32LE(points.length, 40);
    let start = 0;
    rings.forEach((ring, i) => {
      content.writeInt32LE(start, 44 + 4 * i);
      start += ring.length;
    });
    const at = 44 + 4 * rings.length;
    points.forEach(([x, y], i) => {
      content.writeDoubleLE(x, at + 16 * i);
      content.writeDoubleLE(y, at + 16 * i + 8);
    });
    const header = Buffer.alloc(8);
    header.writeInt32BE(records.length + 1, 0);
    header.writeInt32BE(content.length / 2, 4);
    records.push(header, content);
  }
  const box = polygons.length ? bounds(polygons.flat(2)) : [0, 0, 0, 0];
  const body = Buffer.concat(records);
  writeFileSync(`${path}.shp`, Buffer.concat([fileHeader(100 + body.length, box), body]));

  const index = Buffer.alloc(8 * polygons.length);
  let offset = 100;
  for (let i = 0; i < polygons.length; i++) {
    const contentBytes = records[2 * i + 1].length;
    index.writeInt32BE(offset / 2, 8 * i);
    index.writeInt32BE(contentBytes / 2, 8 * i + 4);
    offset += 8 + contentBytes;
  }
  writeFileSync(`${path}.shx`, Buffer.concat([fileHeader(100 + index.length, box), index]));

  // dBASE III: one numeric field, FID, numbering the records.
  const fieldWidth = 10;
  const headerBytes = 32 + 32 + 1;
  const recordBytes = 1 + fieldWidth;
  const dbf = Buffer.alloc(headerBytes + recordBytes * polygons.length + 1, ' ');
  dbf.fill(0, 0, headerBytes);
  dbf.writeUInt8(0x03, 0);
  dbf.writeUInt8(126, 1); // last update: 2026-01-01
  dbf.writeUInt8(1, 2);
  dbf.writeUInt8(1, 3);
  dbf.writeUInt32LE(polygons.length, 4);
  dbf.writeUInt16LE(headerBytes, 8);
  dbf.writeUInt16LE(recordBytes, 10);
  dbf.write('FID', 32, 'latin1');
  dbf.write('N', 43, 'latin1');
  dbf.writeUInt8(fieldWidth, 48);
  dbf.writeUInt8(0x0d, 64);
  for (let i = 0; i < polygons.length; i++)
    dbf.write(String(i).padStart(fieldWidth, ' '), headerBytes + recordBytes * i + 1, 'latin1');
  dbf.writeUInt8(0x1a, dbf.length - 1);
  writeFileSync(`${path}.dbf`, dbf);
}
