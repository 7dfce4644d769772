// A frame's JSON, exactly as JSON.stringify writes it, but in parts of bounded size (decision 736).
// JSON.stringify of a frame that carries a line near the 64 Mi bound makes one string as big as the
// line, and reading it in slices to send makes a second (V8 flattens the rope JSON.stringify builds):
// two more copies of the line in the conversion thread, per frame, where the line and its parsed
// text are already held. In parts, the only copies are the parts themselves, written as they come.
//
// Frames are plain data (JSON.parse and zod output: objects, arrays, strings, numbers, booleans,
// null, undefined); no toJSON or replacer is in play, so JSON.stringify's rules here are: object
// keys in Object.keys order, undefined values left out (null in an array), primitives as
// JSON.stringify writes them.

/** Parts of `value`'s JSON (joined: JSON.stringify(value)), each at most about 6 × `partChars`
 * characters (a string escaped to \u00XX is 6 times as long). */
export function* jsonParts(value: unknown, partChars: number): Generator<string> {
  if (weightOver(value, partChars)) yield* bigParts(value, partChars);
  else {
    const json = JSON.stringify(value) as string | undefined;
    if (json !== undefined) yield json;
  }
}

/** Whether `value`'s characters (strings, keys) and values together exceed `limit`; stops counting there. */
export function weightOver(value: unknown, limit: number): boolean {
  return weight(value, limit) > limit;
}

/** Every frame is weighed, so leaves are weighed in place rather than by a call each. */
function weight(value: unknown, limit: number): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value !== 'object' || value === null) return 1;
  let sum = 2;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      sum += 1 + (typeof v === 'string' ? v.length + 2 : typeof v === 'object' && v !== null ? weight(v, limit - sum) : 1);
      if (sum > limit) return sum;
    }
    return sum;
  }
  // for-in, not Object.keys: half the time, and an inherited key could only route a frame to the
  // parts, which are exact either way.
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    sum += key.length + 4 + (typeof v === 'string' ? v.length + 2 : typeof v === 'object' && v !== null ? weight(v, limit - sum) : 1);
    if (sum > limit) return sum;
  }
  return sum;
}

function* bigParts(value: unknown, partChars: number): Generator<string> {
  if (typeof value === 'string') {
    yield '"';
    for (let from = 0; from < value.length; ) {
      const to = cutAt(value, from + partChars);
      // Escaping is per character (a surrogate pair is kept whole by cutAt), so the escaped slices
      // joined are the escaped string.
      yield JSON.stringify(value.slice(from, to)).slice(1, -1);
      from = to;
    }
    yield '"';
    return;
  }
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i) yield ',';
      const v: unknown = value[i];
      if (skipped(v)) yield 'null';
      else yield* jsonParts(v, partChars);
    }
    yield ']';
    return;
  }
  const object = value as Record<string, unknown>;
  let first = true;
  yield '{';
  for (const key of Object.keys(object)) {
    const v = object[key];
    if (skipped(v)) continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    yield* jsonParts(v, partChars);
  }
  yield '}';
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function skipped(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** `at`, or one less when that would part a surrogate pair; the end of `text` at most. */
export function cutAt(text: string, at: number): number {
  if (at >= text.length) return text.length;
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}
