// Uploads kept in the database (tables media and media_chunks), so that every node serves every
// upload with nothing shared but the database. One code path for SQLite and PostgreSQL.
//
// Writing never holds a transaction open for the whole upload (on SQLite that would block every
// other writer for as long as the client takes to send 50 MiB): the media row goes in first with
// complete = 0, then each chunk in its own statement, then complete = 1 with the size and hash.
// Only complete media are served. A failed upload deletes what it wrote; one whose process died
// is deleted by the sweep once it has been still for STALE_UPLOAD_MS.
import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../db/index.js';
import { MediaError, randomUploadName, uploadGate, uploadName, type MediaStore, type StoredMedia } from './store.js';

/**
 * Every chunk but the last holds exactly this many bytes, so byte o is in chunk floor(o / size)
 * and a Range read selects only the chunks it needs. scripts/move-db.ts writes the same size.
 */
export const MEDIA_CHUNK_SIZE = 512 * 1024;
/** An incomplete upload untouched for this long belongs to a process that died (or a client that stalled). */
export const STALE_UPLOAD_MS = 10 * 60_000;
/** An upload in progress refreshes its row's time this often, so that no sweep takes it for dead. */
const TOUCH_EVERY_MS = 60_000;
/** Sweeps run at start-up and then at most this often, before an upload. */
const SWEEP_EVERY_MS = 60_000;
/** Chunks fetched per query while streaming: at most 2 MiB of one answer in memory. */
const CHUNKS_PER_READ = 4;

/** What serving needs to know of one complete upload. */
export interface MediaInfo {
  name: string;
  mime: string;
  size: number;
  sha256: string;
  /** epoch ms the upload completed */
  modified: number;
}

export class DatabaseMediaStore implements MediaStore {
  readonly kind = 'database';
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  async save(source: Readable): Promise<StoredMedia> {
    if (this.now() - this.lastSweep >= SWEEP_EVERY_MS) await this.sweep();
    const { db, now } = this;
    const checks = uploadGate();
    const hash = createHash('sha256');
    let name: string | null = null;
    let seq = 0;
    let stored = 0;
    let touched = 0;

    const writeChunk = async (data: Buffer) => {
      if (name === null) {
        // The gate lets bytes through only once it knows the type.
        const type = checks.type()!;
        name = randomUploadName(type.ext);
        touched = now();
        await db
          .insertInto('media')
          .values({ name, mime: type.serveAs, size: 0, sha256: '', complete: 0, created_at: touched })
          .execute();
      }
      await db.insertInto('media_chunks').values({ name, seq, data }).execute();
      seq += 1;
      stored += data.length;
      hash.update(data);
      if (now() - touched >= TOUCH_EVERY_MS) {
        touched = now();
        await db.updateTable('media').set({ created_at: touched }).where('name', '=', name).execute();
      }
    };

    // Collects the stream into whole chunks; the write callback waits for the insert, so a slow
    // database slows the upload rather than filling memory.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const sink = new Writable({
      highWaterMark: MEDIA_CHUNK_SIZE,
      write(chunk: Buffer, _encoding, callback) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes < MEDIA_CHUNK_SIZE) return callback();
        const all = Buffer.concat(pending, pendingBytes);
        (async () => {
          let offset = 0;
          for (; all.length - offset >= MEDIA_CHUNK_SIZE; offset += MEDIA_CHUNK_SIZE) {
            await writeChunk(all.subarray(offset, offset + MEDIA_CHUNK_SIZE));
          }
          pending = offset < all.length ? [all.subarray(offset)] : [];
          pendingBytes = all.length - offset;
        })().then(() => callback(), callback);
      },
      final(callback) {
        if (pendingBytes === 0) return callback();
        writeChunk(Buffer.concat(pending, pendingBytes)).then(() => callback(), callback);
      },
    });

    try {
      await pipeline(source, checks.gate, sink);
      const type = checks.type();
      if (checks.size() === 0 || !type || name === null) throw new MediaError(400, 'file: the file is empty');
      const done = await db
        .updateTable('media')
        .set({ size: stored, sha256: hash.digest('hex'), complete: 1, created_at: now() })
        .where('name', '=', name)
        .where('complete', '=', 0)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1)
        throw new Error(`media ${name}: the upload was swept while it was being stored`);
      return { url: `/uploads/${name}`, mime: type.serveAs, kind: type.kind, size: stored };
    } catch (error) {
      // If the database is away now, the sweep deletes the rest later.
      if (name !== null) await this.deleteName(name).catch(() => {});
      throw error;
    }
  }

  async remove(url: string | null | undefined): Promise<void> {
    const name = uploadName(url);
    if (name) await this.deleteName(name);
  }

  isOurs(url: string): boolean {
    return uploadName(url) !== undefined;
  }

  /** Deletes uploads that stopped before completing (their chunks go with them). */
  async sweep(): Promise<number> {
    this.lastSweep = this.now();
    const result = await this.db
      .deleteFrom('media')
      .where('complete', '=', 0)
      .where('created_at', '<', this.now() - STALE_UPLOAD_MS)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** A complete upload's type, size and hash, or undefined. */
  async info(name: string): Promise<MediaInfo | undefined> {
    const row = await this.db
      .selectFrom('media')
      .select(['name', 'mime', 'size', 'sha256', 'created_at'])
      .where('name', '=', name)
      .where('complete', '=', 1)
      .executeTakeFirst();
    return (
      row && {
        name: row.name,
        mime: row.mime,
        size: Number(row.size),
        sha256: row.sha256,
        modified: Number(row.created_at),
      }
    );
  }

  /**
   * Bytes start..end (inclusive) of a complete upload, read a few chunks per query, only the
   * chunks that hold them. The stream fails if a chunk is missing or of the wrong length (the
   * upload was deleted meanwhile), rather than sending other bytes than the length announced.
   */
  read(media: MediaInfo, start: number, end: number): Readable {
    const { db } = this;
    const first = Math.floor(start / MEDIA_CHUNK_SIZE);
    const last = Math.floor(end / MEDIA_CHUNK_SIZE);
    const lastChunk = Math.floor((media.size - 1) / MEDIA_CHUNK_SIZE);
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let from = first; from <= last; from += CHUNKS_PER_READ) {
        const to = Math.min(last, from + CHUNKS_PER_READ - 1);
        const rows = await db
          .selectFrom('media_chunks')
          .select(['seq', 'data'])
          .where('name', '=', media.name)
          .where((eb) => eb.between('seq', from, to))
          .orderBy('seq')
          .execute();
        for (let seq = from; seq <= to; seq++) {
          const row = rows[seq - from];
          const expected = seq < lastChunk ? MEDIA_CHUNK_SIZE : media.size - lastChunk * MEDIA_CHUNK_SIZE;
          if (!row || row.seq !== seq || row.data.byteLength !== expected)
            throw new Error(`media ${media.name}: chunk ${seq} is missing or damaged`);
          const data = Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
          const base = seq * MEDIA_CHUNK_SIZE;
          yield data.subarray(Math.max(start - base, 0), Math.min(end - base + 1, data.length));
        }
      }
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  private async deleteName(name: string): Promise<void> {
    // Chunks go with their row (on delete cascade).
    await this.db.deleteFrom('media').where('name', '=', name).execute();
  }
}
