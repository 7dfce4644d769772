// Decision 101 from the browser master's side: the real chat store over the real WebSocket
// transport announces our `x-rawp` extension in its session.capabilities (so its follow-ups are
// queued, not refused), and an `x-rawp.notice` from the host becomes a banner, never a frame.
import { strict as assert } from 'node:assert';
import WebSocket, { WebSocketServer } from 'ws';
import { buildFrame } from '../../../src/protocol/build';
import { buildNotice, rawpExtensionOf } from '../../../src/protocol/rawpExtension';
import { ChatStore } from '../../../webview-ui/src/state/store';
import { WebSocketTransport, type WebSocketLike } from '../../../webview-ui/src/transport/websocket';
import { waitFor } from '../remote/harness';

const SESSION = '7a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

describe('webview: the browser master announces x-rawp and shows notices (decision 101)', () => {
  it('§12.2.1 its session.capabilities carries extensions["x-rawp"] = { follow_up_queue, notices }; an x-rawp.notice is a banner, not a transcript frame', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'rawp-dps-1.0' });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    const received: { type: string; payload: Record<string, unknown> }[] = [];
    wss.on('connection', (ws) => {
      ws.on('message', (d) => received.push(JSON.parse(String(d)) as { type: string; payload: Record<string, unknown> }));
      ws.send(JSON.stringify(buildNotice(SESSION, { level: 'info', message: 'The agent is busy: your prompt is queued' })));
      ws.send(JSON.stringify(buildFrame('agent.text.delta', { content_index: 0, text: 'hello' }, { session_id: SESSION })));
    });
    const port = (wss.address() as { port: number }).port;
    const transport = new WebSocketTransport({
      baseUrl: `http://127.0.0.1:${port}`,
      token: 't',
      sessionId: SESSION,
      createSocket: (url, protocols) => new WebSocket(url, protocols) as unknown as WebSocketLike,
      fetchFn: (async () => new Response('[]', { status: 200 })) as typeof fetch,
    });
    const frameTypes: string[] = [];
    transport.onMessage((m) => {
      if (m.kind === 'frames') frameTypes.push(...m.payload.frames.map((f) => f.type));
    });
    const store = new ChatStore(transport, (fn) => setImmediate(fn));
    try {
      store.start();
      await waitFor(() => received.some((f) => f.type === 'session.capabilities'), 'the store announces its capabilities');
      const caps = received.find((f) => f.type === 'session.capabilities')!;
      assert.deepEqual(rawpExtensionOf(caps.payload.extensions as Record<string, unknown>), { follow_up_queue: true, notices: true, frame_budget: 512 * 1024 });
      await waitFor(() => store.notices.some((n) => n.message.includes('queued')), 'the notice is shown');
      await waitFor(() => frameTypes.includes('agent.text.delta'), 'the ordinary frame arrives');
      assert.ok(!frameTypes.includes('x-rawp.notice'), 'the notice never reaches the transcript');
    } finally {
      transport.close();
      await new Promise<void>((r) => wss.close(() => r()));
    }
  });
});
