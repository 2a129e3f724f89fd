// The one place that opens an .mbtiles file (SQLite). The server opens it read-only, so a build
// writing a new file beside it never contends with it, and it never changes the map; only a build
// writes, into its own file before it is swapped in.
import SQLite from '../../db/sqlite-driver.js';

export interface MbtilesReader {
  /** the stored tile (as stored: gzip-compressed protobuf) at z/x/y in XYZ order, or undefined */
  tile(z: number, x: number, y: number): Buffer | undefined;
  /** the `metadata` table as name -> value */
  metadata(): Record<string, string>;
  tileCount(): number;
  close(): void;
}

export function openMbtiles(path: string): MbtilesReader {
  const db = new SQLite(path, { readonly: true, fileMustExist: true });
  let select: SQLite.Statement;
  try {
    select = db
      .prepare('select tile_data from tiles where zoom_level = ? and tile_column = ? and tile_row = ?')
      .pluck();
  } catch (error) {
    db.close(); // not an .mbtiles: nothing kept open
    throw error;
  }
  return {
    // MBTiles rows count from the south (TMS): row = 2^z - 1 - y.
    tile: (z, x, y) => select.get(z, x, 2 ** z - 1 - y) as Buffer | undefined,
    metadata: () =>
      Object.fromEntries(
        (db.prepare('select name, value from metadata').all() as { name: string; value: string }[]).map((row) => [
          row.name,
          row.value,
        ]),
      ),
    tileCount: () => db.prepare('select count(*) from tiles').pluck().get() as number,
    close: () => db.close(),
  };
}

/** Sets `metadata` rows of a file being built (one not served yet). */
export function writeMbtilesMetadata(path: string, values: Record<string, string>): void {
  const db = new SQLite(path, { fileMustExist: true });
  try {
    const remove = db.prepare('delete from metadata where name = ?');
    const insert = db.prepare('insert into metadata (name, value) values (?, ?)');
    db.transaction(() => {
      for (const [name, value] of Object.entries(values)) {
        remove.run(name);
        insert.run(name, value);
      }
    })();
  } finally {
    db.close();
  }
}
