// The webview store in Node (no browser needed): frames are applied once per animation frame
// (coalescing), our own control frames go into our transcript (the hub never echoes them, §2.4),
// capability gating (§12.2.1), and the VS Code transport's validation of host messages.
import { strict as assert } from 'node:assert';
import { hostMessage, type HostMessage, type WebviewMessage } from '../../../src/protocol/webviewMessages';
import { ChatStore } from '../../../webview-ui/src/state/store';
import type { Transport } from '../../../webview-ui/src/transport/types';
import { VsCodeTransport } from '../../../webview-ui/src/transport/vscode';
import { SESSION, TURN, clientCaps, plainAgentStream } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

class FakeTransport implements Transport {
  sent: WebviewMessage[] = [];
  private listener?: (m: HostMessage) => void;
  send(m: WebviewMessage): void {
    this.sent.push(m);
  }
  onMessage(l: (m: HostMessage) => void): () => void {
    this.listener = l;
    return () => undefined;
  }
  host(m: HostMessage): void {
    this.listener?.(m);
  }
  getState(): unknown {
    return undefined;
  }
  setState(): void {}
  frames(type: string): Array<{ type: string; payload: Record<string, unknown> }> {
    return this.sent.flatMap((m) => (m.kind === 'frame' && m.payload.frame.type === type ? [m.payload.frame as { type: string; payload: Record<string, unknown> }] : []));
  }
}

function setup() {
  const transport = new FakeTransport();
  const ticks: Array<() => void> = [];
  const store = new ChatStore(transport, (cb) => ticks.push(cb));
  let changes = 0;
  store.subscribe(() => changes++);
  transport.host(hostMessage('session.attached', { session_id: SESSION }));
  const tick = () => ticks.splice(0).forEach((cb) => cb());
  return { transport, store, tick, changes: () => changes };
}

describe('webview store', () => {
  it('coalesces a burst of text deltas into one transcript update per animation frame', () => {
    const { transport, store, tick, changes } = setup();
    const b = streamBuilder(SESSION);
    const before = changes();
    const frames = [b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, { turn_id: TURN })];
    for (let i = 0; i < 200; i++) frames.push(b.make('agent.text.delta', { content_index: 0, text: `w${i} ` }, { turn_id: TURN }) as never);
    for (const f of frames) transport.host(hostMessage('frames', { session_id: SESSION, frames: [f] }));
    assert.equal(store.transcript.stats.applied, 0, 'nothing applied before the frame tick');
    tick();
    assert.equal(changes() - before, 1);
    assert.equal(store.transcript.stats.applied, 201);
    assert.equal(store.lastFlush?.frames, 201);
  });

  it('issue 18: a flush that changes only the transcript leaves metaVersion alone; host messages and the frame facts kept outside the transcript grow it', () => {
    const { transport, store, tick } = setup();
    const b = streamBuilder(SESSION);
    const T = { turn_id: TURN };
    const frames = (...f: unknown[]) => transport.host(hostMessage('frames', { session_id: SESSION, frames: f as never }));
    frames(b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T), b.make('agent.text.delta', { content_index: 0, text: 'one ' }, T));
    tick();
    const meta = store.metaVersion;
    const version = store.version;
    frames(b.make('agent.text.delta', { content_index: 0, text: 'two ' }, T));
    tick();
    assert.equal(store.version, version + 1, 'the transcript changed');
    assert.equal(store.metaVersion, meta, 'nothing outside it did');
    // The peer's features (kept here, not in the transcript) come in a frame.
    frames(clientCaps(b));
    tick();
    assert.equal(store.metaVersion, meta + 1);
    transport.host(hostMessage('session.list', { sessions: [] }));
    assert.equal(store.metaVersion, meta + 2);
    store.notify('info', 'a notice');
    assert.equal(store.metaVersion, meta + 3);
  });

  it('§2.4 applies its own prompt to its own transcript, and §12.2.1-1 §12.2.1-3 §6.3.2-7 refuses frames the peer did not announce', () => {
    const { transport, store, tick } = setup();
    for (const f of plainAgentStream()) transport.host(hostMessage('frames', { session_id: SESSION, frames: [f] }));
    tick();
    assert.ok(store.sendFrame('control.prompt.request', { prompt_text: 'hello' }));
    assert.equal(store.transcript.timeline.filter((e) => e.kind === 'prompt').length, 1);
    assert.equal(store.sendFrame('control.mode.switch', { mode: 'plan' }), undefined);
    store.searchFiles('src');
    assert.equal(transport.frames('control.file.search').length, 0);
    assert.equal(transport.frames('control.mode.switch').length, 0);
  });

  it('§12.2.1-2 §14.2-4 sends no frame of a feature the client announced false: file_search_fuzzy: false keeps @-search off the wire until the client announces it, plan_mode: true lets a mode switch through', () => {
    const { transport, store, tick } = setup();
    const b = streamBuilder(SESSION);
    const caps = (features: Record<string, unknown>) => b.make('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: { adapter_type: 'sdk', ...features } });
    transport.host(hostMessage('frames', { session_id: SESSION, frames: [caps({ plan_mode: true, file_search_fuzzy: false, file_reference: false })] }));
    tick();
    store.searchFiles('src');
    store.searchFiles('src/a');
    assert.equal(transport.frames('control.file.search').length, 0, 'no search without file_search_fuzzy: true');
    assert.equal(transport.frames('control.file.search.cancel').length, 0, 'nor its cancel');
    assert.ok(store.sendFrame('control.mode.switch', { mode: 'plan' }), 'plan_mode was announced');
    // The client re-announces with fuzzy search (its index became ready): now it is sent.
    transport.host(hostMessage('frames', { session_id: SESSION, frames: [caps({ plan_mode: true, file_search_fuzzy: true })] }));
    tick();
    store.searchFiles('src');
    assert.deepEqual(transport.frames('control.file.search').map((f) => f.payload.query), ['src']);
  });

  it('§5.4.1-4 §5.4.1-6 the chat tells the user what a degraded tool cannot do and warns of error and fatal diagnostics, once per fact; warning diagnostics and routine unavailable tools stay quiet', () => {
    const { transport, store, tick } = setup();
    const b = streamBuilder(SESSION);
    const catalog = () =>
      b.make('tool.catalog.publish', {
        tools: [
          { name: 'WebFetch', description: 'fetch', status: 'degraded', status_description: 'no proxy: only public hosts' },
          { name: 'Bash', description: 'run', status: 'unavailable', status_description: 'no shell found' },
          { name: 'Grep', description: 'search' },
        ],
        diagnostics: [
          { severity: 'error', tool_name: 'Grep', code: 'VERSION_MISMATCH', message: 'ripgrep 11 is older than 13' },
          { severity: 'fatal', tool_name: 'Deploy', code: 'DEPENDENCY_MISSING', message: 'deploy key missing' },
          { severity: 'warning', code: 'SLOW_DISK', message: 'reads may be slow' },
        ],
      });
    transport.host(hostMessage('frames', { session_id: SESSION, frames: [catalog()] }));
    tick();
    transport.host(hostMessage('frames', { session_id: SESSION, frames: [catalog()] }));
    tick();
    const shown = store.notices.map((n) => `${n.level}: ${n.message}`);
    assert.deepEqual(shown, [
      'warning: WebFetch works with limits: no proxy: only public hosts',
      'warning: warning about Grep: VERSION_MISMATCH: ripgrep 11 is older than 13',
      'error: Deploy is blocked: DEPENDENCY_MISSING: deploy key missing',
    ]);
  });

  it('a confirmation stands until the next notice: "This session now uses Codex." gives way to the refusal after it; warnings and errors stay until dismissed (decision 648)', () => {
    const { transport, store } = setup();
    transport.host(hostMessage('notice', { level: 'warning', message: 'WebFetch works with limits' }));
    transport.host(hostMessage('notice', { level: 'info', message: 'This session now uses Codex.' }));
    transport.host(hostMessage('notice', { level: 'warning', message: 'Codex cannot run: `codex` not found on PATH.' }));
    assert.deepEqual(
      store.notices.map((n) => n.message),
      ['WebFetch works with limits', 'Codex cannot run: `codex` not found on PATH.'],
    );
    transport.host(hostMessage('notice', { level: 'info', message: 'New sessions use Codex.' }));
    transport.host(hostMessage('notice', { level: 'info', message: 'This session now uses Codex.' }));
    assert.deepEqual(
      store.notices.map((n) => `${n.level}: ${n.message}`),
      ['warning: WebFetch works with limits', 'warning: Codex cannot run: `codex` not found on PATH.', 'info: This session now uses Codex.'],
      'one confirmation at a time, the newest',
    );
    for (let k = 0; k < 6; k++) store.notify('error', `error ${k}`);
    assert.deepEqual(
      store.notices.map((n) => n.message),
      ['error 1', 'error 2', 'error 3', 'error 4', 'error 5'],
      'the five newest warnings and errors',
    );
  });

  it('notices belong to the chat they came in: switching to another chat clears them (an ended chat\'s refusal stood over the continued one), a re-attach to the same chat keeps them', () => {
    const { transport, store } = setup();
    transport.host(hostMessage('notice', { level: 'warning', message: 'This chat has ended, so the message was not sent.' }));
    transport.host(hostMessage('session.attached', { session_id: SESSION }));
    assert.deepEqual(store.notices.map((n) => n.message), ['This chat has ended, so the message was not sent.'], 'the same chat again');
    transport.host(hostMessage('session.attached', { session_id: 'session-continued' }));
    assert.equal(store.notices.length, 0, 'another chat');
    transport.host(hostMessage('notice', { level: 'info', message: 'This session now uses Codex.' }));
    assert.deepEqual(store.notices.map((n) => n.message), ['This session now uses Codex.'], 'what comes after the switch is this chat\'s');
  });

  it('an ended chat keeps its own agent in the Agent menu: the list no longer has it, so the agent the host named on attach (or the ended list\'s) stands, not the one new sessions use', () => {
    const { transport, store } = setup();
    transport.host(hostMessage('agent.list', { agents: [{ id: 'builtin', name: 'Built-in (offline)', available: true }, { id: 'gemini', name: 'Gemini CLI', available: true }], selected: 'builtin' }));
    transport.host(hostMessage('session.attached', { session_id: 'continued', name: 'hi', agent: 'gemini' }));
    transport.host(hostMessage('session.list', { sessions: [{ session_id: 'continued', name: 'hi', agent: 'gemini' }], active_session_id: 'continued' }));
    assert.equal(store.currentAgent(), 'gemini');
    transport.host(hostMessage('session.list', { sessions: [], active_session_id: 'continued' }));
    assert.equal(store.currentAgent(), 'gemini', 'ended: the list forgot it, the attach did not');
    transport.host(hostMessage('session.attached', { session_id: 'other-ended' }));
    transport.host(hostMessage('session.list', { sessions: [], active_session_id: 'other-ended', ended: [{ session_id: 'other-ended', name: 'x', agent: 'gemini', ended_at: '2026-12-06T00:00:00Z' }] }));
    assert.equal(store.currentAgent(), 'gemini', 'from the ended list');
    transport.host(hostMessage('session.list', { sessions: [] }));
    transport.host(hostMessage('session.attached', { session_id: 'fresh' }));
    assert.equal(store.currentAgent(), 'builtin', 'nothing known: the one new sessions use');
  });

  it('§12.2.1 takes the peer features from the peer\'s capabilities, never from its own', () => {
    const { transport, store, tick } = setup();
    assert.equal(transport.frames('session.capabilities').length, 1, 'announced on attach');
    assert.equal(store.may('control.file.search'), false);
    transport.host(hostMessage('frames', { session_id: SESSION, frames: [clientCaps(streamBuilder(SESSION))] }));
    tick();
    assert.equal(store.may('control.file.search'), true);
    store.searchFiles('au');
    store.searchFiles('aut');
    // The unanswered first search is cancelled when the query changes (§16.1.3).
    assert.deepEqual(transport.frames('control.file.search').map((f) => f.payload.query), ['au', 'aut']);
    assert.equal(transport.frames('control.file.search.cancel').length, 1);
  });

  it('§12.2.1 a later capabilities frame without client-side features (another master\'s) does not replace the client\'s', () => {
    const { transport, store, tick } = setup();
    const b = streamBuilder(SESSION);
    const master = b.make('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['control'] });
    transport.host(hostMessage('frames', { session_id: SESSION, frames: [clientCaps(b), master] }));
    tick();
    assert.equal(store.may('control.file.search'), true);
    assert.equal(store.may('control.mode.switch'), true);
  });

  it('ignores frames of another session and takes candidates only for the query it waits for', () => {
    const { transport, store, tick } = setup();
    transport.host(hostMessage('frames', { session_id: SESSION, frames: [clientCaps(streamBuilder(SESSION))] }));
    tick();
    store.searchFiles('x');
    const b = streamBuilder(SESSION);
    const stale = b.make('session.file.candidates', { query_id: 'old', candidates: [{ path: 'a', name: 'a', directory: '' }], truncated: false });
    const other = streamBuilder('other-session').make('agent.text.delta', { content_index: 0, text: 'not ours' });
    transport.host(hostMessage('frames', { session_id: SESSION, frames: [stale] }));
    transport.host(hostMessage('frames', { session_id: 'other-session', frames: [other] }));
    tick();
    assert.equal(store.candidates, undefined);
    assert.equal(store.transcript.timeline.length, 0);
  });

  it('the VS Code transport validates host messages and reports a bad one to the host log', () => {
    const posted: unknown[] = [];
    let onMessage: ((e: { data: unknown }) => void) | undefined;
    const target = { addEventListener: (_: string, l: (e: { data: unknown }) => void) => (onMessage = l) } as unknown as Window;
    const t = new VsCodeTransport({ postMessage: (m) => posted.push(m), getState: () => undefined, setState: () => undefined }, target);
    const got: HostMessage[] = [];
    t.onMessage((m) => got.push(m));
    onMessage?.({ data: { kind: 'notice', payload: { level: 'info', message: 'hi' } } });
    onMessage?.({ data: { kind: 'frames', payload: { session_id: '', frames: 'nope' } } });
    assert.deepEqual(got, [{ kind: 'notice', payload: { level: 'info', message: 'hi' } }]);
    assert.equal(posted.length, 1);
    assert.match(JSON.stringify(posted[0]), /"kind":"log".*frames/);
  });
});
