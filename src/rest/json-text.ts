// An answer already in JSON: a direct path of the REST table (routes.ts) may return one, and the
// REST plugin sends its text as it is instead of serialising an object on every request.

export class JsonText {
  constructor(readonly text: string) {}
}

const texts = new WeakMap<object, JsonText>();

/**
 * The JSON of a value that many requests share (a cached, frozen answer such as the settings of
 * the current version), made at its first request and kept as long as the value lives: a new
 * version is a new object, so its text is made anew.
 */
export function jsonOf(value: object): JsonText {
  let json = texts.get(value);
  if (!json) {
    // Kept by identity: only a value nobody can change keeps matching its text.
    if (!Object.isFrozen(value)) throw new Error('jsonOf takes frozen values only');
    texts.set(value, (json = new JsonText(JSON.stringify(value))));
  }
  return json;
}
