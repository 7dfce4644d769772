// The chat view's host side without VS Code: every webview message validated against the typed
// map, the view as a local hub connection (attach, replay, reattach), restored sessions, host
// commands, and editor actions.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildFrame } from '../../../src/protocol/build';
import { hostPermissionBroker } from '../../../src/host/permissions';
import { webviewMessage, type WebviewMessage } from '../../../src/protocol/webviewMessages';
import { settle, until } from '../../support/settle';
import { controllerFor, fakeActions, harness, viewRecorder, type Harness } from '../host/harness';

describe('extension: chat controller (host ⇄ webview)', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.cleanup());

  /** A controller with no editor actions wired tells the view that `message` needs VS Code (a notice), and nothing throws. */
  async function assertOnlyInsideVsCode(host: Parameters<typeof controllerFor>[0], message: WebviewMessage): Promise<void> {
    const bare = controllerFor(host, h, { actions: fakeActions() });
    const seen = viewRecorder();
    bare.setView(seen.post);
    await bare.receive(message);
    const told = () => seen.messages.some((m) => m.kind === 'notice' && /only available inside VS Code/.test(m.payload.message));
    await until(told, `"${message.kind}" without an editor tells the view`);
    assert.ok(told());
  }

  it('§13.1 on "ready" with no session: starts one and sends lists, settings, session.attached, then its frames (capabilities first)', async () => {
    const host = h.makeHost();
    const c = controllerFor(host, h);
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await until(() => view.frames().some((f) => f.type === 'agent.state.changed'), 'frames arrive');
    const kinds = view.kinds();
    assert.ok(kinds.includes('session.list') && kinds.includes('agent.list') && kinds.includes('settings'));
    assert.ok(kinds.indexOf('session.attached') < kinds.indexOf('frames'));
    assert.equal(view.frames()[0].type, 'session.capabilities');
    assert.equal(c.activeSessionId, host.list()[0].session_id);
  });

  it('two quick "ready"s (a reloading view) start one session, not two', async () => {
    const host = h.makeHost();
    const c = controllerFor(host, h);
    c.setView(viewRecorder().post);
    await Promise.all([c.receive(webviewMessage('ready', { version: 1 })), c.receive(webviewMessage('ready', { version: 1 }))]);
    assert.equal(host.list().length, 1);
  });

  it('rejects and logs invalid messages from the webview; nothing is sent and nothing throws', async () => {
    const host = h.makeHost();
    const c = controllerFor(host, h);
    const view = viewRecorder();
    c.setView(view.post);
    for (const bad of [null, 'ready', { kind: 'nope', payload: {} }, { kind: 'file.open', payload: { path: '' } }, { kind: 'ready', payload: { version: 2 } }]) {
      await c.receive(bad);
    }
    assert.deepEqual(view.messages, []);
    assert.equal(h.logs.filter((l) => l.level === 'warn' && l.message.startsWith('invalid message from the chat view')).length, 5);
    assert.deepEqual(host.list(), []);
  });

  it('§13.7 a reloaded view gets the whole transcript again — the prompt and its turn, each frame once', async () => {
    const host = h.makeHost();
    const c = controllerFor(host, h);
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await until(() => c.activeSessionId !== undefined && view.frames().length > 3, 'session up');
    const id = c.activeSessionId!;
    const p = buildFrame('control.prompt.request', { prompt_text: 'help' }, { session_id: id });
    await c.receive(webviewMessage('frame', { frame: p as unknown as Record<string, unknown> }));
    await until(() => view.frames().some((f) => f.type === 'session.usage'), 'turn done');
    // The webview reloads: a new view, a new "ready".
    const view2 = viewRecorder();
    c.setView(view2.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await settle();
    const ids = view2.frames().map((f) => f.message_id as string);
    assert.equal(new Set(ids).size, ids.length, 'no frame twice');
    assert.ok(ids.includes(p.message_id), 'its own prompt is in the replay');
    assert.ok(view2.frames().some((f) => f.type === 'session.turn.end'));
    assert.ok(view2.frames().some((f) => f.type === 'session.history'), 'reattached with last_message_id (§13.7)');
  });

  it('§7.8 a restored session replays as: attached (not live), old frames, disconnected (app_restart), then live frames', async () => {
    const host = h.makeHost();
    const id = await host.create();
    await host.dispose();
    const host2 = h.makeHost();
    await host2.restoreAll();
    const c = controllerFor(host2, h);
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await settle();
    const order = view.messages.filter((m) => m.kind === 'session.attached' || m.kind === 'session.disconnected' || m.kind === 'frames').map((m) => m.kind);
    assert.deepEqual(order.slice(0, 4), ['session.attached', 'frames', 'session.disconnected', 'frames']);
    const attached = view.messages.find((m) => m.kind === 'session.attached');
    assert.deepEqual(attached?.payload, { session_id: id, name: 'Built-in (offline)', agent: 'builtin', live: false });
    const disconnected = view.messages.find((m) => m.kind === 'session.disconnected');
    assert.deepEqual(disconnected?.payload, { session_id: id, reason: 'app_restart' });
  });

  it('host commands typed in the chat: "/rename" renames the session (§7.6), "/help" answers with a notice', async () => {
    const host = h.makeHost();
    const c = controllerFor(host, h);
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await until(() => c.activeSessionId !== undefined, 'session');
    const id = c.activeSessionId!;
    const send = (text: string) => c.receive(webviewMessage('frame', { frame: buildFrame('control.prompt.request', { prompt_text: text }, { session_id: id }) as unknown as Record<string, unknown> }));
    await send('/rename Refactoring');
    await until(() => host.list()[0].name === 'Refactoring', 'renamed');
    assert.ok(view.frames().some((f) => f.type === 'session.renamed'));
    await send('/help');
    // The host admits prompts asynchronously; its reply reaches the view as a notice.
    await until(() => view.messages.some((m) => m.kind === 'notice' && m.payload.message.includes('/mode')), 'help lists the commands');
    assert.ok(!view.frames().some((f) => f.type === 'x-rawp.notice'), 'the notice frame itself never reaches the view');
  });

  it('§6.1.1 §2.2 a refused prompt\'s notice reaches the view with its code (COMMAND_FAILED, ATTACHMENT_*), so the view can say it in plain words', async () => {
    const host = h.makeHost();
    const c = controllerFor(host, h);
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await until(() => c.activeSessionId !== undefined, 'session');
    const id = c.activeSessionId!;
    const send = (payload: { prompt_text: string; context_files?: Array<{ file_url: string; file_name: string; mime_type: string }> }) =>
      c.receive(webviewMessage('frame', { frame: buildFrame('control.prompt.request', payload, { session_id: id }) as unknown as Record<string, unknown> }));
    const refusals = () => view.messages.flatMap((m) => (m.kind === 'notice' && m.payload.error_code ? [m.payload] : []));
    await send({ prompt_text: '/rename' });
    await until(() => refusals().length === 1, 'the /rename refusal');
    assert.equal(refusals()[0].error_code, 'COMMAND_FAILED');
    assert.equal(refusals()[0].level, 'error');
    assert.match(refusals()[0].message, /Usage: \/rename/);
    await send({ prompt_text: 'read this', context_files: [{ file_url: '/v1/files/0b9a6a3e-8f4c-4d6e-9d3a-4b1f2c3d4e5f', file_name: 'gone.txt', mime_type: 'text/plain' }] });
    await until(() => refusals().length === 2, 'the attachment refusal');
    assert.match(refusals()[1].error_code ?? '', /^ATTACHMENT_/);
    assert.match(refusals()[1].message, /gone\.txt/);
    assert.ok(!host.log(id)!.all().some((f) => f.type === 'control.prompt.request' && f.payload.prompt_text === 'read this'), 'the refused prompt never reached the agent');
  });

  it('slash-commands §5 "/clear" typed in the view opens a new conversation in that view; the old session keeps running for its masters', async () => {
    const host = h.makeHost();
    const c = controllerFor(host, h);
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await until(() => c.activeSessionId !== undefined, 'session');
    const first = c.activeSessionId!;
    await c.receive(webviewMessage('frame', { frame: buildFrame('control.prompt.request', { prompt_text: '/clear' }, { session_id: first }) as unknown as Record<string, unknown> }));
    await until(() => c.activeSessionId !== undefined && c.activeSessionId !== first, 'a new session is active');
    assert.ok(host.has(first), 'the first session is not ended by /clear');
    assert.equal(host.list().length, 2);
    assert.ok(!host.log(first)!.all().some((f) => f.type === 'control.prompt.request'), '/clear is consumed, never sent as a prompt');
  });

  it('editor requests go to the host actions: open a file at a line, open the diff of an edit in the active session', async () => {
    const host = h.makeHost();
    const actions = fakeActions();
    const c = controllerFor(host, h, { actions });
    c.setView(viewRecorder().post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await until(() => c.activeSessionId !== undefined, 'session');
    await c.receive(webviewMessage('file.open', { path: 'src/greeting.ts', line: 3 }));
    await c.receive(webviewMessage('diff.open', { invocation_id: 'inv-9', file_path: 'src/greeting.ts' }));
    assert.deepEqual(actions.calls, ['openFile src/greeting.ts:3', `openDiff ${c.activeSessionId} inv-9 src/greeting.ts`]);
  });

  it('§3.1.1 checkpoint.review goes to the editor (vscode.changes, decision 400); without an editor the view is told, nothing throws', async () => {
    const host = h.makeHost();
    const actions = { ...fakeActions(), reviewCheckpoint: async (s: string, id: string, p?: string) => void actions.calls.push(`review ${s} ${id} ${p ?? ''}`) };
    const c = controllerFor(host, h, { actions });
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await until(() => c.activeSessionId !== undefined, 'session');
    await c.receive(webviewMessage('checkpoint.review', { session_id: c.activeSessionId!, checkpoint_id: 'cp-1' }));
    await c.receive(webviewMessage('checkpoint.review', { session_id: c.activeSessionId!, checkpoint_id: 'cp-1', path: 'a.txt' }));
    assert.deepEqual(actions.calls, [`review ${c.activeSessionId} cp-1 `, `review ${c.activeSessionId} cp-1 a.txt`]);
    await assertOnlyInsideVsCode(host, webviewMessage('checkpoint.review', { session_id: 's', checkpoint_id: 'cp-1' }));
  });

  it('§4.4.1 the login card\'s buttons (agent.login, decision 381) go to the editor; without an editor the view is told, nothing throws', async () => {
    const host = h.makeHost();
    const actions = { ...fakeActions(), login: async (agent: string, via: 'terminal' | 'api_key') => void actions.calls.push(`login ${agent} ${via}`) };
    const c = controllerFor(host, h, { actions });
    c.setView(viewRecorder().post);
    await c.receive(webviewMessage('agent.login', { agent_id: 'claude-code', via: 'terminal' }));
    await c.receive(webviewMessage('agent.login', { agent_id: 'claude-code', via: 'api_key' }));
    await c.receive({ kind: 'agent.login', payload: { agent_id: 'claude-code', via: 'rm -rf /' } });
    assert.deepEqual(actions.calls, ['login claude-code terminal', 'login claude-code api_key'], 'an unknown "via" is rejected by the message map');
    await assertOnlyInsideVsCode(host, webviewMessage('agent.login', { agent_id: 'claude-code', via: 'terminal' }));
  });

  it('the view lists the host\'s permission rules, whichever agent made them, and can revoke one (settings message, permissionRule.revoke)', async () => {
    const host = h.makeHost();
    const store = hostPermissionBroker({ rulesFile: join(h.dir, 'view-rules.json') }).rules;
    const rule = store.add({ tool_name: 'Bash', command_prefix: 'npm test' }, { decision: 'allow', lifetime: 'always', session_id: 's1', created_by: 'builtin' });
    store.add({ tool_name: 'Edit', path_glob: 'src/**' }, { decision: 'allow', lifetime: 'session', session_id: 's2', created_by: 'claude-code' });
    const actions = { ...fakeActions(), permissionRules: () => store.list().map((r) => ({ ...r })), revokeRule: (id: string) => store.revoke(id) };
    const c = controllerFor(host, h, { actions });
    const view = viewRecorder();
    c.setView(view.post);
    c.postSettings();
    const first = view.messages.filter((m) => m.kind === 'settings').pop();
    assert.deepEqual(first?.kind === 'settings' && first.payload.permission_rules.map((r) => [r.tool_name, r.command_prefix ?? r.path_glob, r.lifetime, r.created_by]), [
      ['Bash', 'npm test', 'always', 'builtin'],
      ['Edit', 'src/**', 'session', 'claude-code'],
    ]);
    await c.receive(webviewMessage('permissionRule.revoke', { rule_id: rule.id }));
    assert.deepEqual(store.list().map((r) => r.tool_name), ['Edit']);
    const after = view.messages.filter((m) => m.kind === 'settings').pop();
    assert.deepEqual(after?.kind === 'settings' && after.payload.permission_rules.map((r) => r.tool_name), ['Edit']);
  });

  it('switching sessions moves the view\'s connection; an unknown session gets a notice', async () => {
    const host = h.makeHost();
    const c = controllerFor(host, h);
    const view = viewRecorder();
    c.setView(view.post);
    const a = await c.newSession();
    const b = await c.newSession();
    assert.equal(c.activeSessionId, b);
    c.switchTo(a!);
    assert.equal(c.activeSessionId, a);
    assert.deepEqual(host.hub.connections(b!).filter((x) => x.id.startsWith('webview:')), []);
    assert.equal(host.hub.connections(a!).filter((x) => x.id.startsWith('webview:')).length, 1);
    await c.receive(webviewMessage('session.switch', { session_id: 'no-such-session' }));
    assert.ok(view.messages.some((m) => m.kind === 'notice' && m.payload.level === 'warning'));
  });

  it('in Restricted Mode "ready" says why and starts nothing', async () => {
    const host = h.makeHost({ blocked: 'Restricted Mode: no agent runs' });
    const c = controllerFor(host, h, { blocked: 'Restricted Mode: no agent runs' });
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    assert.ok(view.messages.some((m) => m.kind === 'notice' && m.payload.message === 'Restricted Mode: no agent runs'));
    assert.deepEqual(host.list(), []);
  });

  it('§7.1.1 a session longer than its history budget: the view is told how much of the start is gone (session.history, truncated, lost_frame_count) before the kept frames', async () => {
    const big = 'x'.repeat(3000);
    const host = h.makeHost({ defaultAgent: 'scripted', history: { policy: 'RING', maxBytes: 16 * 1024 }, scripted: { turns: Array.from({ length: 4 }, () => ({ steps: [{ kind: 'text' as const, chunks: [big, big, big, big] }] })) } });
    const c = controllerFor(host, h);
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    const session_id = c.activeSessionId!;
    for (let i = 0; i < 4; i++) {
      const before = view.frames().filter((f) => f.type === 'session.turn.end').length;
      await c.receive(webviewMessage('frame', { frame: buildFrame('control.prompt.request', { prompt_text: `turn ${i}` }, { session_id }) }));
      await until(() => view.frames().filter((f) => f.type === 'session.turn.end').length > before, 'turn ends');
    }
    const fresh = viewRecorder();
    c.setView(fresh.post);
    c.switchTo(session_id);
    const frames = fresh.frames();
    assert.equal(frames[0].type, 'session.history');
    const status = (frames[0].payload as { buffer_status: { truncated: boolean; lost_frame_count: number } }).buffer_status;
    assert.equal(status.truncated, true);
    assert.ok(status.lost_frame_count > 0, `lost ${status.lost_frame_count}`);
    assert.ok(frames.length - 1 < view.frames().length, 'only the kept tail is replayed');
  });
});
