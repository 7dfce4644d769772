// The host <-> webview message map: both directions validate, bad input is a clear error, never a throw.
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import { hostMessage, parseHostMessage, parseWebviewMessage, webviewMessage } from '../../../src/protocol/webviewMessages';

const SESSION = '11111111-1111-4111-8111-111111111111';

describe('webview message map', () => {
  it('carries a control frame from the webview to the host unchanged', () => {
    const frame = buildFrame('control.prompt.cancel', { target_turn_id: 't1', reason: 'user_cancelled' }, { session_id: SESSION });
    const r = parseWebviewMessage(JSON.parse(JSON.stringify(webviewMessage('frame', { frame }))));
    assert.ok(r.ok);
    assert.equal(r.message.kind, 'frame');
    if (r.message.kind === 'frame') assert.deepEqual(r.message.payload.frame, frame);
  });

  it('carries frames and host-only lists from the host to the webview', () => {
    const frame = buildFrame('agent.text.delta', { content_index: 0, text: 'hi' }, { session_id: SESSION });
    const r = parseHostMessage(hostMessage('frames', { session_id: SESSION, frames: [frame] }));
    assert.ok(r.ok && r.message.kind === 'frames' && r.message.payload.frames.length === 1);
    const list = parseHostMessage(hostMessage('session.list', { sessions: [{ session_id: SESSION, name: 'one', shared: true }] }));
    assert.ok(list.ok && list.message.kind === 'session.list' && list.message.payload.sessions[0].name === 'one');
  });

  it('rejects unknown kinds, bad payloads and hostile objects with a message instead of throwing', () => {
    const unknown = parseHostMessage({ kind: 'nope', payload: {} });
    assert.ok(!unknown.ok && /unknown host message kind/.test(unknown.error));
    const bad = parseWebviewMessage({ kind: 'file.open', payload: { path: '', line: 0 } });
    assert.ok(!bad.ok && /path/.test(bad.error) && /line/.test(bad.error));
    const hostile = Object.defineProperty({}, 'kind', { get() { throw new Error('boom'); } });
    const h = parseWebviewMessage(hostile);
    assert.ok(!h.ok && /boom/.test(h.error));
    assert.ok(!parseHostMessage(null).ok && !parseHostMessage([1]).ok);
  });
});
