// Where every master of ours resumes from after a dropped connection (§7.1, decision 564): never
// from an opening frame made for that connection alone, so a cut before its history arrived
// attaches afresh; from the history's last frame once it has it; from every frame after the opening.
import { strict as assert } from 'node:assert';
import { ResumePoint } from '../../../src/protocol/resumePoint';

describe('protocol: the resume point of a master (§7.1, decision 564)', () => {
  it('§7.1.1 a fresh attach cut before its history resumes from nothing (attaches afresh); after the opening, from its last frame', () => {
    const r = new ResumePoint();
    r.connecting();
    assert.equal(r.track('session.capabilities', 'caps-1'), false);
    r.track('tool.catalog.publish', 'cat-1');
    r.track('agent.commands.publish', 'cmd-1');
    assert.equal(r.value, undefined, 'cut here: no last_message_id, the next attach brings the whole history');
    assert.equal(r.inOpening, true);
    r.track('session.history', 'hist-1', 'frame-99');
    assert.equal(r.value, 'frame-99', 'the transcript up to its last frame is ours');
    assert.equal(r.track('agent.state.changed', 'state-1'), true, 'the opening ends here');
    assert.equal(r.value, 'frame-99', 'not the state frame made for this connection');
    r.track('agent.text.delta', 'live-1');
    assert.equal(r.value, 'live-1');
  });

  it('§7.1.1 an empty history resumes from the attach (its capabilities); a reattach ends its opening at agent.commands.publish after its history (§13.7)', () => {
    const r = new ResumePoint();
    r.connecting();
    r.track('session.capabilities', 'caps-1');
    r.track('session.history', 'hist-1', '');
    assert.equal(r.value, 'caps-1');
    r.track('agent.state.changed', 'state-1');
    r.track('agent.text.delta', 'live-1');
    r.connecting();
    r.track('session.capabilities', 'caps-2');
    r.track('tool.catalog.publish', 'cat-2');
    assert.equal(r.value, 'live-1', 'a cut during the reattach keeps what it had');
    r.track('session.history', 'hist-2', 'live-7');
    assert.equal(r.track('agent.commands.publish', 'cmd-2'), true);
    assert.equal(r.value, 'live-7');
    r.forget();
    assert.equal(r.value, undefined, 'another session: nothing to resume');
  });
});
