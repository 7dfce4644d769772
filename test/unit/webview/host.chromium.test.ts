// The webview's host-only messages (session list, agent pick, rules, notices) over the fake
// transport, and the same bundle as a browser master over a real WebSocket: subprotocol auth with
// no token in any URL, finalization on a drop (§7.8.1), reattach with ?last_message_id= and the
// history that undoes the finalization (§7.8.3, §13.7).
import { strict as assert } from 'node:assert';
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { feed, rendered, sentMessages, startHarness, waitForMessages, type Harness } from '../../browser/harness';
import { SESSION, TURN, clientCaps, outputsStream } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

describe('webview in Chromium: host messages and the WebSocket transport', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('shows the session list, agents and saved permission rules from the host, and sends its choices back', async () => {
    const page = await h.open();
    await feed(page, SESSION, outputsStream(), true);
    await page.evaluate((s) => {
      const fake = (window as unknown as { rawpFake: { host(m: unknown): void } }).rawpFake;
      fake.host({ kind: 'session.list', payload: { active_session_id: s, sessions: [{ session_id: s, name: 'Fix auth', agent: 'builtin' }, { session_id: 'other', name: 'Refactor', shared: true }] } });
      fake.host({ kind: 'agent.list', payload: { selected: 'builtin', agents: [{ id: 'builtin', name: 'Built-in', available: true }, { id: 'claude', name: 'Claude Code', available: false, unavailable_reason: 'not installed' }] } });
      fake.host({ kind: 'settings', payload: { permission_rules: [{ id: 'r1', tool_name: 'Bash', command_prefix: 'npm test', created_at: '2026-03-16T10:00:00.000Z' }, { id: 'r2', tool_name: 'Write', path_glob: 'src/**', lifetime: 'always', workspace: '/home/me/project', created_at: '2026-03-16T10:00:00.000Z' }] } });
      fake.host({ kind: 'notice', payload: { level: 'warning', message: 'Restricted Mode: agents do not run in an untrusted workspace.' } });
    }, SESSION);
    await rendered(page);
    assert.deepEqual(await page.locator('#session-select option').allInnerTexts(), ['Fix auth', 'Refactor · shared']);
    assert.equal(await page.locator('#agent-select option[value=claude]').isDisabled(), true);
    assert.match(await page.locator('.banner.warning').innerText(), /Restricted Mode/);
    await page.locator('#session-select').selectOption('other');
    await page.locator('#agent-select').selectOption('builtin');
    await page.locator('button[aria-label="New session"]').click();
    await page.locator('button[aria-label="Permission rules"]').click();
    assert.match(await page.locator('.rules-panel').innerText(), /Bash\s+“npm test”, exactly \(a command that only reads: also with more file names\)\s+\(always, every workspace\)/);
    // A rule saved in one workspace says which (decision 708).
    assert.match(await page.locator('.rules-panel').innerText(), /Write\s+on src\/\*\*\s+\(always, in project\)/);
    await page.locator('.rules-panel button', { hasText: 'Revoke' }).first().click();
    await page.locator('button[aria-label="Copy attach URL"]').click();
    const msgs = await waitForMessages(page, ['session.switch', 'agent.pick', 'session.new', 'permissionRule.revoke', 'attach.copyUrl'], 5);
    assert.deepEqual(msgs, (await sentMessages(page)).filter((m) => m.kind !== 'frame' && m.kind !== 'ready'), 'nothing else was sent');
    assert.deepEqual(msgs, [
      { kind: 'session.switch', payload: { session_id: 'other' } },
      { kind: 'agent.pick', payload: { agent_id: 'builtin' } },
      { kind: 'session.new', payload: { agent: 'builtin' } },
      { kind: 'permissionRule.revoke', payload: { rule_id: 'r1' } },
      { kind: 'attach.copyUrl', payload: { session_id: SESSION } },
    ]);
    assert.equal((await sentMessages(page))[0].kind, 'ready');
  });

  it('§5.4.1-4 §5.4.1-6 shows a degraded tool\'s limits and an error diagnostic as warning banners, a fatal one as an error banner, and nothing for a warning diagnostic', async () => {
    const page = await h.open();
    const b = streamBuilder(SESSION);
    const catalog = b.make('tool.catalog.publish', {
      tools: [{ name: 'WebFetch', description: 'fetch', status: 'degraded', status_description: 'no proxy: only public hosts' }, { name: 'Grep', description: 'search' }],
      diagnostics: [
        { severity: 'error', tool_name: 'Grep', code: 'VERSION_MISMATCH', message: 'ripgrep 11 is older than 13' },
        { severity: 'fatal', tool_name: 'Deploy', code: 'DEPENDENCY_MISSING', message: 'deploy key missing' },
        { severity: 'warning', code: 'SLOW_DISK', message: 'reads may be slow' },
      ],
    });
    await feed(page, SESSION, [clientCaps(b), catalog], true);
    await rendered(page);
    const warnings = await page.locator('.banner.warning').allInnerTexts();
    assert.equal(warnings.length, 2);
    assert.match(warnings[0], /WebFetch works with limits: no proxy: only public hosts/);
    assert.match(warnings[1], /warning about Grep: VERSION_MISMATCH/);
    assert.match(await page.locator('.banner.error').innerText(), /Deploy is blocked: DEPENDENCY_MISSING/);
    assert.doesNotMatch(await page.locator('.banners').innerText(), /SLOW_DISK/);
  });

  it('§7.1 / §13.7 as a browser master: bearer subprotocol (never in the URL), finalize on a drop, reattach with last_message_id and replay the history', async () => {
    const connections: Array<{ url: string; protocols: string; socket: WebSocket }> = [];
    const received: Array<Record<string, unknown>> = [];
    const wss = new WebSocketServer({ server: h.server, handleProtocols: (protocols) => (protocols.has('rawp-dps-1.0') ? 'rawp-dps-1.0' : false) });
    h.routes.push((req, res) => {
      if (req.url !== '/v1/sessions') return false;
      assert.equal(req.headers.authorization, 'Bearer s3cret-token');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ sessions: [{ session_id: SESSION, name: 'Shared one', state: 'idle' }] }));
      return true;
    });
    const b = streamBuilder(SESSION);
    const T = { turn_id: TURN };
    const first = [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T), b.make('agent.text.delta', { content_index: 0, text: 'Before the drop.' }, T), b.make('tool.invoke.request', { invocation_id: 'ws-tool', tool_name: 'Bash', input: { command: 'make' } }, T)];
    const missed = [b.make('tool.invoke.result', { invocation_id: 'ws-tool', tool_name: 'Bash', status: 'success', output: 'made it\n', output_type: 'text' }, T), b.make('agent.text.done', { content_index: 0, full_text: 'Before the drop.' }, T), b.make('session.turn.end', { turn_id: TURN, stop_reason: 'end_turn' }, T)];
    wss.on('connection', (socket: WebSocket, req: IncomingMessage) => {
      connections.push({ url: req.url ?? '', protocols: String(req.headers['sec-websocket-protocol']), socket });
      socket.on('message', (data) => received.push(JSON.parse(String(data)) as Record<string, unknown>));
      if (connections.length === 1) for (const f of first) socket.send(JSON.stringify(f));
      else
        socket.send(
          JSON.stringify(
            b.make('session.history', {
              frames: missed as unknown as Record<string, unknown>[],
              buffer_status: { policy_applied: 'RING', truncated: false },
              last_sync_timestamp: new Date().toISOString(),
              last_message_id: missed[missed.length - 1].message_id,
            }),
          ),
        );
    });
    try {
      const page = await h.open({}, `${h.origin}/browser.html#session=${SESSION}&token=s3cret-token`);
      await page.locator('.text-block', { hasText: 'Before the drop.' }).waitFor();
      assert.equal(connections[0].url, `/v1/sessions/${SESSION}/stream`);
      assert.equal(connections[0].protocols, 'rawp-dps-1.0, bearer.s3cret-token');
      assert.equal(received[0].type, 'session.capabilities');
      assert.deepEqual(await page.locator('#session-select option').allInnerTexts(), ['Shared one · shared']);
      connections[0].socket.terminate();
      await page.locator('.tool-card .badge.synthetic').waitFor();
      assert.match(await page.locator('.tool-card').innerText(), /Cancelled/);
      await page.locator('.tool-card', { hasText: 'made it' }).waitFor({ timeout: 10_000 });
      assert.equal(connections.length, 2);
      assert.equal(connections[1].url, `/v1/sessions/${SESSION}/stream?last_message_id=${encodeURIComponent(first[first.length - 1].message_id)}`);
      assert.ok(connections.every((c) => !c.url.includes('s3cret')), 'the token is never in a URL');
      await rendered(page);
      assert.equal(await page.locator('.badge.synthetic').count(), 0, 'the history undid the finalization');
      assert.match(await page.locator('.turn-end').innerText(), /Done/);
    } finally {
      for (const c of connections) c.socket.terminate();
      wss.close();
    }
  });
});
