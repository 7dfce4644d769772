// PipedInputEnd (decision 599): when piped input has ended, `rawp attach` leaves once every prompt
// it sent was answered — by a turn that ended, or without one — and no /save runs.
import { strict as assert } from 'node:assert';
import { PipedInputEnd } from '../../../src/cli/attach/pipedInputEnd';

type F = Parameters<PipedInputEnd['seen']>[0];
const frame = (type: string, payload: Record<string, unknown>, parent_id?: string) => ({ type, payload, ...(parent_id ? { parent_id } : {}) }) as unknown as F;

describe('cli/attach: leaving when piped input is done (decision 599)', () => {
  it('waits for the turn its prompt started; a state change of that turn is no answer, its end is', () => {
    let left = 0;
    const end = new PipedInputEnd(() => left++, () => false);
    end.promptSent('p1');
    end.inputEnded();
    end.seen(frame('agent.state.changed', { current_state: 'thinking', reason: 'turn' }, 'p1'));
    end.seen(frame('session.turn.start', { turn_id: 't1' }, 'p1'));
    end.seen(frame('session.turn.end', { turn_id: 'other' }));
    assert.equal(left, 0);
    end.seen(frame('session.turn.end', { turn_id: 't1' }));
    assert.equal(left, 1);
  });

  it('a queued prompt keeps it waiting for its later turn; a host answer (mode switch, notice, refusal) ends the wait', () => {
    let left = 0;
    const end = new PipedInputEnd(() => left++, () => false);
    for (const id of ['q', 'm', 'n', 'e']) end.promptSent(id);
    end.inputEnded();
    end.seen(frame('x-rawp.notice', { level: 'info', message: 'queued', words: { id: 'queued' } }, 'q'));
    end.seen(frame('agent.state.changed', { current_state: 'idle', reason: 'mode_switch' }, 'm'));
    end.seen(frame('x-rawp.notice', { level: 'info', message: 'Slash commands', words: { id: 'help' } }, 'n'));
    end.seen(frame('session.error', { error_code: 'X', message: 'no', fatal: false }, 'e'));
    assert.equal(left, 0, 'the queued one is still to run');
    end.seen(frame('session.turn.start', { turn_id: 'tq' }, 'q'));
    end.seen(frame('session.turn.end', { turn_id: 'tq' }));
    assert.equal(left, 1);
  });

  it('a running /save and lines not yet sent keep it; input that ends with nothing asked leaves at once', () => {
    let left = 0;
    let waiting = true;
    const end = new PipedInputEnd(() => left++, () => waiting);
    end.saveStarted();
    end.inputEnded();
    waiting = false;
    assert.equal(left, 0);
    end.saveEnded();
    assert.equal(left, 1);
    const idle = new PipedInputEnd(() => left++, () => false);
    idle.inputEnded();
    assert.equal(left, 2);
  });
});
