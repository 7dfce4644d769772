// Decision 546: fitting one frame costs a few serializations of it, whatever the limit. It cut one
// string per round, up to 32 rounds, each serializing the whole copy: 38,000 strings of 100
// characters for a 700-byte budget blocked the event loop 1.2 s, and still did not fit at 64 KB.
// Counted, not timed: how many times the whole frame is written as JSON.
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import type { WireFrame } from '../../../src/protocol/frameTypes';
import { parseFrame } from '../../../src/protocol/parse';
import { CLIP_MARK, fitFrame } from '../../../src/session/frameFit';

const bytes = (f: unknown) => Buffer.byteLength(JSON.stringify(f), 'utf8');

/** Runs `fn` counting JSON.stringify calls on whole frames (objects with a `payload`). */
function countingFrameWrites<T>(fn: () => T): { value: T; writes: number } {
  const original = JSON.stringify;
  let writes = 0;
  JSON.stringify = ((value: unknown, ...rest: unknown[]) => {
    if (value !== null && typeof value === 'object' && 'payload' in value) writes++;
    return (original as (...a: unknown[]) => string)(value, ...rest);
  }) as typeof JSON.stringify;
  try {
    return { value: fn(), writes };
  } finally {
    JSON.stringify = original;
  }
}

function manyStrings(lists: number): WireFrame {
  const f = buildFrame('control.file.search.cancel', { query_id: 'q' } as never, { session_id: 's' }) as unknown as { payload: Record<string, unknown> };
  for (let k = 0; k < lists; k++) f.payload[`pad${k}`] = Array.from({ length: 38_000 / lists }, (_, i) => `s${i}`.padEnd(100, 'x'));
  return f as unknown as WireFrame;
}

describe('session/frameFit: the work per fitted frame is bounded (decision 546)', () => {
  for (const limit of [16 * 1024, 64 * 1024, 512 * 1024]) {
    it(`§12.2 38,000 strings of 100 characters (3.9 MB) fit ${limit} bytes with at most 5 serializations of the frame`, () => {
      const { value: out, writes } = countingFrameWrites(() => fitFrame(manyStrings(1), limit));
      assert.ok(out, 'fitted');
      assert.ok(bytes(out) <= limit, `${bytes(out)} bytes`);
      assert.equal((out.payload as Record<string, unknown>).pad0, CLIP_MARK);
      assert.equal(parseFrame(JSON.stringify(out)).kind, 'accepted');
      assert.ok(writes <= 5, `${writes} serializations`);
    });
  }

  it('§12.2 seven lists in one frame go in one round, not one round each', () => {
    const { value: out, writes } = countingFrameWrites(() => fitFrame(manyStrings(7), 16 * 1024));
    assert.ok(out && bytes(out) <= 16 * 1024);
    assert.ok(writes <= 5, `${writes} serializations`);
  });

  it('§12.2 many long strings are cut in one round, each only as much as needed, the longest first', () => {
    const f = buildFrame('tool.invoke.result', { invocation_id: 'i', tool_name: 'Read', status: 'success', output: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, `v${i}`.padEnd(2_000 + i, 'y')])), output_type: 'text' } as never, { session_id: 's' }) as WireFrame;
    const { value: out, writes } = countingFrameWrites(() => fitFrame(f, 64 * 1024));
    assert.ok(out && bytes(out) <= 64 * 1024);
    assert.ok(writes <= 5, `${writes} serializations`);
    const kept = (out.payload as { output: Record<string, string> }).output;
    // The shortest strings are left whole: the longest gave up what was over.
    assert.equal(kept.k0, 'v0'.padEnd(2_000, 'y'));
  });
});
