// §13.1 and §2.1 against a real `rawp serve` (the trial of 2026-12-05): a master's prompt sent
// before its own session.capabilities ran a whole turn, and a binary WebSocket message was read as a
// frame. Now the first is refused until the opening is done (and may be sent again after it), the
// second is refused as not a frame; neither is relayed to the other masters or run.
import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import { buildFrame } from '../../src/protocol/build';
import { EVERY_FEATURE } from '../../src/protocol/capabilities';
import { DPS_SUBPROTOCOL, streamPath } from '../../src/remote/controlPlane';
import { waitFor } from '../unit/remote/harness';
import { serve, stopAll, type ServeChild } from './serveProcess';

interface Raw {
  ws: WebSocket;
  frames: { type: string; parent_id?: string; payload: Record<string, unknown> }[];
}

async function rawMaster(child: ServeChild): Promise<Raw> {
  const ws = new WebSocket(`${child.url.replace('http', 'ws')}${streamPath(child.session_id)}`, [DPS_SUBPROTOCOL], { headers: { authorization: `Bearer ${child.token}` } });
  const raw: Raw = { ws, frames: [] };
  ws.on('message', (d) => raw.frames.push(JSON.parse(String(d))));
  await new Promise((ok, no) => (ws.once('open', ok), ws.once('error', no)));
  return raw;
}

const capabilities = (session_id: string) => JSON.stringify(buildFrame('session.capabilities', { protocol_version: DPS_SUBPROTOCOL, supported_namespaces: ['agent', 'tool', 'session', 'control'], features: EVERY_FEATURE }, { session_id }));

describe('security: §13.1 the opening comes first, §2.1 frames are JSON text (real rawp serve)', function () {
  this.timeout(90_000);
  afterEach(() => stopAll());

  it('§13.1-1 a prompt before the master\'s session.capabilities is refused and runs nothing; the same frame sent after them runs', async () => {
    const child = await serve({ args: ['--agent', 'builtin'] });
    const other = await child.master();
    const m = await rawMaster(child);
    const prompt = buildFrame('control.prompt.request', { prompt_text: 'todo: early-marker' }, { session_id: child.session_id });
    m.ws.send(JSON.stringify(prompt));
    await waitFor(() => m.frames.some((f) => f.type === 'session.error' && f.parent_id === prompt.message_id), 'the early prompt is refused', 30_000);
    const refusal = m.frames.find((f) => f.type === 'session.error' && f.parent_id === prompt.message_id)!;
    assert.equal(refusal.payload.error_code, 'UNEXPECTED_FRAME');
    assert.match(String(refusal.payload.message), /before this master's session\.capabilities: send session\.capabilities first/);
    assert.equal(refusal.payload.fatal, false);
    m.ws.send(capabilities(child.session_id));
    await waitFor(() => m.frames.some((f) => f.type === 'agent.state.changed'), 'the opening', 30_000);
    assert.ok(!other.frames.some((f) => f.type === 'session.turn.start'), 'no turn ran for the refused prompt');
    assert.ok(!other.frames.some((f) => f.type === 'control.prompt.request'), 'the refused prompt was not relayed');
    m.ws.send(JSON.stringify(prompt)); // the same id: a refused frame's id is not remembered
    await waitFor(() => other.frames.some((f) => f.type === 'session.turn.end'), 'the prompt runs after the opening', 30_000);
    assert.ok(other.frames.some((f) => f.type === 'control.prompt.request' && JSON.stringify(f).includes('early-marker')));
    m.ws.terminate();
  });

  it('§2.1 a binary WebSocket message is refused as not a frame (MALFORMED_JSON), even one holding a valid prompt', async () => {
    const child = await serve({ args: ['--agent', 'builtin'] });
    const other = await child.master();
    const m = await rawMaster(child);
    m.ws.send(capabilities(child.session_id));
    await waitFor(() => m.frames.some((f) => f.type === 'agent.state.changed'), 'the opening', 30_000);
    const prompt = buildFrame('control.prompt.request', { prompt_text: 'todo: binary-marker' }, { session_id: child.session_id });
    m.ws.send(Buffer.from(JSON.stringify(prompt)), { binary: true });
    await waitFor(() => m.frames.some((f) => f.type === 'session.error' && f.payload.error_code === 'MALFORMED_JSON'), 'refused', 30_000);
    assert.match(String(m.frames.find((f) => f.payload.error_code === 'MALFORMED_JSON')!.payload.message), /a binary WebSocket message \(\d+ bytes\) is not a frame/);
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(!other.frames.some((f) => f.type === 'session.turn.start' || f.type === 'control.prompt.request'), 'nothing ran or was relayed');
    m.ws.terminate();
  });
});
