// Uploaded ad media: the type comes from the file's first bytes, never from its name or the
// client's word; size caps are enforced while the bytes stream in; names are random. The
// folder store lives here; the database store in database-store.ts; createMediaStore in index.ts.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { imageStructureProblem } from './image-structure.js';

export const MiB = 1024 * 1024;

/** Allowed types: sniffed MIME -> the extension we store and the type we serve it with. */
export const ALLOWED_MEDIA: Record<string, { ext: string; kind: 'image' | 'video'; serveAs: string }> = {
  'image/jpeg': { ext: 'jpg', kind: 'image', serveAs: 'image/jpeg' },
  'image/png': { ext: 'png', kind: 'image', serveAs: 'image/png' },
  'image/webp': { ext: 'webp', kind: 'image', serveAs: 'image/webp' },
  'image/gif': { ext: 'gif', kind: 'image', serveAs: 'image/gif' },
  'image/avif': { ext: 'avif', kind: 'image', serveAs: 'image/avif' },
  'video/mp4': { ext: 'mp4', kind: 'video', serveAs: 'video/mp4' },
  'video/webm': { ext: 'webm', kind: 'video', serveAs: 'video/webm' },
  'video/ogg': { ext: 'ogv', kind: 'video', serveAs: 'video/ogg' },
  'application/ogg': { ext: 'ogv', kind: 'video', serveAs: 'video/ogg' },
};

export const SIZE_LIMITS = { image: 5 * MiB, video: 50 * MiB } as const;
/** Bytes file-type needs to recognise every type above. */
const SNIFF_BYTES = 4100;

export class MediaError extends Error {
  constructor(
    readonly status: 413 | 415 | 400,
    message: string,
  ) {
    super(message);
  }
}

export interface StoredMedia {
  /** the public path, /uploads/<name> */
  url: string;
  mime: string;
  kind: 'image' | 'video';
  size: number;
}

/** Where uploads are kept: a folder (UPLOAD_DIR) or the database (MEDIA_STORE). */
export interface MediaStore {
  readonly kind: 'folder' | 'database';
  /** Stores an upload; throws MediaError (and keeps nothing) when it is refused. */
  save(source: Readable): Promise<StoredMedia>;
  /** Deletes a stored upload given its public path; other URLs are not ours and are left alone. */
  remove(url: string | null | undefined): Promise<void>;
  isOurs(url: string): boolean;
  /** Deletes what uploads cut short by a crash left behind; returns how many. Run at start-up. */
  sweep(): Promise<number>;
}

const UPLOAD_PATH = /^\/uploads\/([A-Za-z0-9_-]{22}\.(jpg|png|webp|gif|avif|mp4|webm|ogv))$/;
/** A stored name (the part after /uploads/). */
export const UPLOAD_NAME = /^[A-Za-z0-9_-]{22}\.(jpg|png|webp|gif|avif|mp4|webm|ogv)$/;

/** The stored name of one of our upload paths, or undefined. */
export function uploadName(url: string | null | undefined): string | undefined {
  return url ? UPLOAD_PATH.exec(url)?.[1] : undefined;
}

/** A new random name with the extension of the sniffed type. */
export function randomUploadName(ext: string): string {
  return `${randomBytes(16).toString('base64url')}.${ext}`;
}

export type MediaType = (typeof ALLOWED_MEDIA)[string];

/**
 * The checks every store puts an upload through, as a Transform in its pipeline: nothing passes
 * until the first bytes have shown an allowed type, and the stream fails as soon as the size
 * passes that type's cap, so no store ever receives more than the cap.
 */
export function uploadGate(): { gate: Transform; type(): MediaType | undefined; size(): number } {
  let head = Buffer.alloc(0);
  let type: MediaType | undefined;
  let mime = '';
  let size = 0;
  /** an image's bytes, walked whole at the end (images are at most 5 MiB) */
  const image: Buffer[] = [];

  const decide = async () => {
    // file-type is loaded at the first upload, not at start: ~1 MB of heap (~4 MB of RSS) that
    // only an administrator's upload needs (docs/performance.md, memory).
    const found = head.length ? await (await import('file-type')).fileTypeFromBuffer(head) : undefined;
    type = found ? ALLOWED_MEDIA[found.mime] : undefined;
    mime = found?.mime ?? '';
    if (!type || !found) {
      throw new MediaError(
        415,
        'file: unsupported media type; allowed are JPEG, PNG, WebP, GIF, AVIF, MP4, WebM and Ogg',
      );
    }
    if (size > SIZE_LIMITS[type.kind]) throw tooLarge(type.kind);
  };

  const gate = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (!type) {
        head = Buffer.concat([head, chunk]);
        if (head.length < SNIFF_BYTES) return callback();
        decide().then(() => {
          if (type?.kind === 'image') image.push(head);
          callback(null, head);
        }, callback);
        return;
      }
      if (size > SIZE_LIMITS[type.kind]) return callback(tooLarge(type.kind));
      if (type.kind === 'image') image.push(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      const finish = (pending: Buffer | null) => {
        if (type?.kind === 'image') {
          if (pending) image.push(pending);
          const problem = imageStructureProblem(mime, Buffer.concat(image));
          if (problem) return callback(new MediaError(415, `file: not a well-formed image (${problem})`));
        }
        callback(null, pending ?? undefined);
      };
      if (type) return finish(null);
      decide().then(() => finish(head), callback);
    },
  });
  return { gate, type: () => type, size: () => size };
}

/** Uploads as files in one folder (UPLOAD_DIR); several machines need it on shared storage. */
export class FolderMediaStore implements MediaStore {
  readonly kind = 'folder';
  constructor(readonly dir: string) {}

  async save(source: Readable): Promise<StoredMedia> {
    await mkdir(this.dir, { recursive: true });
    // The temporary's name says whose it is, so that a restart can tell a dead upload from a live one.
    const tempPath = join(this.dir, `.incoming-${hostname()}-${process.pid}-${randomBytes(12).toString('hex')}`);
    const checks = uploadGate();
    try {
      // Created before the copy starts: a stream that opened its file by itself could create it
      // after a refusal had already removed it (a leftover seen once in CI).
      const file = await open(tempPath, 'wx');
      await pipeline(source, checks.gate, file.createWriteStream());
      const type = checks.type();
      if (checks.size() === 0 || !type) throw new MediaError(400, 'file: the file is empty');
      const name = randomUploadName(type.ext);
      await rename(tempPath, join(this.dir, name));
      return { url: `/uploads/${name}`, mime: type.serveAs, kind: type.kind, size: checks.size() };
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
  }

  async remove(url: string | null | undefined): Promise<void> {
    const name = uploadName(url);
    if (name) await rm(join(this.dir, name), { force: true });
  }

  isOurs(url: string): boolean {
    return UPLOAD_PATH.test(url);
  }

  /**
   * Temporaries of uploads whose process died (a crash, a SIGKILL): this machine's whose process
   * is gone, and anyone's untouched for an hour (another machine's, on shared storage).
   */
  async sweep(): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return 0; // no folder yet
    }
    let removed = 0;
    for (const name of names) {
      const match = /^\.incoming-(.+)-(\d+)-[0-9a-f]+$/.exec(name);
      if (!name.startsWith('.incoming-')) continue;
      const path = join(this.dir, name);
      const dead = match !== null && match[1] === hostname() && !isAlive(Number(match[2]));
      const stale = await stat(path).then(
        (s) => Date.now() - s.mtimeMs > 3_600_000,
        () => false,
      );
      if (dead || stale) {
        await rm(path, { force: true });
        removed++;
      }
    }
    return removed;
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tooLarge(kind: 'image' | 'video'): MediaError {
  return new MediaError(
    413,
    `file: ${kind === 'image' ? 'images' : 'videos'} may be at most ${SIZE_LIMITS[kind] / MiB} MiB`,
  );
}

/** Where an ad's media may point: an http(s) URL or one of our uploads. Never fetched. */
export function isAcceptableMediaUrl(value: string): boolean {
  if (UPLOAD_PATH.test(value)) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
