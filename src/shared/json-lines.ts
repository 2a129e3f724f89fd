// Files of JSON lines (one value a line), as an import writes what it gathers to read it back.
import { readSync } from 'node:fs';

const BUFFER_BYTES = 1 << 20;

/** The values of an open file of JSON lines, in order, each with where its line starts and its length in bytes. */
export function* jsonLines<T>(file: number): Generator<{ value: T; offset: number; length: number }> {
  let buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  /** where in the file the buffer starts */
  let base = 0;
  /** the bytes of a line not read to its end yet, at the buffer's start */
  let held = 0;
  for (;;) {
    if (held === buffer.length) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, held);
      buffer = bigger;
    }
    const read = readSync(file, buffer, held, buffer.length - held, base + held);
    if (read === 0) return;
    const text = buffer.subarray(0, held + read);
    let start = 0;
    // a newline byte is never inside a multi-byte character, nor inside a JSON line
    for (let end; (end = text.indexOf(10, start)) >= 0; start = end + 1)
      yield { value: JSON.parse(text.toString('utf8', start, end)) as T, offset: base + start, length: end - start };
    held = text.copy(buffer, 0, start);
    base += start;
  }
}
