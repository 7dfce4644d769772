// Fuzz: 100,000 seeded random and mutated frames through parseFrame and then the transcript
// reducer. Nothing may throw; every parse outcome is accepted / ignored / error; and the reducer's
// promises hold under garbage (redacted text never surfaces, version only grows).
//
// Deterministic: a fixed seed drives every choice, so a failure names the iteration to replay.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  applyFrame,
  createTranscript,
  finalize,
  FRAME_TYPE_NAMES,
  parseFrame,
  type FinalizeReason,
  type Frame,
  type ParseOutcome,
  type SubagentRun,
  type TimelineEntry,
  type Transcript,
} from '../../../src/protocol';
import { ID, makeAllTypesFrames } from '../../fixtures/frames/make-all-types';
import { mulberry32 } from '../../../src/workspace/seededRandom';

const SEED = 0x5eed_2026;
const FRAMES = 100_000;
/** A fresh transcript every so often keeps memory flat and exercises early-stream states. */
const TRANSCRIPT_LENGTH = 2_500;


type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

class Gen {
  constructor(readonly rnd: () => number) {}
  int(n: number): number {
    return Math.floor(this.rnd() * n);
  }
  chance(p: number): boolean {
    return this.rnd() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  /** Small pools make ids collide, so the reducer meets repeats, orphans and reordering. */
  id(): string {
    return this.pick(['inv-1', 'inv-2', 'inv-3', ID.task, ID.bashDiff, ID.turn0, ID.turn1, 'i-1', '__proto__', 'constructor', 'x|y', '']);
  }
  unicode(): string {
    const parts = ['a', 'é', '한국어', '😀', '\u0000', '\u200b', '\u202e', '\ud800', '\udfff', '\\', '"', '<@file:ref_0|a.ts>', '\n', '𝕏', 'toString'];
    let s = '';
    for (let i = this.int(8); i >= 0; i--) s += this.pick(parts);
    return s;
  }
  number(): number {
    return this.pick([0, 1, -1, 2, 3, 7, 0.5, -0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, 42, NaN, Infinity]);
  }
  /** Any JSON value, shallow or nested. */
  value(depth = 0): Json {
    switch (this.int(depth > 2 ? 6 : 9)) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.number();
      case 3:
        return this.unicode();
      case 4:
        return this.id();
      case 5:
        return String(this.int(5));
      case 6:
        return Array.from({ length: this.int(4) }, () => this.value(depth + 1));
      case 7: {
        const o: Obj = {};
        for (let i = this.int(4); i > 0; i--) o[this.pick(['a', 'text', 'todos', 'depth', 'parent_invocation_id', 'synthetic', this.unicode()])] = this.value(depth + 1);
        return o;
      }
      default:
        return this.pick(['text', 'structured', 'plan', 'idle', 'thinking', 'success', 'cancelled', 'end_turn', 'YN', 'RING']);
    }
  }
}

/** Every object/array path inside a value, so mutations can reach nested fields. */
function containers(v: Json, out: Array<Obj | Json[]> = [], depth = 0): Array<Obj | Json[]> {
  if (depth > 6 || v === null || typeof v !== 'object') return out;
  out.push(v);
  for (const child of Array.isArray(v) ? v : Object.values(v)) containers(child, out, depth + 1);
  return out;
}

/** One mutation of a (copied) frame; returns the input for parseFrame: a value or a string. */
function mutate(g: Gen, base: Obj, bases: readonly Obj[], i: number): unknown {
  const f = base;
  const payload = (typeof f.payload === 'object' && f.payload !== null && !Array.isArray(f.payload) ? f.payload : {}) as Obj;
  switch (g.int(16)) {
    case 0: // unchanged but a fresh id (a new valid frame)
      f.message_id = `m-${i}`;
      break;
    case 1: // unchanged: a duplicate of a frame seen before (§2.1)
      break;
    case 2: {
      // drop a field anywhere
      const c = g.pick(containers(f));
      if (Array.isArray(c)) c.splice(g.int(c.length + 1), 1);
      else {
        const keys = Object.keys(c);
        if (keys.length > 0) delete c[g.pick(keys)];
      }
      f.message_id = `m-${i}`;
      break;
    }
    case 3: {
      // a wrong type (or a plausible value) anywhere
      const c = g.pick(containers(f));
      if (Array.isArray(c)) c[g.int(c.length + 1)] = g.value();
      else {
        const keys = Object.keys(c);
        c[keys.length > 0 && g.chance(0.8) ? g.pick(keys) : g.unicode()] = g.value();
      }
      f.message_id = `m-${i}`;
      break;
    }
    case 4: // unsupported or mistyped envelope version
      f.v = g.pick<Json>([0, 2, '1', null, 1.5, -1, true]);
      break;
    case 5: // unknown or vendor type
      f.type = g.pick(['agent.unknown.thing', 'x-acme.debug.trace', 'x-', 'session', '', 'X-ACME.x', g.unicode()]);
      f.message_id = `m-${i}`;
      break;
    case 6: // another frame's payload under this type
      f.payload = JSON.parse(JSON.stringify(g.pick(bases).payload)) as Json;
      f.message_id = `m-${i}`;
      break;
    case 7: // colliding ids, indexes and sequences: orphans, repeats, reordering
      for (const k of ['invocation_id', 'interaction_id', 'turn_id', 'parent_invocation_id', 'target_turn_id']) if (k in payload) payload[k] = g.id();
      if ('content_index' in payload) payload.content_index = g.int(4);
      if ('sequence' in payload) payload.sequence = g.int(6);
      if (g.chance(0.5)) f.turn_id = g.id() || 'turn-x';
      f.message_id = `m-${i}`;
      break;
    case 8: {
      // metadata: subagent contexts, plans, synthetic flags
      f.metadata = g.pick<Json>([
        { subagent_context: { parent_invocation_id: g.id() || 'p', depth: g.int(4) } },
        { subagent_context: null },
        { content_role: 'plan', plan_id: g.id() },
        { synthetic: true },
        { subagent_context: { parent_invocation_id: 'p', depth: -1 } },
        g.value(),
      ]);
      f.message_id = `m-${i}`;
      break;
    }
    case 9: // huge string (rarely: they are slow by design)
      if (g.chance(0.05)) {
        const c = g.pick(containers(f)) as Obj;
        if (!Array.isArray(c)) c[g.pick(['text', 'chunk', 'prompt_text', 'output', 'name'])] = 'Z'.repeat(200_000 + g.int(1000));
      }
      f.message_id = `m-${i}`;
      break;
    case 10: // unicode everywhere strings live
      for (const c of containers(f)) {
        if (Array.isArray(c)) continue;
        for (const k of Object.keys(c)) if (typeof c[k] === 'string' && g.chance(0.3)) c[k] = g.unicode();
      }
      f.message_id = `m-${i}`;
      break;
    case 11: // random JSON instead of a frame
      return g.chance(0.5) ? g.value() : JSON.stringify(g.value());
    case 12: {
      // broken JSON text
      const text = JSON.stringify(f);
      return g.chance(0.5) ? text.slice(0, g.int(text.length)) : text.slice(0, g.int(text.length)) + g.pick(['}', ']', '"', ',', '\u0000']) + text.slice(g.int(text.length));
    }
    case 13: {
      // a history wrapping mutated frames (some of them histories themselves)
      const inner: Json[] = [];
      for (let k = g.int(6); k > 0; k--) {
        const copy = JSON.parse(JSON.stringify(g.pick(bases))) as Obj;
        const m = mutate(g, copy, bases, i * 10 + k);
        inner.push((typeof m === 'string' ? copy : m) as Json);
      }
      return {
        v: 1,
        type: 'session.history',
        message_id: `h-${i}`,
        timestamp: f.timestamp as Json,
        session_id: ID.session,
        payload: {
          frames: inner,
          buffer_status: { policy_applied: 'RING', truncated: g.chance(0.3), lost_frame_count: g.int(3) },
          last_sync_timestamp: f.timestamp as Json,
          last_message_id: 'x',
        },
      };
    }
    case 14: // another session (ignored when the transcript is bound to one)
      f.session_id = 'other-session';
      f.message_id = `m-${i}`;
      break;
    default: // timestamps that are not ISO, or are but odd
      f.timestamp = g.pick<Json>(['2026-03-16', 'yesterday', '2026-03-16T10:00:00+09:00', '2026-03-16T10:00:00.123456Z', 0, null]);
      f.message_id = `m-${i}`;
  }
  // Half of the inputs go in as text, as they come off a socket.
  return g.chance(0.5) ? JSON.stringify(f) : f;
}

const KINDS = new Set(['accepted', 'ignored', 'error']);

function checkOutcome(o: ParseOutcome): void {
  assert.ok(KINDS.has(o.kind), `unexpected outcome kind ${String((o as { kind: unknown }).kind)}`);
  if (o.kind === 'error') assert.ok(typeof o.error.error_code === 'string' && o.error.message.length > 0 && o.error.fatal === false);
  if (o.kind === 'ignored') assert.ok(typeof o.reason === 'string' && o.reason.length > 0);
}

/** Every node sits exactly once in the tree, and no run is its own ancestor. */
function checkTree(t: Transcript): void {
  const seen = new Set<object>();
  const visit = (entries: ReadonlyArray<TimelineEntry>): void => {
    for (const e of entries) {
      assert.ok(!seen.has(e), `node ${e.key} appears twice in the tree`);
      seen.add(e);
      if (e.kind === 'turn') visit(e.blocks);
      else if (e.kind === 'parallel') visit(e.invocations);
      else if (e.kind === 'tool' && e.subagent) visit(e.subagent.blocks);
    }
  };
  visit(t.timeline);
  const runs = new Map(t.subagents.map((r) => [r.parentInvocationId, r]));
  for (const run of t.subagents) {
    let r: SubagentRun | undefined = run;
    for (let steps = 0; r?.parentRunId !== undefined; steps++) {
      assert.ok(steps <= t.subagents.length, `run ${run.parentInvocationId} is its own ancestor`);
      r = runs.get(r.parentRunId);
    }
  }
}

function viewText(t: Transcript): string {
  return JSON.stringify(t, (k, v) => (k === 'idx' ? undefined : v));
}

describe('fuzz: parseFrame + transcript reducer', function () {
  this.timeout(120_000);

  it(`§2.2 §14.2 ${FRAMES.toLocaleString('en')} seeded random and mutated frames: no throw, every outcome accepted/ignored/error, the reducer takes every accepted frame`, () => {
    const g = new Gen(mulberry32(SEED));
    const bases = makeAllTypesFrames().map((f) => JSON.parse(JSON.stringify(f)) as Obj);
    assert.deepEqual(FRAME_TYPE_NAMES.filter((type) => !bases.some((b) => b.type === type)), [], 'the mutation bases cover every frame type');
    const texts = bases.map((b) => JSON.stringify(b));
    const counts = { accepted: 0, ignored: 0, error: 0, applied: 0, finalized: 0 };
    const reasons: FinalizeReason[] = ['connection_closed', 'connection_error', 'app_restart'];
    let t = createTranscript();
    let version = 0;
    let redactedMarkers: string[] = [];

    const endTranscript = () => {
      checkTree(t);
      const text = viewText(t);
      for (const marker of redactedMarkers) assert.ok(!text.includes(marker), `§15.3 redacted text ${marker} surfaced in the view`);
      redactedMarkers = [];
      t = createTranscript(g.chance(0.3) ? { sessionId: ID.session } : {});
      version = 0;
    };

    for (let i = 0; i < FRAMES; i++) {
      if (i > 0 && i % TRANSCRIPT_LENGTH === 0) endTranscript();
      const k = g.int(texts.length);
      const frame = JSON.parse(texts[k]) as Obj;
      // Redacted thinking gets a unique marker that must never reach the view (§15.3).
      const payload = frame.payload as Obj;
      if (frame.type === 'agent.thinking.delta' && g.chance(0.5)) {
        payload.redacted = true;
        payload.text = `R3D-${i}-ACTED`;
      }
      const input = mutate(g, frame, bases, i);
      let outcome: ParseOutcome;
      try {
        outcome = parseFrame(input);
      } catch (e) {
        throw new Error(`parseFrame threw at iteration ${i}: ${(e as Error).stack}`);
      }
      checkOutcome(outcome);
      counts[outcome.kind]++;
      if (outcome.kind !== 'accepted') continue;
      if (!outcome.vendor && outcome.frame.type === 'agent.thinking.delta' && outcome.frame.payload.redacted === true && outcome.frame.payload.text.startsWith('R3D-')) {
        redactedMarkers.push(outcome.frame.payload.text);
      }
      try {
        if (applyFrame(t, outcome.frame)) counts.applied++;
        if (g.chance(0.002)) {
          finalize(t, { reason: g.pick(reasons) });
          counts.finalized++;
        }
      } catch (e) {
        throw new Error(`reducer threw at iteration ${i} on ${JSON.stringify(outcome.frame).slice(0, 400)}: ${(e as Error).stack}`);
      }
      assert.ok(t.version >= version, 'version never goes back');
      version = t.version;
    }
    endTranscript();

    // The mix is broad enough to mean something: every outcome is common, the reducer did work.
    assert.equal(counts.accepted + counts.ignored + counts.error, FRAMES);
    assert.ok(counts.accepted > FRAMES * 0.3, `accepted ${counts.accepted}`);
    assert.ok(counts.error > FRAMES * 0.2, `error ${counts.error}`);
    assert.ok(counts.ignored > FRAMES * 0.005, `ignored ${counts.ignored}`);
    assert.ok(counts.applied > FRAMES * 0.2, `applied ${counts.applied}`);
    assert.ok(counts.finalized > 10, `finalized ${counts.finalized}`);
  });

  it('§2.2 arbitrary JSON values and envelopes with arbitrary payloads (fast-check): no throw, outcomes stay in the three kinds', () => {
    const t = createTranscript();
    const typeArb = fc.oneof(fc.constantFrom(...FRAME_TYPE_NAMES), fc.constantFrom('x-acme.a.b', 'nope'), fc.string());
    const envelope = fc.record({
      v: fc.oneof(fc.constant(1), fc.jsonValue()),
      type: typeArb,
      message_id: fc.string({ minLength: 1, maxLength: 8 }),
      timestamp: fc.constantFrom('2026-03-16T10:00:00.000Z', '2026-03-16T10:00:00+01:00', 'bad'),
      session_id: fc.constant(ID.session),
      turn_id: fc.option(fc.constantFrom(ID.turn0, 'tx'), { nil: undefined }),
      metadata: fc.option(fc.jsonValue(), { nil: undefined }),
      payload: fc.dictionary(
        fc.constantFrom('content_index', 'text', 'invocation_id', 'tool_name', 'input', 'status', 'output', 'output_type', 'sequence', 'chunk', 'stream_type', 'turn_id', 'turn_index', 'stop_reason', 'frames', 'buffer_status'),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), envelope, fc.string()), (input) => {
        const outcome = parseFrame(input);
        checkOutcome(outcome);
        if (outcome.kind === 'accepted') applyFrame(t, outcome.frame as Frame);
      }),
      { seed: SEED, numRuns: 3_000 },
    );
  });
});
