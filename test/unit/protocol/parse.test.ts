// parseFrame: the three outcomes (accepted / ignored / error), Postel's law, versions, sizes.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { FRAME_TYPE_NAMES, describeIssues, parseFrame, parseValue, payloads, type FrameType } from '../../../src/protocol';
import { jsonTextTooDeep } from '../../../src/protocol/limits';
import { SAMPLES, uuid } from '../../fixtures/validate/samples';

const env = (type: string, payload: unknown, extra: Record<string, unknown> = {}) => ({
  v: 1,
  type,
  message_id: uuid(1),
  timestamp: '2026-03-16T10:00:00.000Z',
  session_id: uuid(2),
  payload,
  ...extra,
});

describe('protocol/parse: parseFrame', () => {
  describe('accepts every frame type', () => {
    for (const type of FRAME_TYPE_NAMES) {
      it(`Appendix B a valid ${type} is accepted, from text and from a decoded value`, () => {
        const frame = env(type, SAMPLES[type as FrameType]);
        for (const input of [JSON.stringify(frame), frame]) {
          const out = parseFrame(input);
          assert.equal(out.kind, 'accepted', JSON.stringify(out));
          if (out.kind !== 'accepted') return;
          assert.equal(out.vendor, false);
          assert.equal(out.frame.type, type);
          assert.deepEqual(out.frame.payload, SAMPLES[type as FrameType]);
        }
      });
    }

    it('Appendix B there are exactly 33 frame types', () => {
      assert.equal(FRAME_TYPE_NAMES.length, 33);
      assert.equal(Object.keys(SAMPLES).length, 33);
    });
  });

  describe('§2.2 Postel\'s law', () => {
    it('§2.2-1 §14.2.2 unknown payload keys are ignored but kept for relaying, at every depth', () => {
      const payload = { ...SAMPLES['agent.interaction.request'], future: { a: 1 }, options: [{ value: 'y', label: 'Yes', colour: 'green' }] };
      const out = parseFrame(JSON.stringify(env('agent.interaction.request', payload, { trace: 'abc' })));
      assert.equal(out.kind, 'accepted');
      if (out.kind !== 'accepted') return;
      const p = out.frame.payload as Record<string, unknown> & { options: Record<string, unknown>[] };
      assert.deepEqual(p.future, { a: 1 });
      assert.equal(p.options[0].colour, 'green');
      assert.equal((out.frame as unknown as Record<string, unknown>).trace, 'abc');
    });

    it('§2.2-2 §2.2-3 an unknown type is ignored and reported for the log, never an error', () => {
      const out = parseFrame(JSON.stringify(env('agent.hologram.delta', { anything: true })));
      assert.deepEqual(out, { kind: 'ignored', type: 'agent.hologram.delta', session_id: uuid(2), reason: 'unknown frame type "agent.hologram.delta" ignored (§2.2)' });
    });

    it('§14.2-1 §14.2-2 an unknown type is ignored even when the rest of its envelope is not ours', () => {
      const out = parseFrame(JSON.stringify({ v: 1, type: 'agent.future.thing', when: 'now' }));
      assert.equal(out.kind, 'ignored');
    });

    it('§3.1.1 x-vendor frames are accepted with their payload untouched', () => {
      const payload = { deep: { list: [1, 'two'] } };
      const out = parseFrame(JSON.stringify(env('x-acme.custom.event_name', payload)));
      assert.equal(out.kind, 'accepted');
      if (out.kind !== 'accepted') return;
      assert.equal(out.vendor, true);
      assert.deepEqual(out.frame.payload, payload);
    });

    it('§3.1.1 an x-vendor frame with a broken envelope is ignored like any type we do not handle', () => {
      const out = parseFrame(JSON.stringify({ v: 1, type: 'x-acme.custom.event', payload: {} }));
      assert.equal(out.kind, 'ignored');
    });
  });

  describe('§1.3 / §14.1 only rawp-dps-1.0', () => {
    it('§1.3-1 §14.1-1 session.capabilities accepts only protocol_version rawp-dps-1.0', () => {
      for (const protocol_version of ['rawp-1.0', 'RAWP-1.0-Legacy', 'rawp-dps-2.0']) {
        const out = parseFrame(env('session.capabilities', { ...SAMPLES['session.capabilities'], protocol_version }));
        assert.equal(out.kind === 'error' && out.error.error_code, 'INVALID_PAYLOAD', protocol_version);
        assert.match(out.kind === 'error' ? out.error.message : '', /payload\.protocol_version/);
      }
    });

    it('§3.2-1 no legacy type mapping: a type outside the 33 of this spec (and not x-vendor) is ignored, never translated', () => {
      for (const type of ['text', 'message.delta', 'tool_use']) {
        const out = parseFrame(env(type, { text: 'hi' }));
        assert.equal(out.kind, 'ignored', type);
      }
    });
  });

  describe('§2.2 envelope version', () => {
    for (const v of [2, 0, '1', null, 1.5]) {
      it(`§2.2-4 v=${JSON.stringify(v)} is an error outcome UNSUPPORTED_VERSION (answer with a non-fatal session.error)`, () => {
        const out = parseFrame(JSON.stringify(env('agent.text.delta', SAMPLES['agent.text.delta'], { v })));
        assert.equal(out.kind, 'error');
        if (out.kind !== 'error') return;
        assert.equal(out.error.error_code, 'UNSUPPORTED_VERSION');
        assert.equal(out.error.fatal, false);
        assert.equal(out.session_id, uuid(2));
        assert.equal(out.message_id, uuid(1));
        assert.equal(out.type, 'agent.text.delta');
      });
    }

    it('§2.2 a missing v is unsupported too, even for an unknown type (v is checked first)', () => {
      const frame: Record<string, unknown> = env('agent.hologram.delta', {});
      delete frame.v;
      const out = parseFrame(frame);
      assert.equal(out.kind === 'error' && out.error.error_code, 'UNSUPPORTED_VERSION');
    });
  });

  describe('§2.1 errors name what is wrong', () => {
    it('§2.1 an invalid payload is INVALID_PAYLOAD naming the field path', () => {
      const payload = { ...SAMPLES['agent.interaction.request'], options: [{ value: 'y', label: 'Yes' }, { value: 'n', label: 3 }] };
      const out = parseFrame(JSON.stringify(env('agent.interaction.request', payload)));
      assert.equal(out.kind, 'error');
      if (out.kind !== 'error') return;
      assert.equal(out.error.error_code, 'INVALID_PAYLOAD');
      assert.match(out.error.message, /^agent\.interaction\.request: payload\.options\[1\]\.label: /);
      assert.equal(out.error.fatal, false);
    });

    it('§5.3.1 a missing required field is named (tool.invoke.result without output)', () => {
      const { output: _dropped, ...rest } = SAMPLES['tool.invoke.result'];
      const out = parseFrame(env('tool.invoke.result', rest));
      assert.equal(out.kind, 'error');
      if (out.kind === 'error') assert.match(out.error.message, /payload\.output: output is required/);
    });

    it('§2.1 envelope problems are INVALID_ENVELOPE naming the field (timestamp without zone, missing session_id)', () => {
      const local = parseFrame(env('agent.text.delta', SAMPLES['agent.text.delta'], { timestamp: '2026-03-16T10:00:00' }));
      assert.equal(local.kind === 'error' && local.error.error_code, 'INVALID_ENVELOPE');
      assert.match(local.kind === 'error' ? local.error.message : '', /timestamp/);
      const frame: Record<string, unknown> = env('agent.text.delta', SAMPLES['agent.text.delta']);
      delete frame.session_id;
      const noSession = parseFrame(frame);
      assert.match(noSession.kind === 'error' ? noSession.error.message : '', /session_id/);
    });

    it('§2.1 ISO 8601 timestamps with an offset and without milliseconds are accepted', () => {
      for (const timestamp of ['2026-03-16T19:00:00.123+09:00', '2026-03-16T10:00:00Z']) {
        assert.equal(parseFrame(env('agent.text.delta', SAMPLES['agent.text.delta'], { timestamp })).kind, 'accepted', timestamp);
      }
    });

    it('§2.1 malformed JSON is MALFORMED_JSON; a non-object is INVALID_ENVELOPE', () => {
      const bad = parseFrame('{"v":1,');
      assert.equal(bad.kind === 'error' && bad.error.error_code, 'MALFORMED_JSON');
      for (const text of ['[]', 'null', '"frame"', '42']) {
        const out = parseFrame(text);
        assert.equal(out.kind === 'error' && out.error.error_code, 'INVALID_ENVELOPE', text);
      }
    });

    it('describeIssues joins at most five issues and counts the rest', () => {
      const r = payloads.AgentFileTransfer.safeParse({});
      assert.equal(r.success, false);
      if (r.success) return;
      assert.equal(r.error.issues.length, 6);
      const text = describeIssues(r.error, 'payload');
      assert.equal(text.split('; ').length, 6);
      assert.match(text, /^payload\.transfer_id: .*; and 1 more$/);
      assert.match(describeIssues(r.error), /^transfer_id: /);
    });
  });

  describe('§12.2.1 max_frame_size', () => {
    it('§12.2.1 text longer than maxBytes (UTF-8 bytes, not characters) is FRAME_TOO_LARGE; exactly maxBytes passes', () => {
      const text = JSON.stringify(env('agent.text.delta', { content_index: 0, text: 'é😀' }));
      const bytes = new TextEncoder().encode(text).length;
      assert.equal(bytes, text.length + 1 + 2); // é is 2 bytes for 1 unit; 😀 is 4 bytes for 2 units
      assert.equal(parseFrame(text, { maxBytes: bytes }).kind, 'accepted');
      const out = parseFrame(text, { maxBytes: bytes - 1 });
      assert.equal(out.kind === 'error' && out.error.error_code, 'FRAME_TOO_LARGE');
    });
    it('§12.2.1 the size is decided by length alone where length decides it, and counted in UTF-8 where it does not (property)', () => {
      // Three-byte characters (한) and four-byte pairs (😀) put a text's bytes anywhere from its
      // length to three times it: every limit in that span is checked against the exact count.
      fc.assert(
        fc.property(fc.array(fc.oneof({ arbitrary: fc.constant('한'), weight: 8 }, fc.constantFrom('a', 'é', '😀')), { maxLength: 600, size: 'max' }), fc.double({ min: 0.9, max: 3.1, noNaN: true }), (chars, share) => {
          const text = JSON.stringify(env('agent.text.delta', { content_index: 0, text: chars.join('') }));
          const bytes = new TextEncoder().encode(text).length;
          const maxBytes = Math.max(1, Math.round(text.length * share));
          const out = parseFrame(text, { maxBytes });
          assert.equal(out.kind === 'error' && out.error.error_code === 'FRAME_TOO_LARGE', bytes > maxBytes, `${bytes} bytes against ${maxBytes}`);
        }),
      );
    });
    it('§12.2.1 a frame far over the limit is refused by its length and says so (at least N bytes)', () => {
      const text = JSON.stringify(env('agent.text.delta', { content_index: 0, text: 'x'.repeat(10_000) }));
      const out = parseFrame(text, { maxBytes: 1_000 });
      assert.ok(out.kind === 'error' && out.error.error_code === 'FRAME_TOO_LARGE');
      assert.match(out.error.message, new RegExp(`frame of at least ${text.length} bytes exceeds max_frame_size 1000`));
    });
  });

  describe('never throws', () => {
    it('§14.2.1 parseFrame never throws on any text or any value (property)', () => {
      fc.assert(
        fc.property(fc.oneof(fc.string(), fc.json(), fc.anything()), (input) => {
          const out = parseFrame(input);
          assert.ok(['accepted', 'ignored', 'error'].includes(out.kind));
        }),
        { numRuns: 300 },
      );
    });

    it('§14.2.1 parseFrame never throws on random frames of known types with random payloads (property)', () => {
      fc.assert(
        fc.property(fc.constantFrom(...FRAME_TYPE_NAMES), fc.object(), (type, payload) => {
          const out = parseFrame(JSON.stringify(env(type, payload)));
          assert.ok(out.kind === 'accepted' || (out.kind === 'error' && out.error.error_code === 'INVALID_PAYLOAD'));
        }),
        { numRuns: 300 },
      );
    });

    it('§2.2 a hostile object (a throwing getter) becomes an error outcome, not an exception', () => {
      const hostile = env('agent.text.delta', SAMPLES['agent.text.delta']);
      Object.defineProperty(hostile, 'session_id', {
        enumerable: true,
        get() {
          throw new Error('boom');
        },
      });
      const out = parseValue(hostile);
      assert.equal(out.kind, 'error');
      if (out.kind === 'error') assert.match(out.error.message, /boom/);
    });
  });

  describe('§14.2 input limits: nesting depth (issue 12 #1)', () => {
    const withDepth = (n: number) => JSON.stringify(env('control.prompt.request', { prompt_text: 'x', extra: '@' })).replace('"@"', `${'['.repeat(n - 2)}${']'.repeat(n - 2)}`);
    it('a frame exactly maxDepth deep is read; one level more is FRAME_TOO_DEEP (non-fatal), as text and as a decoded value', () => {
      for (const max of [8, 64, 128]) {
        assert.equal(parseFrame(withDepth(max), { maxDepth: max }).kind, 'accepted', `depth ${max}`);
        const over = parseFrame(withDepth(max + 1), { maxDepth: max });
        assert.ok(over.kind === 'error' && over.error.error_code === 'FRAME_TOO_DEEP' && over.error.fatal === false, `depth ${max + 1}`);
        assert.equal(parseValue(JSON.parse(withDepth(max)), { maxDepth: max }).kind, 'accepted');
        const overValue = parseValue(JSON.parse(withDepth(max + 1)), { maxDepth: max });
        assert.ok(overValue.kind === 'error' && overValue.error.error_code === 'FRAME_TOO_DEEP');
      }
    });
    it('brackets inside strings (and escaped quotes) do not count as nesting', () => {
      const text = JSON.stringify(env('control.prompt.request', { prompt_text: `"${'[{'.repeat(5000)}\\"` }));
      assert.equal(parseFrame(text, { maxDepth: 4 }).kind, 'accepted');
    });
    it('the depth read off the text (strings crossed to their closing quote) agrees with reading it character by character, on any text (property)', () => {
      // The model: the plain scan the check replaced. Texts of brackets, quotes, backslashes and
      // letters, valid JSON or not, unterminated strings and runs of backslashes before quotes.
      const model = (text: string, maxDepth: number): boolean => {
        let depth = 0;
        let inString = false;
        for (let i = 0; i < text.length; i++) {
          const c = text[i];
          if (inString) {
            if (c === '\\') i++;
            else if (c === '"') inString = false;
          } else if (c === '"') inString = true;
          else if (c === '{' || c === '[') {
            if (++depth > maxDepth) return true;
          } else if (c === '}' || c === ']') depth--;
        }
        return false;
      };
      fc.assert(
        fc.property(fc.array(fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ','), { maxLength: 60 }), fc.integer({ min: 0, max: 6 }), (chars, maxDepth) => {
          const text = chars.join('');
          assert.equal(jsonTextTooDeep(text, maxDepth), model(text, maxDepth), JSON.stringify(text));
        }),
        { numRuns: 5_000 },
      );
      for (const value of [{ a: ['x\\', '"[', { b: '\\"]]' }] }, [['\\\\'], '{'], 'plain']) {
        const text = JSON.stringify(value);
        for (let d = 0; d < 5; d++) assert.equal(jsonTextTooDeep(text, d), model(text, d), `${text} at ${d}`);
      }
    });
  });
});
