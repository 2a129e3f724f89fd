// What the upload and media tests share: fixtures, multipart bodies, and what a store holds.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from '../helpers.js';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
export const fixture = (name: string) => readFileSync(join(FIXTURES, name));

export function multipartHead(
  boundary: string,
  fields: Record<string, string>,
  file?: { filename: string; type: string },
): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
    );
  return Buffer.concat(parts);
}

/** A multipart/form-data body, as a browser's FormData would send it. */
export function multipart(fields: Record<string, string>, file?: { filename: string; type: string; data: Buffer }) {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  const parts = [multipartHead(boundary, fields, file)];
  if (file) parts.push(file.data, Buffer.from('\r\n'));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * Everything an app's media store holds, whichever it is: files in UPLOAD_DIR (in-progress
 * temporaries included), rows of media (incomplete ones included) and the names in media_chunks.
 */
export async function storedUploads(t: TestApp): Promise<string[]> {
  const dir = t.config.uploadDir;
  const files = existsSync(dir) ? readdirSync(dir) : [];
  const rows = await t.handle.db.selectFrom('media').select('name').execute();
  const chunks = await t.handle.db.selectFrom('media_chunks').select('name').distinct().execute();
  return [...new Set([...files, ...rows.map((r) => r.name), ...chunks.map((r) => r.name)])].sort();
}
