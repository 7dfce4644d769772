// Input limits measured before anything recursive touches untrusted JSON (issue 12 #1). Both
// checks are iterative and linear, so a hostile input can neither overflow the stack here nor make
// the check itself slow: JSON.parse accepts ~5,000 levels of nesting that JSON.stringify,
// structuredClone and zod's recursive schemas then die on; and one 4 MiB prompt of 471,000 keys
// kept `rawp serve` busy for seconds in JSON.parse, zod and every copy of its payload (decision 563).

/** Bounds of the text scan: depth always; an object's members and the frame's values when given. */
export interface JsonTextBounds {
  maxDepth: number;
  /** Most members (key/value pairs) one object may have, as written (a repeated key counts each time). */
  maxObjectMembers?: number;
  /** Most values the text may hold below its root: every object member and every array element. */
  maxValues?: number;
}

/** What one scan counted, up to where it stopped (all of it when `over` is undefined). */
export interface JsonTextCount {
  /** The deepest nesting of arrays and objects. */
  deepest: number;
  /** Object members plus array elements, at every level. */
  values: number;
  /** The most members of one object. */
  widestObject: number;
  /** The first bound the text went over; the scan stopped there. */
  over?: 'depth' | 'members' | 'values';
}

/**
 * One linear pass over JSON text: its nesting depth, and the members of every object and the
 * elements of every array, read off the commas at each level. Strings are skipped, so brackets,
 * commas and quotes inside them count for nothing. For valid JSON the counts are exact (a
 * container holds one value more than the commas at its level, none when its first character
 * closes it); invalid text gets some count and JSON.parse reports it.
 * A string is crossed with indexOf to its next quote, not char by char: a frame is mostly string
 * (file contents, diffs), and indexOf runs at memory speed — 23 MB of Write content took 45 ms
 * char by char and a few ms this way. A quote after an odd run of backslashes is escaped.
 */
export function scanJsonText(text: string, bounds: JsonTextBounds): JsonTextCount {
  const maxMembers = bounds.maxObjectMembers ?? Number.POSITIVE_INFINITY;
  const maxValues = bounds.maxValues ?? Number.POSITIVE_INFINITY;
  // Per open container (at most maxDepth of them): its values so far, and whether it is an object.
  const counts: number[] = [];
  const objects: boolean[] = [];
  let depth = 0;
  let deepest = 0;
  let values = 0;
  let widest = 0;
  let opened = false; // the innermost container was just opened: its next character says if it is empty
  const result = (over?: JsonTextCount['over']): JsonTextCount => ({ deepest, values, widestObject: widest, ...(over ? { over } : {}) });
  /** One more value in the innermost container; the bound it goes over, if any. */
  const oneMore = (): JsonTextCount['over'] => {
    const n = ++counts[depth - 1];
    if (++values > maxValues) return 'values';
    if (!objects[depth - 1]) return undefined;
    if (n > widest) widest = n;
    return n > maxMembers ? 'members' : undefined;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue; // JSON's whitespace
    if (opened) {
      opened = false;
      const over = c === 0x7d /* } */ || c === 0x5d /* ] */ ? undefined : oneMore(); // its first value
      if (over) return result(over);
    }
    if (c === 0x22 /* " */) {
      i = closingQuote(text, i + 1);
      if (i < 0) break; // unterminated: JSON.parse reports it
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > bounds.maxDepth) return result('depth');
      if (depth > deepest) deepest = depth;
      // (Depth below 1 is text closing more than it opened: invalid, counted as the depth check always did.)
      if (depth > 0) {
        counts[depth - 1] = 0;
        objects[depth - 1] = c === 0x7b;
        opened = true;
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    } else if (c === 0x2c /* , */ && depth > 0) {
      const over = oneMore(); // a value after each comma
      if (over) return result(over);
    }
  }
  return result();
}

/** True when the JSON text nests arrays/objects deeper than `maxDepth` (see scanJsonText). */
export function jsonTextTooDeep(text: string, maxDepth: number): boolean {
  return scanJsonText(text, { maxDepth }).over === 'depth';
}

/** The index of the quote that closes a string whose text starts at `from`, or -1. */
function closingQuote(text: string, from: number): number {
  for (let q = text.indexOf('"', from); q >= 0; q = text.indexOf('"', q + 1)) {
    let slashes = 0;
    while (q - 1 - slashes >= from && text.charCodeAt(q - 1 - slashes) === 0x5c /* \ */) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return -1;
}

/** Nodes walked at most: a structured clone can hold far more than any frame text could. */
const MAX_NODES = 1_000_000;

/**
 * Walks a decoded value without recursion: 'depth' when it nests deeper than `maxDepth` (a cycle
 * counts as too deep), 'size' when its strings and nodes add up to more than `maxBytes` (a rough
 * lower bound of its JSON size) or it has more than MAX_NODES nodes, 'members' or 'values' past
 * those bounds (counted as scanJsonText counts the text), else undefined.
 */
export function valueOverLimits(value: unknown, limits: JsonTextBounds & { maxBytes?: number }): 'depth' | 'size' | 'members' | 'values' | undefined {
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  const maxMembers = limits.maxObjectMembers ?? Number.POSITIVE_INFINITY;
  const maxValues = limits.maxValues ?? Number.POSITIVE_INFINITY;
  let bytes = 0;
  let nodes = 0;
  let values = 0;
  while (stack.length > 0) {
    const { v, d } = stack.pop() as { v: unknown; d: number };
    if (++nodes > MAX_NODES) return 'size';
    if (typeof v === 'string') {
      bytes += v.length + 2;
    } else if (typeof v === 'object' && v !== null) {
      if (d + 1 > limits.maxDepth) return 'depth';
      const children: unknown[] = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
      if (!Array.isArray(v) && children.length > maxMembers) return 'members';
      if ((values += children.length) > maxValues) return 'values';
      if (!Array.isArray(v)) for (const k of Object.keys(v as Record<string, unknown>)) bytes += k.length + 3;
      bytes += children.length + 2;
      for (const child of children) stack.push({ v: child, d: d + 1 });
    } else bytes += 4;
    if (bytes > maxBytes) return 'size';
  }
  return undefined;
}

/**
 * How many bytes the text's UTF-8 form is over `maxBytes` (0: within; at least that many when its
 * length decides), counted only when its length leaves it open:
 * every UTF-16 unit is at least one byte and at most three (a surrogate pair, two units, is four),
 * so a text longer than the limit is over it and one of a third of it or less is under it. A 100 MB
 * frame is then refused without a pass over it.
 */
export function bytesOver(s: string, maxBytes: number): number {
  if (s.length > maxBytes) return s.length - maxBytes; // at least this many
  if (s.length * 3 <= maxBytes) return 0;
  return Math.max(0, utf8Length(s) - maxBytes);
}

/**
 * Node's own count where there is one (Buffer.byteLength: native, no allocation): the history
 * counts every published frame, and this loop took 100–190 ms for a 20 MB text on this machine
 * where Node's took 4 (decision 517). The view's bundle has no Buffer and counts with the loop.
 * Both give the same count for any text JSON.stringify writes (it escapes lone surrogates).
 */
const NodeBuffer = (globalThis as { Buffer?: { byteLength(s: string, encoding: 'utf8'): number } }).Buffer;
const nativeByteLength = typeof NodeBuffer?.byteLength === 'function' ? (s: string) => NodeBuffer.byteLength(s, 'utf8') : undefined;

/** UTF-8 byte length of a string, without TextEncoder allocations (frame sizes, history budgets). */
export function utf8Length(s: string): number {
  return nativeByteLength !== undefined ? nativeByteLength(s) : utf8LengthByLoop(s);
}

/** utf8Length counted in JavaScript (where there is no Buffer; exported for its test). */
export function utf8LengthByLoop(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
