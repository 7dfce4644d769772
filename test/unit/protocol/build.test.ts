// Frame builders: every frame they make is a valid v=1 envelope with a fresh UUID v4 and a
// millisecond ISO timestamp, and parses back to itself.
import { strict as assert } from 'node:assert';
import { FRAME_TYPE_NAMES, FrameFactory, UUID_V4, buildFrame, newId, parseFrame, type Clock, type FrameType } from '../../../src/protocol';
import { SAMPLES, uuid } from '../../fixtures/validate/samples';

const fixed = (iso: string): Clock => ({ now: () => new Date(iso) });

describe('protocol/build: buildFrame, FrameFactory, newId', () => {
  it('§2.1 stamps v=1, a UUID v4 message_id, a millisecond ISO timestamp and the session_id', () => {
    const f = buildFrame('agent.text.delta', { content_index: 0, text: 'hi' }, { session_id: uuid(7) }, fixed('2026-03-16T10:00:00Z'));
    assert.equal(f.v, 1);
    assert.match(f.message_id, UUID_V4);
    assert.equal(f.timestamp, '2026-03-16T10:00:00.000Z');
    assert.equal(f.session_id, uuid(7));
    assert.deepEqual(f.payload, { content_index: 0, text: 'hi' });
  });

  it('§2.1 the system clock gives millisecond precision in UTC', () => {
    const before = Date.now();
    const f = buildFrame('agent.thinking.done', { content_index: 0 }, { session_id: uuid(7) });
    assert.match(f.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(Date.parse(f.timestamp) >= before - 1);
  });

  it('§2.1 turn_id, parent_id and metadata appear only when given (empty metadata is left out)', () => {
    const bare = buildFrame('agent.thinking.done', { content_index: 0 }, { session_id: uuid(7), metadata: {} });
    assert.deepEqual(Object.keys(bare), ['v', 'type', 'message_id', 'timestamp', 'session_id', 'payload']);
    const full = buildFrame('agent.text.delta', { content_index: 0, text: 'plan' }, { session_id: uuid(7), turn_id: uuid(8), parent_id: uuid(9), metadata: { content_role: 'plan' } });
    assert.equal(full.turn_id, uuid(8));
    assert.equal(full.parent_id, uuid(9));
    assert.deepEqual(full.metadata, { content_role: 'plan' });
  });

  it('§2.1 message_ids are fresh UUID v4 every time', () => {
    const ids = new Set(Array.from({ length: 500 }, () => newId()));
    assert.equal(ids.size, 500);
    for (const id of ids) assert.match(id, UUID_V4);
  });

  for (const type of FRAME_TYPE_NAMES) {
    it(`§2.1 a built ${type} parses back to the same frame`, () => {
      const f = buildFrame(type, SAMPLES[type as FrameType] as never, { session_id: uuid(7), turn_id: uuid(8) });
      const out = parseFrame(JSON.stringify(f));
      assert.equal(out.kind, 'accepted', JSON.stringify(out));
      if (out.kind === 'accepted') assert.deepEqual(out.frame, f);
    });
  }

  it('FrameFactory binds one session and one clock', () => {
    const factory = new FrameFactory(uuid(3), fixed('2026-01-02T03:04:05.678Z'));
    const a = factory.make('session.turn.start', { turn_id: uuid(4), turn_index: 0 }, { turn_id: uuid(4) });
    const b = factory.make('session.turn.end', { turn_id: uuid(4), stop_reason: 'end_turn' });
    assert.equal(a.session_id, uuid(3));
    assert.equal(b.session_id, uuid(3));
    assert.equal(a.timestamp, '2026-01-02T03:04:05.678Z');
    assert.equal(a.turn_id, uuid(4));
    assert.equal(b.turn_id, undefined);
    assert.notEqual(a.message_id, b.message_id);
  });
});
