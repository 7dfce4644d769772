import { strict as assert } from 'node:assert';
import { FrameFactory } from '../../../src/protocol/build';
import type { PayloadOf } from '../../../src/protocol/frameTypes';
import { FollowUpQueue, type QueueState } from '../../../src/commands';

type Prompt = PayloadOf<'control.prompt.request'>;
const f = new FrameFactory('session-1');
const p = (text: string): Prompt => ({ prompt_text: text, input_type: 'text' });
const start = (turn_id: string) => f.make('session.turn.start', { turn_id, turn_index: 0 });
const end = (turn_id: string, stop_reason: PayloadOf<'session.turn.end'>['stop_reason'] = 'end_turn') => f.make('session.turn.end', { turn_id, stop_reason });

function setup(opts: { busy?: boolean } = {}) {
  const sent: string[] = [];
  const states: QueueState[] = [];
  const q = new FollowUpQueue({ send: (payload) => sent.push(payload.prompt_text), busy: opts.busy });
  q.onChange((s) => states.push(s));
  return { q, sent, states };
}

describe('commands: follow-up queue (§17.3.2 PROMPT_IN_PROGRESS)', () => {
  it('§17.3.2 idle: a prompt is sent at once', () => {
    const { q, sent } = setup();
    assert.deepEqual(q.submit(p('hello')), { status: 'sent' });
    assert.deepEqual(sent, ['hello']);
  });

  it('§17.3.2 prompts typed during a turn are held and released one per turn end, in order', () => {
    const { q, sent } = setup();
    q.submit(p('first'));
    q.observe(start('t1'));
    assert.equal(q.submit(p('second')).status, 'queued');
    assert.equal(q.submit(p('third')).status, 'queued');
    assert.deepEqual(sent, ['first']);
    q.observe(end('t1'));
    assert.deepEqual(sent, ['first', 'second']);
    // Only one at a time: third waits for the turn that second starts to end.
    q.observe(start('t2'));
    q.observe(end('t2'));
    assert.deepEqual(sent, ['first', 'second', 'third']);
    assert.equal(q.state.items.length, 0);
  });

  it('§17.3.2 between sending and session.turn.start the queue is busy (no double send)', () => {
    const { q, sent } = setup();
    q.submit(p('a'));
    assert.equal(q.submit(p('b')).status, 'queued');
    assert.deepEqual(sent, ['a']);
    assert.equal(q.state.busy, true);
  });

  it('§7.5.2 a turn started by someone else (another master) also holds the queue', () => {
    const { q, sent } = setup();
    q.observe(start('remote'));
    q.submit(p('mine'));
    assert.deepEqual(sent, []);
    q.observe(end('remote'));
    assert.deepEqual(sent, ['mine']);
  });

  it('§17.3.2 a PROMPT_IN_PROGRESS refusal puts the prompt back at the head; it goes at the next turn end', () => {
    const { q, sent } = setup();
    q.submit(p('a'));
    q.observe(start('t1'));
    q.submit(p('b'));
    q.submit(p('c'));
    q.observe(end('t1'));
    assert.deepEqual(sent, ['a', 'b']);
    q.observe(f.make('session.error', { error_code: 'PROMPT_IN_PROGRESS', message: 'busy', fatal: false }));
    assert.deepEqual(q.state.items.map((i) => i.payload.prompt_text), ['b', 'c']);
    assert.equal(q.state.busy, true);
    q.observe(end('other'));
    assert.deepEqual(sent, ['a', 'b', 'b']);
  });

  it('decision 652: the prompt handed on, refused before its turn (a bad json_schema), frees the queue: a later prompt goes at once; with prompts waiting, the queue holds them for the user', () => {
    const { q, sent } = setup();
    q.submit(p('bad schema'));
    assert.equal(q.state.busy, true);
    q.refused();
    assert.equal(q.state.busy, false, 'it was stuck "busy" before, and every later prompt queued forever');
    assert.deepEqual(q.submit(p('next')), { status: 'sent' });
    q.observe(start('t1'));
    q.submit(p('waits'));
    q.observe(end('t1'));
    assert.deepEqual(sent, ['bad schema', 'next', 'waits']);
    q.observe(start('t2'));
    q.submit(p('behind'));
    q.refused(); // a turn started: nothing of it is in flight, so nothing changes
    assert.equal(q.state.busy, true);
    q.observe(end('t2'));
    q.submit(p('one more'));
    assert.deepEqual(sent, ['bad schema', 'next', 'waits', 'behind']);
    q.refused(); // "behind" was refused before its turn; "one more" waits: held for the user
    assert.equal(q.state.paused, true);
    assert.deepEqual(q.state.items.map((i) => i.payload.prompt_text), ['one more']);
  });

  it('queued items can be cancelled, edited and reordered before they are sent', () => {
    const { q, sent } = setup({ busy: true });
    const a = q.submit(p('a'));
    const b = q.submit(p('b'));
    const c = q.submit(p('c'));
    assert.ok(a.status === 'queued' && b.status === 'queued' && c.status === 'queued');
    assert.equal(q.cancel(b.id), true);
    assert.equal(q.cancel(b.id), false);
    assert.equal(q.edit(c.id, 'c (edited)'), true);
    assert.equal(q.move(c.id, 0), true);
    assert.deepEqual(q.state.items.map((i) => i.payload.prompt_text), ['c (edited)', 'a']);
    q.observe(end('t0'));
    assert.deepEqual(sent, ['c (edited)']);
    assert.equal(q.edit(c.id, 'too late'), false);
  });

  it('editing keeps the input_type and the rest of the payload', () => {
    const { q } = setup({ busy: true });
    const r = q.submit({ prompt_text: 'Review a.ts', input_type: 'slash_command', file_references: [] });
    assert.equal(r.status, 'queued');
    if (r.status === 'queued') q.edit(r.id, 'Review b.ts');
    assert.deepEqual(q.state.items[0].payload, { prompt_text: 'Review b.ts', input_type: 'slash_command', file_references: [] });
  });

  it('§7.5.2 a cancelled or failed turn pauses the queue until resume() or a new submit', () => {
    for (const reason of ['cancelled', 'error'] as const) {
      const { q, sent } = setup({ busy: true });
      q.submit(p('held-1'));
      q.submit(p('held-2'));
      q.observe(end('t', reason));
      assert.deepEqual(sent, []);
      assert.equal(q.state.paused, true);
      q.resume();
      assert.deepEqual(sent, ['held-1']);
    }
    // A new submit while paused and idle resumes, keeping order (held items first).
    const { q, sent } = setup({ busy: true });
    q.submit(p('held'));
    q.observe(end('t', 'cancelled'));
    assert.deepEqual(q.submit(p('new')), { status: 'queued', id: q.state.items[0].id });
    assert.deepEqual(sent, ['held']);
  });

  it('§7.5.2 other stop reasons (max_tokens, awaiting_input, tool_use) release the next prompt', () => {
    for (const reason of ['max_tokens', 'awaiting_input', 'tool_use'] as const) {
      const { q, sent } = setup({ busy: true });
      q.submit(p('next'));
      q.observe(end('t', reason));
      assert.deepEqual(sent, ['next'], reason);
    }
  });

  it('§7.7.1 session.deleted or a fatal session.error drops what is queued and says so', () => {
    const { q, sent, states } = setup({ busy: true });
    q.submit(p('x'));
    q.observe(f.make('session.deleted', { session_id: 'session-1', reason: 'user_request', deleted_by: 'master' }));
    assert.deepEqual(q.state.items, []);
    assert.deepEqual(sent, []);
    assert.deepEqual(states.at(-1)?.dropped.map((i) => i.payload.prompt_text), ['x']);
    // The session is gone: later turn ends send nothing either.
    q.observe(end('late'));
    assert.deepEqual(sent, []);
    const two = setup({ busy: true });
    two.q.submit(p('y'));
    two.q.observe(f.make('session.error', { error_code: 'AGENT_CRASHED', message: 'gone', fatal: true }));
    assert.deepEqual(two.q.state.items, []);
    assert.deepEqual(two.sent, []);
  });

  it('a send that throws keeps the prompt at the head and pauses', () => {
    let fail = true;
    const sent: string[] = [];
    const q = new FollowUpQueue({ send: (x) => { if (fail) throw new Error('socket closed'); sent.push(x.prompt_text); } });
    assert.equal(q.submit(p('a')).status, 'queued');
    assert.equal(q.state.paused, true);
    fail = false;
    q.resume();
    assert.deepEqual(sent, ['a']);
  });

  it('a send that starts and finishes the turn synchronously still reports "sent" and releases the next', () => {
    const sent: string[] = [];
    let n = 0;
    const q: FollowUpQueue = new FollowUpQueue({
      send: (x) => {
        sent.push(x.prompt_text);
        const id = `t${++n}`;
        q.observe(start(id));
        if (x.prompt_text === 'a') q.submit(p('b')); // typed during the turn
        q.observe(end(id));
      },
    });
    assert.deepEqual(q.submit(p('a')), { status: 'sent' });
    assert.deepEqual(sent, ['a', 'b']);
  });
});
