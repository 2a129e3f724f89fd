// An image must be only an image: its container walked from start to end, with nothing before
// or after. The first bytes alone (what file-type looks at) do not say that: "GIF89a" followed by
// HTML or script, or a real GIF with a page appended, is a polyglot another context may run.
// Videos are not walked (up to 50 MiB, streamed); they are served as video/* with nosniff.

/** Why `bytes` is not a whole, well-formed image of `mime`, or null when it is. */
export function imageStructureProblem(mime: string, bytes: Buffer): string | null {
  try {
    switch (mime) {
      case 'image/png':
        return png(bytes);
      case 'image/gif':
        return gif(bytes);
      case 'image/jpeg':
        return jpeg(bytes);
      case 'image/webp':
        return webp(bytes);
      case 'image/avif':
        return isoBoxes(bytes);
      default:
        return null;
    }
  } catch {
    return 'it ends in the middle of its structure';
  }
}

function png(b: Buffer): string | null {
  let at = 8;
  for (;;) {
    if (at + 12 > b.length) return 'it ends before its IEND chunk';
    const length = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    at += 12 + length;
    if (at > b.length) return `its ${type} chunk runs past the end`;
    if (type === 'IEND') return at === b.length ? null : 'it has data after its IEND chunk';
  }
}

function gif(b: Buffer): string | null {
  if (b.length < 13) return 'it is too short';
  const flags = b[10];
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  const subBlocks = () => {
    for (let size = b[at++]; size !== 0; size = b[at++]) {
      if (size === undefined) throw new RangeError('end');
      at += size;
    }
  };
  let images = 0;
  for (;;) {
    const block = b[at++];
    if (block === 0x3b)
      return images === 0 ? 'it has no image' : at === b.length ? null : 'it has data after its trailer';
    if (block === 0x21) {
      at++; // the extension's label
      subBlocks();
    } else if (block === 0x2c) {
      const local = b[at + 8];
      at += 9 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0);
      at++; // LZW minimum code size
      subBlocks();
      images++;
    } else
      return block === undefined ? 'it ends before its trailer' : `it has an unknown block 0x${block.toString(16)}`;
    if (at > b.length) return 'it ends in the middle of a block';
  }
}

function jpeg(b: Buffer): string | null {
  let end = b.length;
  while (end > 2 && b[end - 1] === 0) end--; // some cameras pad with zeros
  if (!(b[end - 2] === 0xff && b[end - 1] === 0xd9)) return 'it does not end with its end-of-image marker';
  return null;
}

function webp(b: Buffer): string | null {
  const declared = b.readUInt32LE(4) + 8;
  return declared === b.length || declared + 1 === b.length ? null : 'its RIFF length is not its size';
}

/** ISO base media (AVIF): boxes that cover the file exactly. */
function isoBoxes(b: Buffer): string | null {
  let at = 0;
  while (at < b.length) {
    if (at + 8 > b.length) return 'it ends in the middle of a box header';
    let size = b.readUInt32BE(at);
    if (size === 1) size = Number(b.readBigUInt64BE(at + 8));
    else if (size === 0) size = b.length - at;
    if (size < 8 || at + size > b.length) return 'a box runs past the end';
    at += size;
  }
  return null;
}
