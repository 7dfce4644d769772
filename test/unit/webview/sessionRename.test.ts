// The browser master's session list follows a rename (decision 605): `/rename` (or another master,
// or the agent) renames the session, the host tells every connection with §7.6.1 session.renamed,
// and the page asks GET /v1/sessions again, so the list shows the new name without a reload. A
// reattach whose history holds a rename missed while away asks too.
import { strict as assert } from 'node:assert';
import WebSocket, { WebSocketServer } from 'ws';
import { buildFrame } from '../../../src/protocol/build';
import { ChatStore } from '../../../webview-ui/src/state/store';
import { WebSocketTransport, type WebSocketLike } from '../../../webview-ui/src/transport/websocket';
import { waitFor } from '../remote/harness';

const SESSION = '7a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

describe('webview: the browser master\'s session list follows a rename (decision 605)', () => {
  let wss: WebSocketServer;
  let transport: WebSocketTransport | undefined;
  /** The name GET /v1/sessions answers with, and how often it was asked. */
  let name = 'Old name';
  let listed = 0;
  const sockets: WebSocket[] = [];

  beforeEach(async () => {
    name = 'Old name';
    listed = 0;
    sockets.length = 0;
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'rawp-dps-1.0' });
    await new Promise<void>((r) => wss.once('listening', () => r()));
    wss.on('connection', (ws) => sockets.push(ws));
  });
  afterEach(async () => {
    transport?.close();
    for (const s of sockets) s.terminate();
    await new Promise<void>((r) => wss.close(() => r()));
  });

  function start(): ChatStore {
    const port = (wss.address() as { port: number }).port;
    transport = new WebSocketTransport({
      baseUrl: `http://127.0.0.1:${port}`,
      token: 't',
      sessionId: SESSION,
      backoffMs: [10],
      createSocket: (url, protocols) => new WebSocket(url, protocols) as unknown as WebSocketLike,
      fetchFn: (async (url: string) => {
        if (!String(url).endsWith('/v1/sessions')) return new Response('{}', { status: 404 });
        listed++;
        return new Response(JSON.stringify({ sessions: [{ session_id: SESSION, name, state: 'idle' }] }), { status: 200 });
      }) as typeof fetch,
    });
    const store = new ChatStore(transport, (fn) => setImmediate(fn));
    store.start();
    return store;
  }

  const shownName = (store: ChatStore) => store.sessions.find((s) => s.session_id === SESSION)?.name;

  it('a session.renamed from the host makes the list show the new name', async () => {
    const store = start();
    await waitFor(() => sockets.length === 1 && shownName(store) === 'Old name', 'attached, the list loaded');
    name = '새 이름';
    sockets[0].send(JSON.stringify(buildFrame('session.renamed', { session_id: SESSION, name: '새 이름', previous_name: 'Old name', renamed_by: 'client' }, { session_id: SESSION })));
    await waitFor(() => shownName(store) === '새 이름', 'the list shows the new name');
    assert.equal(listed, 2, 'asked once at the start and once for the rename');
  });

  it('a reattach whose history holds a rename missed while away refreshes the list too', async () => {
    const store = start();
    await waitFor(() => sockets.length === 1 && shownName(store) === 'Old name', 'attached, the list loaded');
    const seen = buildFrame('agent.text.delta', { content_index: 0, text: 'hi' }, { session_id: SESSION });
    sockets[0].send(JSON.stringify(seen));
    await waitFor(() => store.transcript.timeline.length > 0, 'a frame arrived');
    sockets[0].terminate();
    await waitFor(() => sockets.length === 2, 'reattached');
    name = 'Renamed meanwhile';
    const renamed = buildFrame('session.renamed', { session_id: SESSION, name, previous_name: 'Old name', renamed_by: 'master' }, { session_id: SESSION });
    sockets[1].send(JSON.stringify(buildFrame('session.history', { frames: [renamed as unknown as Record<string, unknown>], buffer_status: { policy_applied: 'RING', truncated: false }, last_sync_timestamp: new Date().toISOString(), last_message_id: renamed.message_id }, { session_id: SESSION })));
    await waitFor(() => shownName(store) === 'Renamed meanwhile', 'the list shows the new name');
  });
});
