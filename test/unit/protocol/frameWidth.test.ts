// Decision 563: a peer's frame is held to a width as well as a depth, both read off its text in one
// linear scan before JSON.parse. The counts must be exact for any JSON (else a legitimate frame near
// the bound could be refused, or a wide one pass), strings must count for nothing whatever they
// hold, and a frame over the bound is refused whatever its type (an unknown type over it is no
// longer "ignored": refusals count towards the 1008 close).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { INCOMING_LIMITS, INCOMING_MAX_OBJECT_MEMBERS, INCOMING_MAX_VALUES, parseFrame, parseValue } from '../../../src/protocol';
import { CHECKPOINT_RESTORE_TYPE, CheckpointRestorePayload } from '../../../src/protocol/checkpointFrames';
import { jsonTextTooDeep, scanJsonText, type JsonTextCount } from '../../../src/protocol/limits';
import { uuid } from '../../fixtures/validate/samples';

const env = (type: string, payload: unknown) => ({ v: 1, type, message_id: uuid(1), timestamp: '2026-03-16T10:00:00.000Z', session_id: uuid(2), payload });

/** The model: the same counts taken from the value JSON.parse builds. */
function countValue(value: unknown): Omit<JsonTextCount, 'over'> {
  let values = 0;
  let widestObject = 0;
  let deepest = 0;
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop() as { v: unknown; d: number };
    if (typeof v !== 'object' || v === null) continue;
    deepest = Math.max(deepest, d + 1);
    const children = Array.isArray(v) ? v : Object.values(v);
    values += children.length;
    if (!Array.isArray(v)) widestObject = Math.max(widestObject, children.length);
    for (const c of children) stack.push({ v: c, d: d + 1 });
  }
  return { deepest, values, widestObject };
}

/** Strings made of what could fool a scan: brackets, commas, colons, quotes, backslashes. */
const tricky = fc.array(fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', '\\"', '\\\\', 'a', ' ', '\n', 'é', '😀'), { maxLength: 12 }).map((a) => a.join(''));
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), tricky, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 6 }),
  object: fc.dictionary(tricky, tie('value'), { maxKeys: 6 }),
})).value;

const exact = { maxDepth: Number.POSITIVE_INFINITY };
const wide = (n: number) => JSON.stringify(env('control.prompt.request', { prompt_text: 'x', ...Object.fromEntries(Array.from({ length: n - 1 }, (_, i) => [`k${i}`, i])) }));

describe('protocol/limits: the width of a frame, counted on its text (decision 563)', () => {
  it('§14.2 counts object members, array elements and depth exactly as JSON.parse builds them, in any JSON text (property: strings with braces, commas and escaped quotes; any whitespace)', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(undefined, 1, '\t', ' \r\n '), (value, space) => {
        const text = JSON.stringify(value, null, space);
        const { over, ...count } = scanJsonText(text, exact);
        assert.equal(over, undefined);
        assert.deepEqual(count, countValue(JSON.parse(text)), text);
      }),
      { numRuns: 5_000 },
    );
  });

  it('§14.2 strings count for nothing: a string of 100,000 commas, braces and escaped quotes is one value', () => {
    const text = JSON.stringify({ a: '{"x":[1,2,3]},\\"'.repeat(7_000), b: [] });
    assert.deepEqual(scanJsonText(text, exact), { deepest: 2, values: 2, widestObject: 2 });
    assert.deepEqual(scanJsonText('{ "a" : [ ] , "b" : { } }', exact), { deepest: 2, values: 2, widestObject: 2 });
    assert.deepEqual(scanJsonText('[ ]', exact), { deepest: 1, values: 0, widestObject: 0 });
    assert.deepEqual(scanJsonText('"just a string, {not} [an object]"', exact), { deepest: 0, values: 0, widestObject: 0 });
  });

  it('§14.2 the scan stops at the first bound passed and says which; a repeated key counts each time it is written', () => {
    assert.equal(scanJsonText('{"a":1,"b":2,"c":3}', { maxDepth: 8, maxObjectMembers: 3 }).over, undefined);
    assert.equal(scanJsonText('{"a":1,"b":2,"c":3,"d":4}', { maxDepth: 8, maxObjectMembers: 3 }).over, 'members');
    assert.equal(scanJsonText('{"a":1,"a":2,"a":3,"a":4}', { maxDepth: 8, maxObjectMembers: 3 }).over, 'members');
    assert.equal(scanJsonText('[1,2,3,4,5,6]', { maxDepth: 8, maxObjectMembers: 3 }).over, undefined, 'an array is no object');
    assert.equal(scanJsonText('{"a":[1,2],"b":[3]}', { maxDepth: 8, maxValues: 5 }).over, undefined);
    assert.equal(scanJsonText('{"a":[1,2],"b":[3,4]}', { maxDepth: 8, maxValues: 5 }).over, 'values');
    assert.equal(scanJsonText('[[[[1]]]]', { maxDepth: 3, maxValues: 10 }).over, 'depth');
    // The depth check it replaced keeps its answers.
    assert.equal(jsonTextTooDeep('[[["]]]]]]"]]]', 3), false);
    assert.equal(jsonTextTooDeep('[[[[]]]]', 3), true);
  });

  it('§14.2 a frame with an object one member over the bound is FRAME_TOO_WIDE (non-fatal), as text and as a decoded value; at the bound it is accepted with every unknown key kept', () => {
    const at = parseFrame(wide(INCOMING_MAX_OBJECT_MEMBERS), INCOMING_LIMITS);
    assert.ok(at.kind === 'accepted', JSON.stringify(at).slice(0, 300));
    assert.equal(Object.keys(at.frame.payload).length, INCOMING_MAX_OBJECT_MEMBERS, 'unknown payload keys are kept (decision 002)');
    assert.equal(parseValue(JSON.parse(wide(INCOMING_MAX_OBJECT_MEMBERS)), INCOMING_LIMITS).kind, 'accepted');
    for (const over of [parseFrame(wide(INCOMING_MAX_OBJECT_MEMBERS + 1), INCOMING_LIMITS), parseValue(JSON.parse(wide(INCOMING_MAX_OBJECT_MEMBERS + 1)), INCOMING_LIMITS)]) {
      assert.ok(over.kind === 'error' && over.error.error_code === 'FRAME_TOO_WIDE' && over.error.fatal === false, JSON.stringify(over));
      assert.match(over.error.message, /more than 1,000 members/);
    }
    // Without the peer's limits (history, files, the validator) nothing changes.
    assert.equal(parseFrame(wide(INCOMING_MAX_OBJECT_MEMBERS + 1)).kind, 'accepted');
  });

  it('§14.2 a frame holding one value over the bound is FRAME_TOO_WIDE; the largest frame a master sends (a restore naming 10,000 paths to force and 10,000 to restore) fits', () => {
    const restore = env(CHECKPOINT_RESTORE_TYPE, {
      checkpoint_id: 'c1',
      force: Array.from({ length: 10_000 }, (_, i) => `src/deep/folder/file-${i}.ts`),
      paths: Array.from({ length: 10_000 }, (_, i) => `src/other/folder/file-${i}.ts`),
    });
    assert.ok(CheckpointRestorePayload.safeParse(restore.payload).success, 'the schema allows it');
    const out = parseFrame(JSON.stringify(restore), { ...INCOMING_LIMITS, maxBytes: 4 * 1024 * 1024 });
    assert.ok(out.kind === 'accepted' && out.vendor, out.kind);
    // Values count at every level: the envelope's 6 members and the payload's own count too.
    const fill = INCOMING_MAX_VALUES - 6 - 2 - 1; // envelope, payload's prompt_text and list, the list
    const list = (n: number) => JSON.stringify(env('control.prompt.request', { prompt_text: 'x', list: [Array(n).fill(0)] }));
    assert.equal(scanJsonText(list(fill), exact).values, INCOMING_MAX_VALUES);
    assert.equal(parseFrame(list(fill), INCOMING_LIMITS).kind, 'accepted');
    const over = parseFrame(list(fill + 1), INCOMING_LIMITS);
    assert.ok(over.kind === 'error' && over.error.error_code === 'FRAME_TOO_WIDE', JSON.stringify(over));
    assert.match(over.error.message, /more than 25,000 values/);
    const overValue = parseValue(JSON.parse(list(fill + 1)), INCOMING_LIMITS);
    assert.ok(overValue.kind === 'error' && overValue.error.error_code === 'FRAME_TOO_WIDE');
  });

  it('§2.2 an unknown type within the bounds is still ignored; over them it is refused like any frame (its type is never read)', () => {
    const unknown = (n: number) => JSON.stringify(env('x.future.thing', Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))));
    assert.equal(parseFrame(unknown(10), INCOMING_LIMITS).kind, 'ignored');
    const over = parseFrame(unknown(INCOMING_MAX_OBJECT_MEMBERS + 1), INCOMING_LIMITS);
    assert.ok(over.kind === 'error' && over.error.error_code === 'FRAME_TOO_WIDE', over.kind);
  });
});
