import { strict as assert } from 'node:assert';
import { FrameFactory } from '../../../src/protocol/build';
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { FollowUpQueue } from '../../../src/commands';

type Prompt = PayloadOf<'control.prompt.request'>;
const f = new FrameFactory('session-1');
const p = (text: string): Prompt => ({ prompt_text: text, input_type: 'text' });

describe('commands: the follow-up queue is bounded (decision 544)', () => {
  it('§17.3.2 past maxItems waiting prompts, one more is refused with a plain message and not kept', () => {
    const q = new FollowUpQueue({ send: () => undefined, busy: true, limits: { maxItems: 3, maxBytes: 1e9 } });
    for (let i = 0; i < 3; i++) assert.equal(q.submit(p(`p${i}`)).status, 'queued');
    const out = q.submit(p('p3'));
    assert.equal(out.status, 'refused');
    assert.match(out.status === 'refused' ? out.message : '', /queue is full: 3 prompts are already waiting \(at most 3\).*not queued/);
    assert.equal(q.state.items.length, 3);
    // One leaves at the turn end: there is room again.
    q.observe(f.make('session.turn.end', { turn_id: 't', stop_reason: 'end_turn' }));
    assert.equal(q.submit(p('p4')).status, 'queued');
  });

  it('§17.3.2 past maxBytes together, refused; a prompt that goes out at once is never limited', () => {
    const sent: string[] = [];
    const q = new FollowUpQueue({ send: (x) => sent.push(x.prompt_text), limits: { maxItems: 100, maxBytes: 2500 } });
    assert.equal(q.submit(p('x'.repeat(5000))).status, 'sent');
    assert.equal(q.submit(p('a'.repeat(1000))).status, 'queued');
    assert.equal(q.submit(p('b'.repeat(1000))).status, 'queued');
    assert.equal(q.submit(p('c'.repeat(1000))).status, 'refused');
    assert.ok(q.heldBytes <= 2500);
    // Editing a waiting prompt cannot grow the queue past its limit either.
    const id = q.state.items[0].id;
    assert.equal(q.edit(id, 'a'.repeat(2000)), false);
    assert.equal(q.edit(id, 'short'), true);
    assert.equal(q.submit(p('c'.repeat(1000))).status, 'queued');
  });
});
