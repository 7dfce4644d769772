// Audit (decision 544): a master that announces `x-rawp.follow_up_queue` may send prompts while a
// turn runs; each was held in full, answered with a notice and counted as nothing, so one master
// could make the host keep ~400 MB a second. The queue now holds at most 20 prompts / 8 MiB per
// session; past that a prompt is refused (FOLLOW_UP_QUEUE_FULL), and the refusals close a flood
// with 1008 like the hub's other refusals. Real HostSharing server, real sockets on loopback.
import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import { HostSharing } from '../../src/host/sharing';
import { generateToken } from '../../src/remote/auth';
import { buildFrame } from '../../src/protocol/build';
import { CLOSE } from '../../src/remote/controlPlane';
import { DEFAULT_FOLLOW_UP_LIMITS } from '../../src/commands/followUpQueue';
import { harness } from '../unit/host/harness';
import { waitFor } from '../unit/remote/harness';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
type Seen = { type: string; payload?: { error_code?: string; message?: string; level?: string } };

async function rig(extension: Record<string, boolean>) {
  const h = harness();
  const never = new Promise<void>(() => undefined);
  const host = h.makeHost({ defaultAgent: 'scripted', scripted: { turns: [{ steps: [{ kind: 'waitFor', promise: never }] }] } });
  const token = generateToken();
  const sharing = new HostSharing({ host, logger: quiet, settings: async () => ({ token }) });
  const id = await host.create({ agent: 'scripted' });
  const server = await sharing.share(id);
  const ws = new WebSocket(server.attachUrl(id), ['rawp-dps-1.0', `bearer.${token}`], { maxPayload: 64 * 1024 * 1024 });
  const frames: Seen[] = [];
  const closes: number[] = [];
  ws.on('close', (c) => closes.push(c));
  ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
  await new Promise((r) => ws.on('open', r));
  const send = (type: string, payload: unknown) => ws.send(JSON.stringify(buildFrame(type as 'control.prompt.request', payload as never, { session_id: id })));
  send('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: {}, extensions: { 'x-rawp': extension } });
  send('control.prompt.request', { prompt_text: 'start a turn' });
  await waitFor(() => frames.some((f) => f.type === 'session.turn.start'), 'the turn runs');
  const queue = () => (host as unknown as { entries: Map<string, { commands: { queue: { state: { items: unknown[] }; heldBytes: number } } }> }).entries.get(id)!.commands.queue;
  const stop = async () => {
    ws.terminate();
    await sharing.close();
  };
  return { frames, closes, send, queue, stop };
}

const refusals = (frames: Seen[]) => frames.filter((f) => f.payload?.error_code === 'FOLLOW_UP_QUEUE_FULL');

describe('security/follow-up queue: a master cannot make the host keep every prompt it sends during a turn (decision 544)', function () {
  this.timeout(60_000);

  it('§17.3.2 40 prompts of 600 KB during a turn: at most 8 MiB is held, the rest refused as error notices, and the flood is closed with 1008', async () => {
    const r = await rig({ follow_up_queue: true, notices: true });
    try {
      const big = 'y'.repeat(600_000);
      for (let i = 0; i < 40; i++) r.send('control.prompt.request', { prompt_text: `${i} ${big}` });
      await waitFor(() => r.closes.length > 0, 'the sender is closed', 30_000);
      const q = r.queue();
      console.log(`      figures: ${JSON.stringify({ sent: 40, held: q.state.items.length, held_bytes: q.heldBytes, refused: refusals(r.frames).length, close: r.closes[0] })}`);
      assert.equal(r.closes[0], CLOSE.POLICY_VIOLATION);
      assert.ok(q.state.items.length <= DEFAULT_FOLLOW_UP_LIMITS.maxItems && q.state.items.length >= 10, `${q.state.items.length} held`);
      assert.ok(q.heldBytes <= DEFAULT_FOLLOW_UP_LIMITS.maxBytes, `${q.heldBytes} bytes held`);
      const [first] = refusals(r.frames);
      assert.equal(first.type, 'x-rawp.notice');
      assert.equal(first.payload?.level, 'error');
      assert.match(first.payload?.message ?? '', /follow-up queue is full.*not queued.*send it again/);
    } finally {
      await r.stop();
    }
  });

  it('§17.3.2 a master without notices gets a non-fatal session.error past 20 waiting prompts, and a few refusals do not close it', async () => {
    const r = await rig({ follow_up_queue: true });
    try {
      for (let i = 0; i < 25; i++) r.send('control.prompt.request', { prompt_text: `follow-up ${i}` });
      await waitFor(() => refusals(r.frames).length === 5, 'five refusals');
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(r.queue().state.items.length, 20);
      assert.ok(refusals(r.frames).every((f) => f.type === 'session.error'));
      assert.equal(r.closes.length, 0);
    } finally {
      await r.stop();
    }
  });
});
