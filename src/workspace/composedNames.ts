// Names stored decomposed (NFD) — macOS writes `회의록.md` as conjoining jamo and `école` as `e` and
// a combining accent, and zip files bring such names to every system — are indexed under their
// composed form (NFC), which is how a query is typed, and given back under the name on disk: the
// file must still open by its real bytes. A query typed composed found nothing before (the trial of
// 2026-12-05). Composed and decomposed forms differ in length, so highlights are mapped back one
// composed unit to the units of the original it came from.

const NON_ASCII = /[^\x00-\x7f]/;

/** The name as indexed: its composed form (ASCII names are their own). */
export function composedKey(name: string): string {
  return NON_ASCII.test(name) ? name.normalize('NFC') : name;
}

/** One pass over a listing: which names index under another key (see composedKeys). */
class Composition {
  private out: string[] | undefined;
  /** The names beyond ASCII, to see a composed key that is also a name on disk. */
  private readonly wide = new Set<string>();
  private readonly changed: number[] = [];

  constructor(private readonly names: readonly string[]) {}

  take(i: number): void {
    const name = this.names[i];
    if (!NON_ASCII.test(name)) return;
    this.wide.add(name);
    const key = name.normalize('NFC');
    if (key === name) return;
    this.out ??= this.names.slice();
    this.out[i] = key;
    this.changed.push(i);
  }

  finish(originals: Map<string, string>): readonly string[] {
    const out = this.out;
    if (!out) return this.names;
    // Both forms on disk (possible where names are bytes, as on Linux): both stay listed, the
    // decomposed one under its own name, as before.
    for (const i of this.changed) {
      if (this.wide.has(out[i])) out[i] = this.names[i];
      else originals.set(out[i], this.names[i]);
    }
    return out;
  }
}

/**
 * `names` as indexed (composedKey), with the names on disk of those that differ put in `originals`
 * (key → name). Checked in slices of a few thousand between event-loop turns (460k names are a
 * 20 ms test in one go); an all-composed list is returned as it is.
 */
export async function composedKeys(names: readonly string[], originals: Map<string, string>, yieldTurn: () => Promise<void>): Promise<readonly string[]> {
  const c = new Composition(names);
  for (let i = 0; i < names.length; i++) {
    if (i % 8192 === 8191) await yieldTurn();
    c.take(i);
  }
  return c.finish(originals);
}

/** composedKeys at once (a folder indexed synchronously: small lists, tests). */
export function composedKeysNow(names: readonly string[], originals: Map<string, string>): readonly string[] {
  const c = new Composition(names);
  for (let i = 0; i < names.length; i++) c.take(i);
  return c.finish(originals);
}

// A unit that composes with the one before it: a combining mark, or a Hangul medial vowel or final
// consonant (conjoining jamo, U+1160–U+11FF), or the second half of a surrogate pair.
const JOINS_PREVIOUS = /[\p{M}\u1160-\u11FF\uDC00-\uDFFF]/u;

/**
 * Where each unit of `composed` (= NFC of `original`) comes from in `original`: for unit u, the
 * original units `from[u]` up to `to[u]`. Undefined when the pieces do not line up (then the caller
 * highlights nothing rather than the wrong letters).
 */
function unitSources(original: string, composed: string): { from: Int32Array; to: Int32Array } | undefined {
  const from = new Int32Array(composed.length);
  const to = new Int32Array(composed.length);
  let u = 0;
  let start = 0;
  for (let i = 1; i <= original.length; i++) {
    if (i < original.length && JOINS_PREVIOUS.test(original[i])) continue;
    const piece = original.slice(start, i).normalize('NFC');
    for (let k = 0; k < piece.length; k++, u++) {
      if (u >= composed.length || composed[u] !== piece[k]) return undefined;
      from[u] = start;
      to[u] = i;
    }
    start = i;
  }
  return u === composed.length ? { from, to } : undefined;
}

/** Positions in `composed` (its match) as the positions of the units of `original` they cover, ascending. */
export function originalPositions(original: string, composed: string, positions: readonly number[]): number[] {
  if (original === composed) return [...positions];
  const src = unitSources(original, composed);
  if (!src) return [];
  const out: number[] = [];
  for (const p of positions) for (let k = src.from[p]; k < src.to[p]; k++) if (out.length === 0 || k > out[out.length - 1]) out.push(k);
  return out;
}
