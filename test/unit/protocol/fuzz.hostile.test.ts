// Fuzz, hostile inputs (issue 12): 100,000 seeded cases of deep nesting, huge strings and
// duplicate ids through parseFrame (text and decoded values) and the transcript reducer, and each
// accepted frame through a HistoryBuffer — the path that crashed `rawp serve` (a 5,000-level frame
// made JSON.stringify throw in HistoryBuffer.append). 0 throws; over-deep input is FRAME_TOO_DEEP,
// over-size input FRAME_TOO_LARGE; every accepted frame can be serialized again.
//
// Deterministic: a fixed seed drives every choice, so a failure names the case to replay.
import { strict as assert } from 'node:assert';
import { applyFrame, createTranscript, DEFAULT_MAX_DEPTH, finalize, INCOMING_MAX_DEPTH, parseFrame, parseValue, type ParseOutcome, type Transcript } from '../../../src/protocol';
import { HistoryBuffer } from '../../../src/session/history';
import { ID, makeAllTypesFrames } from '../../fixtures/frames/make-all-types';
import { mulberry32 } from '../../../src/workspace/seededRandom';

const SEED = 0x12_5eed;
const CASES = 100_000;
const MAX_BYTES = 4 * 1024 * 1024;


type Obj = Record<string, unknown>;

/** Exactly `depth` nested arrays/objects (around a leaf or an empty one), built without recursion. */
function nested(depth: number, kind: number): unknown {
  const leaf = kind % 3 === 0;
  let v: unknown = leaf ? 'leaf' : kind % 3 === 1 ? [] : {};
  for (let d = leaf ? 0 : 1; d < depth; d++) v = (kind + d) % 2 === 0 ? [v] : { k: v };
  return v;
}

/** The same nesting as JSON text, built by concatenation (JSON.stringify would overflow). */
function nestedText(depth: number, open: '[' | '{"a":'): string {
  const close = open === '[' ? ']' : '}';
  return `${open.repeat(depth - 1)}${open === '[' ? '[]' : '{}'}${close.repeat(depth - 1)}`;
}

const DEPTHS = [2, 10, 59, 60, 62, 63, 64, 65, 66, 100, 126, 127, 128, 129, 130, 500, 4000, 5000, 20_000];
const ID_POOL = [ID.turn0, ID.turn1, ID.task, ID.bashDiff, 'dup-1', 'dup-2', '__proto__', 'constructor', ''];
const STRING_KEYS = ['text', 'chunk', 'prompt_text', 'output', 'name', 'message', 'query'];

describe('fuzz (hostile): deep nesting, huge strings, duplicate ids through the parser, reducer and history', function () {
  this.timeout(300_000);

  it(`§2.2 §14.2 ${CASES.toLocaleString('en')} hostile cases: no throw; over-deep frames FRAME_TOO_DEEP, over-size FRAME_TOO_LARGE; accepted frames serialize, reduce and enter history`, () => {
    const rnd = mulberry32(SEED);
    const int = (n: number) => Math.floor(rnd() * n);
    const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];
    // session.deleted ends a transcript for good (§7.7): left out so the reducer keeps working.
    const texts = makeAllTypesFrames().filter((f) => f.type !== 'session.deleted').map((f) => JSON.stringify(f));
    const counts = { deep: 0, huge: 0, dup: 0, accepted: 0, tooDeep: 0, tooLarge: 0, otherError: 0, ignored: 0, applied: 0 };
    let t: Transcript = createTranscript();
    let history = new HistoryBuffer({ policy: 'RING', maxBytes: 1024 * 1024 });

    for (let i = 0; i < CASES; i++) {
      if (i % 2000 === 0) {
        t = createTranscript(i % 4000 === 0 ? { sessionId: ID.session } : {});
        history = new HistoryBuffer({ policy: 'RING', maxBytes: 1024 * 1024 });
      }
      // The fixture stream in order, so the reducer meets a real story with hostile changes in it.
      const frame = JSON.parse(texts[i % texts.length]) as Obj;
      const payload = (frame.payload ?? {}) as Obj;
      const kind = int(3);
      // A fresh id (the reducer drops repeats, §2.1), except where repeats are the point.
      if (kind !== 2) frame.message_id = `h-${i}`;
      let input: unknown;
      let expectDepth: number | undefined;
      let expectBytes: number | undefined;
      const asText = rnd() < 0.5;
      const maxDepth = rnd() < 0.5 ? INCOMING_MAX_DEPTH : DEFAULT_MAX_DEPTH;
      if (kind === 0) {
        // Deep nesting under a payload key (known or extra): the frame's depth is 2 more.
        counts.deep++;
        const depth = pick(DEPTHS);
        const key = pick(['x', 'input', 'metadata', 'frames', 'options', 'todos', 'structured_output']);
        expectDepth = depth + 2;
        if (asText && depth > 1000) {
          const text = JSON.stringify({ ...frame, payload: { ...payload, [key]: '@@' } });
          input = text.replace('"@@"', nestedText(depth, rnd() < 0.5 ? '[' : '{"a":'));
        } else {
          payload[key] = nested(depth, i);
          input = asText ? JSON.stringify(frame) : frame;
        }
      } else if (kind === 1) {
        // Huge strings: mostly tens of KB, now and then past max_frame_size.
        counts.huge++;
        const big = rnd() < 0.004;
        const size = big ? MAX_BYTES + int(1024 * 1024) : 1000 + int(16_000);
        payload[pick(STRING_KEYS)] = pick(['Z', 'é', '한', '😀', '\u0000', '"']).repeat(size);
        if (big) expectBytes = MAX_BYTES;
        input = asText ? JSON.stringify(frame) : frame;
      } else {
        // Duplicate ids everywhere: message_id, turn_id and the payload's ids from a small pool.
        counts.dup++;
        frame.message_id = pick(ID_POOL) || 'm';
        if (rnd() < 0.5) frame.turn_id = pick(ID_POOL) || undefined;
        for (const k of ['invocation_id', 'interaction_id', 'turn_id', 'parent_invocation_id', 'target_turn_id', 'query_id', 'transfer_id']) if (k in payload) payload[k] = pick(ID_POOL);
        input = asText ? JSON.stringify(frame) : frame;
      }

      let outcome: ParseOutcome;
      try {
        outcome = typeof input === 'string' ? parseFrame(input, { maxBytes: MAX_BYTES, maxDepth }) : parseValue(input, { maxBytes: MAX_BYTES, maxDepth });
      } catch (e) {
        throw new Error(`parse threw at case ${i}: ${(e as Error).stack}`);
      }
      if (outcome.kind === 'error') {
        assert.equal(outcome.error.fatal, false);
        if (outcome.error.error_code === 'FRAME_TOO_DEEP') counts.tooDeep++;
        else if (outcome.error.error_code === 'FRAME_TOO_LARGE') counts.tooLarge++;
        else counts.otherError++;
      } else if (outcome.kind === 'ignored') counts.ignored++;
      else counts.accepted++;
      // The limits hold exactly: deeper than allowed is always refused as such, and what passes is within them.
      if (expectDepth !== undefined && expectDepth > maxDepth) assert.ok(outcome.kind === 'error' && outcome.error.error_code === 'FRAME_TOO_DEEP', `case ${i}: depth ${expectDepth} > ${maxDepth} got ${outcome.kind}`);
      if (expectBytes !== undefined && typeof input === 'string') assert.ok(outcome.kind === 'error' && outcome.error.error_code === 'FRAME_TOO_LARGE', `case ${i}: over max_frame_size got ${outcome.kind}`);
      if (outcome.kind !== 'accepted') continue;
      try {
        JSON.stringify(outcome.frame);
        history.append(outcome.frame);
        if (applyFrame(t, outcome.frame)) counts.applied++;
        if (i % 997 === 0) finalize(t, { reason: 'connection_closed' });
      } catch (e) {
        throw new Error(`an accepted frame broke serialization, history or the reducer at case ${i}: ${(e as Error).stack}`);
      }
    }

    assert.equal(counts.deep + counts.huge + counts.dup, CASES);
    assert.ok(counts.tooDeep > counts.deep * 0.3, `too deep ${counts.tooDeep} of ${counts.deep}`);
    assert.ok(counts.tooLarge > 20, `too large ${counts.tooLarge}`);
    assert.ok(counts.accepted > CASES * 0.4, `accepted ${counts.accepted}`);
    assert.ok(counts.applied > CASES * 0.2, `applied ${counts.applied}`);
  });

  it('§14.2 decoded values that are not JSON at all: cycles, a million-element array, getters that throw — refused, never a hang or a throw', () => {
    const cyclic: Obj = { v: 1, type: 'control.prompt.request', message_id: 'c', timestamp: '2026-03-16T10:00:00.000Z', session_id: ID.session, payload: { prompt_text: 'x' } };
    (cyclic.payload as Obj).self = cyclic;
    const wide = { ...cyclic, payload: { prompt_text: 'x', list: new Array(1_500_000).fill(0) } };
    const hostile = { ...cyclic, payload: {} };
    Object.defineProperty(hostile, 'payload', { enumerable: true, get: () => { throw new Error('boom'); } });
    for (const [name, value, code] of [['cycle', cyclic, 'FRAME_TOO_DEEP'], ['wide', wide, 'FRAME_TOO_LARGE'], ['getter', hostile, 'INVALID_ENVELOPE']] as const) {
      const o = parseValue(value);
      assert.ok(o.kind === 'error' && o.error.error_code === code, `${name}: ${o.kind} ${o.kind === 'error' ? o.error.error_code : ''}`);
    }
  });
});
