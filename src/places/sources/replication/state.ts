// The replication feed's layout (OSM wiki "Planet.osm/diffs"): `<base>/state.txt` names the newest
// complete sequence; sequence N lives at `<base>/AAA/BBB/CCC.osc.gz` with its `.state.txt` beside it.

export interface FeedState {
  sequence: number;
  /** ISO 8601, UTC: the data's "as of" once this sequence is applied */
  timestamp: string;
}

/** Reads a state file (Java properties: `#` comments, `key=value`, `:` escaped as `\:`). */
export function parseState(text: string): FeedState {
  const values = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    const at = line.search(/[=:]/);
    if (at < 0) continue;
    values.set(
      line.slice(0, at).trim(),
      line
        .slice(at + 1)
        .trim()
        .replace(/\\(.)/g, '$1'),
    );
  }
  const sequenceText = values.get('sequenceNumber');
  const timestampText = values.get('timestamp');
  if (!sequenceText || !/^\d{1,12}$/.test(sequenceText)) throw new Error('the state file has no sequenceNumber');
  const time = timestampText ? Date.parse(timestampText) : NaN;
  if (Number.isNaN(time)) throw new Error('the state file has no valid timestamp');
  return { sequence: Number(sequenceText), timestamp: new Date(time).toISOString().replace('.000Z', 'Z') };
}

/** `2947` → `000/002/947`: the path of a sequence's files below the feed's base URL. */
export function sequencePath(sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 0 || sequence > 999_999_999)
    throw new RangeError(`not a feed sequence: ${sequence}`);
  const digits = String(sequence).padStart(9, '0');
  return `${digits.slice(0, 3)}/${digits.slice(3, 6)}/${digits.slice(6)}`;
}

/** The base URL with one trailing slash, so relative paths resolve below it. */
export function feedBase(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
