// Multipart bodies -> plain procedure input: fields become strings, the one file is stored
// (type sniffed, size capped while streaming) and passed on as `media_url`.
import type { FastifyRequest } from 'fastify';
import { TRPCError } from '@trpc/server';
import { isDatabaseUnavailable, isOutOfSpace } from '../../db/index.js';
import { MediaError, type MediaStore, type StoredMedia } from '../media/store.js';
import { databaseUnavailable } from '../trpc/context.js';

export const MULTIPART_LIMITS = {
  fileSize: 50 * 1024 * 1024,
  files: 1,
  fields: 20,
  fieldSize: 10_000,
  parts: 25,
};

const statusCode = { 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE', 400: 'BAD_REQUEST' } as const;

export function mediaErrorToTRPC(error: MediaError): TRPCError {
  return new TRPCError({ code: statusCode[error.status], message: error.message });
}

/** Reads every part; the caller must `media.remove(stored.url)` if the procedure then fails. */
export async function readMultipart(
  req: FastifyRequest,
  media: MediaStore,
): Promise<{ input: Record<string, string>; stored: StoredMedia | null }> {
  const input: Record<string, string> = {};
  let stored: StoredMedia | null = null;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') input[part.fieldname] = part.value;
        continue;
      }
      if (!part.filename) {
        part.file.resume(); // an empty file input: the form had no file chosen
        continue;
      }
      stored = await media.save(part.file);
      if (part.file.truncated) {
        await media.remove(stored.url);
        stored = null;
        throw new MediaError(413, 'file: videos may be at most 50 MiB');
      }
    }
  } catch (error) {
    // What is still coming of a refused form is read and dropped: left paused, the connection
    // would stay open after the answer (and a client that hung up would go unnoticed) until
    // Node's request timeout.
    if (!req.raw.complete) {
      req.raw.unpipe();
      req.raw.resume();
    }
    if (stored) await media.remove(stored.url);
    if (error instanceof MediaError) throw mediaErrorToTRPC(error);
    // A full disk is the server's problem, not the form's.
    if (isOutOfSpace(error)) throw databaseUnavailable(error);
    // The database store writes while the form streams in: its outage is a 503, not a bad form.
    if (isDatabaseUnavailable(error)) throw databaseUnavailable(error);
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: 'Too many form parts: send one file and the fields' });
    }
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The form data could not be read' });
  }
  if (stored) input.media_url = stored.url;
  return { input, stored };
}
