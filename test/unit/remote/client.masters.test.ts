// Clauses our own masters owe as the side that composes prompt_text and receives the client's
// frames: `rawp attach` (a real child process against a real `rawp serve`) and the browser
// master's transport and the reconnecting master client (against a real WebSocket server on
// loopback that sends what a broken peer would).
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import WebSocket, { WebSocketServer } from 'ws';
import { PassThrough } from 'node:stream';
import { MasterClient } from '../../../src/cli/attach/masterClient';
import { TerminalMaster } from '../../../src/cli/attach/terminalMaster';
import { buildFrame } from '../../../src/protocol/build';
import { FRAME_TYPES, type FrameOf } from '../../../src/protocol/frameTypes';
import { WebSocketTransport, type WebSocketLike } from '../../../webview-ui/src/transport/websocket';
import { ROOT, serve, waitFor, type Served } from '../../security/serveChild';

/** A WebSocket server that sends a `v: 2` frame to whoever attaches and keeps what they send. */
async function versionTwoPeer(): Promise<{ port: number; received: Record<string, unknown>[]; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'rawp-dps-1.0' });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const received: Record<string, unknown>[] = [];
  wss.on('connection', (ws) => {
    ws.on('message', (d) => received.push(JSON.parse(String(d)) as Record<string, unknown>));
    const frame = { ...buildFrame('agent.text.delta', { content_index: 0, text: 'from the future' }, { session_id: SESSION }), v: 2, message_id: V2_ID };
    ws.send(JSON.stringify(frame));
  });
  return {
    port: (wss.address() as { port: number }).port,
    received,
    close: () => new Promise((r) => wss.close(() => r())),
  };
}

const SESSION = '6f1c7a4e-2b1d-4c3e-9a8b-0d1e2f3a4b5c';

/** A WebSocket server that sends `frames` to whoever attaches and keeps what they send. */
async function scriptedPeer(frames: readonly object[]): Promise<{ port: number; received: Record<string, unknown>[]; protocols: string[]; sockets: WebSocket[]; close: () => Promise<void> }> {
  const sockets: WebSocket[] = [];
  const protocols: string[] = [];
  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    handleProtocols: (set) => {
      protocols.push(...set);
      return 'rawp-dps-1.0';
    },
  });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const received: Record<string, unknown>[] = [];
  wss.on('connection', (ws) => {
    sockets.push(ws);
    ws.on('message', (d) => received.push(JSON.parse(String(d)) as Record<string, unknown>));
    for (const f of frames) ws.send(JSON.stringify(f));
  });
  return { port: (wss.address() as { port: number }).port, received, protocols, sockets, close: () => new Promise((r) => wss.close(() => r())) };
}
const V2_ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

function versionAnswer(received: Record<string, unknown>[]): Record<string, unknown> | undefined {
  return received.find((f) => f.type === 'session.error' && (f.payload as { error_code?: string }).error_code === 'UNSUPPORTED_VERSION');
}

describe('conformance: our masters (rawp attach, the browser master, the master client)', function () {
  this.timeout(120_000);

  it('§1.3-1 §14.1-1 §3.2-1 §13.1-1 §13.1-2 §2.1-1 §2.1-3 §3.1.1-1 the master client speaks rawp-dps-1.0 only, opens with its session.capabilities, and every frame it sends has the full envelope, millisecond timestamps and a spec type', async () => {
    const peer = await scriptedPeer([]);
    const client = new MasterClient({ url: `ws://127.0.0.1:${peer.port}/v1/sessions/${SESSION}/stream`, token: 't', session_id: SESSION, reconnect: false, handlers: {} });
    try {
      client.start();
      await waitFor(() => peer.received.length > 0, 'the opening');
      assert.equal(peer.protocols[0], 'rawp-dps-1.0', 'the WebSocket subprotocol');
      const caps = peer.received[0];
      assert.equal(caps.type, 'session.capabilities', 'capabilities before anything else');
      assert.equal((caps.payload as { protocol_version: string }).protocol_version, 'rawp-dps-1.0');
      await waitFor(() => client.send('control.prompt.request', { prompt_text: 'x' }) !== undefined, 'a send');
      await waitFor(() => peer.received.length >= 2, 'the prompt');
      for (const f of peer.received) {
        assert.equal(f.v, 1);
        for (const k of ['type', 'message_id', 'timestamp', 'session_id']) assert.equal(typeof f[k], 'string');
        assert.ok(typeof f.payload === 'object');
        assert.match(String(f.timestamp), /\.\d{3}Z$/, 'ISO 8601 with milliseconds');
        assert.ok((f.type as string) in FRAME_TYPES, `${String(f.type)} is a spec type`);
      }
    } finally {
      client.stop();
      await peer.close();
    }
  });

  it('§2.2-1 §14.2-3 §2.2-2 §2.2-3 §14.2-1 §14.2-2 the master client ignores unknown payload keys and unknown frame types, raises no error and keeps the connection', async () => {
    const extra = { ...buildFrame('agent.text.delta', { content_index: 0, text: 'hi' }, { session_id: SESSION }), payload: { content_index: 0, text: 'hi', future_key: 1 } };
    const unknown = { ...buildFrame('agent.text.delta', { content_index: 0, text: 'x' }, { session_id: SESSION }), type: 'agent.telepathy.delta' };
    const peer = await scriptedPeer([unknown, extra]);
    const frames: string[] = [];
    const invalid: string[] = [];
    const client = new MasterClient({ url: `ws://127.0.0.1:${peer.port}/v1/sessions/${SESSION}/stream`, token: 't', session_id: SESSION, reconnect: false, handlers: { frame: (f) => frames.push(f.type), invalid: (m) => invalid.push(m) } });
    try {
      client.start();
      await waitFor(() => frames.includes('agent.text.delta'), 'the frame with an unknown key');
      assert.ok(!frames.includes('agent.telepathy.delta'), 'the unknown type is not handed on');
      assert.equal(invalid.length, 1, 'it is noted (logged)');
      assert.ok(!peer.received.some((f) => f.type === 'session.error'), 'no error raised');
      assert.ok(client.send('control.prompt.request', { prompt_text: 'still here' }), 'the connection stays');
    } finally {
      client.stop();
      await peer.close();
    }
  });

  it('§13.1-5 rawp attach sends nothing typed before it has seen agent.state.changed idle: early lines wait for it', async () => {
    const opening = [
      buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: {} }, { session_id: SESSION }),
      buildFrame('tool.catalog.publish', { tools: [] }, { session_id: SESSION }),
      buildFrame('agent.commands.publish', { commands: [] }, { session_id: SESSION }),
    ];
    const peer = await scriptedPeer(opening);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    stdout.resume();
    const master = new TerminalMaster({ url: `ws://127.0.0.1:${peer.port}/v1/sessions/${SESSION}/stream`, token: 't', session_id: SESSION, stdin, stdout });
    try {
      master.start();
      stdin.write('hello agent\n');
      await waitFor(() => peer.received.length >= 1 && peer.sockets.length === 1, 'the attach');
      await new Promise((r) => setTimeout(r, 200));
      assert.ok(!peer.received.some((f) => f.type === 'control.prompt.request'), 'no prompt before idle');
      peer.sockets[0].send(JSON.stringify(buildFrame('agent.state.changed', { previous_state: 'idle', current_state: 'idle', reason: 'attached' }, { session_id: SESSION })));
      await waitFor(() => peer.received.some((f) => f.type === 'control.prompt.request'), 'the queued prompt after idle');
    } finally {
      master.stop();
      await peer.close();
    }
  });

  it('§2.1-2 §2.2-4 the master client (rawp attach) ignores a v: 2 frame and answers it with session.error', async () => {
    const peer = await versionTwoPeer();
    const frames: string[] = [];
    const client = new MasterClient({ url: `ws://127.0.0.1:${peer.port}/v1/sessions/${SESSION}/stream`, token: 't', session_id: SESSION, reconnect: false, handlers: { frame: (f) => frames.push(f.type) } });
    try {
      client.start();
      await waitFor(() => versionAnswer(peer.received) !== undefined, 'the session.error');
      const answer = versionAnswer(peer.received)!;
      assert.equal(answer.parent_id, V2_ID);
      assert.equal((answer.payload as { fatal: boolean }).fatal, false);
      assert.deepEqual(frames, [], 'the frame itself is ignored');
    } finally {
      client.stop();
      await peer.close();
    }
  });

  it('§2.1-2 §2.2-4 the browser master ignores a v: 2 frame (the view never sees it) and answers it with session.error', async () => {
    const peer = await versionTwoPeer();
    const shown: unknown[] = [];
    const transport = new WebSocketTransport({
      baseUrl: `http://127.0.0.1:${peer.port}`,
      token: 't',
      sessionId: SESSION,
      createSocket: (url, protocols) => new WebSocket(url, protocols) as unknown as WebSocketLike,
      fetchFn: (async () => new Response('[]', { status: 200 })) as typeof fetch,
    });
    transport.onMessage((m) => {
      if (m.kind === 'frames') shown.push(...m.payload.frames);
    });
    try {
      transport.send({ kind: 'ready', payload: {} } as never);
      await waitFor(() => versionAnswer(peer.received) !== undefined, 'the session.error');
      assert.equal(versionAnswer(peer.received)!.parent_id, V2_ID);
      assert.deepEqual(shown, []);
    } finally {
      transport.close();
      await peer.close();
    }
  });

  it('§16.2.2-1 rawp attach escapes what the user types: a typed <@file:…> stays text and a backslash survives, as the agent and every master see it', async () => {
    let s: Served | undefined;
    const attach = { proc: undefined as ReturnType<typeof spawn> | undefined, out: '' };
    try {
      s = await serve({ 'a.txt': 'a\n' });
      const watcher = await s.master();
      attach.proc = spawn(process.execPath, [join(ROOT, 'dist', 'cli.js'), 'attach', s.url, '--token', s.token], { stdio: ['pipe', 'pipe', 'pipe'] });
      attach.proc.stdout?.on('data', (d: Buffer) => (attach.out += d.toString()));
      await waitFor(() => watcher.frames.length > 0 && attach.out.length > 0, 'attach to show the session', 60_000);
      const typed = 'echo <@file:ref_0|a.txt> and C:\\dir';
      // Give the attach its opening before typing (it queues early lines anyway).
      attach.proc.stdin?.write(`${typed}\n`);
      await waitFor(() => watcher.frames.some((f) => f.type === 'control.prompt.request'), 'the relayed prompt', 60_000);
      const prompt = watcher.frames.find((f) => f.type === 'control.prompt.request') as FrameOf<'control.prompt.request'>;
      assert.equal(prompt.payload.prompt_text, 'echo \\<@file:ref_0|a.txt> and C:\\\\dir');
      assert.equal(prompt.payload.file_references, undefined);
      await waitFor(() => attach.out.includes(`› ${typed}`), 'the prompt shown as typed', 60_000);
    } finally {
      attach.proc?.kill('SIGKILL');
      s?.close();
    }
  });
});

/** A catalog with one tool of each kind a master must treat differently (§5.4.1). */
function catalogOpening(turn: string) {
  const s = { session_id: SESSION };
  const catalog = buildFrame('tool.catalog.publish', {
    tools: [
      { name: 'Read', description: 'read a file', category: 'filesystem' },
      { name: 'Deploy', description: 'deploy the site', category: 'custom' },
      { name: 'Bash', description: 'run a command', category: 'shell', status: 'unavailable', status_description: 'no shell found' },
      { name: 'WebFetch', description: 'fetch a page', category: 'web', status: 'degraded', status_description: 'no proxy: only public hosts' },
      { name: 'Grep', description: 'search', category: 'search' },
    ],
    diagnostics: [
      { severity: 'fatal', tool_name: 'Deploy', code: 'DEPENDENCY_MISSING', message: 'deploy key missing' },
      { severity: 'error', tool_name: 'Grep', code: 'VERSION_MISMATCH', message: 'ripgrep 11 is older than 13' },
      { severity: 'warning', tool_name: 'Read', code: 'SLOW_DISK', message: 'reads may be slow' },
    ],
  }, s);
  const request = (tool_name: string) => buildFrame('tool.invoke.request', { invocation_id: randomUUID(), tool_name, input: {} }, { ...s, turn_id: turn });
  return {
    opening: [
      buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: {} }, s),
      catalog,
      buildFrame('agent.commands.publish', { commands: [] }, s),
      buildFrame('agent.state.changed', { previous_state: 'idle', current_state: 'idle', reason: 'attached' }, s),
    ],
    requests: { read: request('Read'), deploy: request('Deploy'), bash: request('Bash'), web: request('WebFetch'), grep: request('Grep') },
  };
}

describe('conformance: our masters and the tool catalog (rawp attach, the master client)', function () {
  this.timeout(60_000);
  const TURN_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

  it('§5.4.1-3 the master client refuses a call of a tool with a fatal diagnostic (and of an unavailable one) with a non-fatal session.error naming the request; calls of usable tools get none', async () => {
    const { opening, requests } = catalogOpening(TURN_ID);
    const peer = await scriptedPeer([...opening, requests.read, requests.deploy, requests.web, requests.grep, requests.bash]);
    const frames: string[] = [];
    const client = new MasterClient({ url: `ws://127.0.0.1:${peer.port}/v1/sessions/${SESSION}/stream`, token: 't', session_id: SESSION, reconnect: false, handlers: { frame: (f) => frames.push(f.type) } });
    try {
      client.start();
      await waitFor(() => frames.filter((t) => t === 'tool.invoke.request').length === 5, 'the five requests');
      await waitFor(() => peer.received.filter((f) => f.type === 'session.error').length >= 2, 'the refusals');
      // Let anything else the client would send arrive before counting.
      await new Promise((r) => setTimeout(r, 200));
      const errors = peer.received.filter((f) => f.type === 'session.error');
      const byParent = new Map(errors.map((e) => [e.parent_id, e.payload as { error_code: string; fatal: boolean; message: string }]));
      assert.equal(errors.length, 2, 'exactly the blocked calls are refused');
      assert.equal(byParent.get(requests.deploy.message_id)?.error_code, 'TOOL_FATAL_DIAGNOSTIC');
      assert.match(byParent.get(requests.deploy.message_id)!.message, /DEPENDENCY_MISSING/);
      assert.equal(byParent.get(requests.deploy.message_id)?.fatal, false, 'the session goes on');
      assert.equal(byParent.get(requests.bash.message_id)?.error_code, 'TOOL_UNAVAILABLE');
      for (const e of errors) assert.equal(e.turn_id, TURN_ID);
    } finally {
      client.stop();
      await peer.close();
    }
  });

  it('§5.4.1-4 §5.4.1-6 §5.4.1-3 rawp attach tells the user what a degraded tool cannot do, warns of an error diagnostic, shows a blocked tool and why a call was refused, and stays quiet about warning diagnostics', async () => {
    const { opening, requests } = catalogOpening(TURN_ID);
    const republished = buildFrame('tool.catalog.publish', (opening[1] as FrameOf<'tool.catalog.publish'>).payload, { session_id: SESSION });
    const peer = await scriptedPeer([...opening, republished, requests.deploy]);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    const master = new TerminalMaster({ url: `ws://127.0.0.1:${peer.port}/v1/sessions/${SESSION}/stream`, token: 't', session_id: SESSION, stdin, stdout });
    try {
      master.start();
      await waitFor(() => out.includes('refused'), 'the refusal notice');
      assert.match(out, /⚠ WebFetch works with limits: no proxy: only public hosts/, '§5.4.1-4 the degraded tool and its limits');
      assert.match(out, /⚠ warning about Grep: VERSION_MISMATCH: ripgrep 11 is older than 13/, '§5.4.1-6 the error diagnostic');
      assert.match(out, /✗ Deploy is blocked: DEPENDENCY_MISSING: deploy key missing/);
      assert.match(out, /✗ Bash is unavailable: no shell found/);
      assert.match(out, /✗ refused: Deploy is blocked by a fatal diagnostic/);
      assert.doesNotMatch(out, /SLOW_DISK/, 'a warning diagnostic restricts nothing and is not shouted');
      assert.equal(out.split('WebFetch works with limits').length - 1, 1, 'a republished catalog does not repeat what was shown');
    } finally {
      master.stop();
      await peer.close();
    }
  });

  it('§5.4.1-4 a catalog of many degraded tools shows at most 20 notices and says how many more, so the terminal is not flooded', async () => {
    const s = { session_id: SESSION };
    const tools = Array.from({ length: 30 }, (_, i) => ({ name: `T${i}`, description: 'x', status: 'degraded' as const, status_description: `limit ${i}` }));
    const peer = await scriptedPeer([
      buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: {} }, s),
      buildFrame('tool.catalog.publish', { tools }, s),
      buildFrame('agent.commands.publish', { commands: [] }, s),
      buildFrame('agent.state.changed', { previous_state: 'idle', current_state: 'idle', reason: 'attached' }, s),
    ]);
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    const master = new TerminalMaster({ url: `ws://127.0.0.1:${peer.port}/v1/sessions/${SESSION}/stream`, token: 't', session_id: SESSION, stdin, stdout });
    try {
      master.start();
      await waitFor(() => out.includes('more tool notices'), 'the summary line');
      assert.equal(out.split('works with limits').length - 1, 20);
      assert.match(out, /… and 10 more tool notices/);
    } finally {
      master.stop();
      await peer.close();
    }
  });
});
