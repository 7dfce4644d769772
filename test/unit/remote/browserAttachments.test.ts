// §6.1.1 / §4.5.1 from the browser master, black box: the page's WebSocket transport uploads a
// composer attachment to a real `rawp serve` with PUT /v1/files/{id} (bearer token, never in the
// URL), gets its file_url, and the prompt naming it in context_files reaches the agent, which
// reads the file. A wrong token is refused with a sentence and nothing is stored.
import { strict as assert } from 'node:assert';
import WebSocket from 'ws';
import { buildFrame } from '../../../src/protocol/build';
import { EVERY_FEATURE } from '../../../src/protocol/capabilities';
import type { HostMessage } from '../../../src/protocol/webviewMessages';
import { WebSocketTransport, type WebSocketLike } from '../../../webview-ui/src/transport/websocket';
import { serve, waitFor, type Served } from '../../security/serveChild';

describe('browser master attachments against a real rawp serve (§6.1.1, §4.5.1)', function () {
  this.timeout(120_000);
  let s: Served | undefined;
  let transport: WebSocketTransport | undefined;
  afterEach(() => {
    transport?.close();
    s?.close();
  });

  function open(served: Served, token: string): { got: HostMessage[] } {
    const got: HostMessage[] = [];
    transport = new WebSocketTransport({
      baseUrl: served.url,
      token,
      sessionId: served.session_id,
      createSocket: (url, protocols) => new WebSocket(url, protocols) as unknown as WebSocketLike,
      fetchFn: fetch,
    });
    transport.onMessage((m) => void got.push(m));
    transport.send({ kind: 'ready', payload: { version: 1 } });
    return { got };
  }

  it('§6.1.1 the upload is a PUT under the token; its file_url in context_files is read by the agent', async () => {
    s = await serve({ 'a.txt': 'a\n' });
    const { got } = open(s, s.token);
    await waitFor(() => got.some((m) => m.kind === 'frames'), 'the session stream', 60_000);
    transport!.send({ kind: 'attachment.add', payload: { request_id: 'up-1', session_id: s.session_id, file_name: 'todo.txt', mime_type: 'text/plain', data: Buffer.from('water the plants\n').toString('base64') } });
    await waitFor(() => got.some((m) => m.kind === 'attachment.stored' || m.kind === 'attachment.failed'), 'the upload answer', 30_000);
    const answer = got.find((m) => m.kind === 'attachment.stored' || m.kind === 'attachment.failed')!;
    assert.equal(answer.kind, 'attachment.stored', JSON.stringify(answer));
    if (answer.kind !== 'attachment.stored') return;
    assert.match(answer.payload.file_url, /^\/v1\/files\/[0-9a-f-]{36}$/);
    assert.equal(answer.payload.size_bytes, 17);
    const caps = buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: EVERY_FEATURE }, { session_id: s.session_id });
    const prompt = buildFrame('control.prompt.request', { prompt_text: 'help', context_files: [{ file_url: answer.payload.file_url, file_name: 'todo.txt', mime_type: 'text/plain' }] }, { session_id: s.session_id });
    transport!.send({ kind: 'frame', payload: { frame: JSON.parse(JSON.stringify(caps)) as Record<string, unknown> } });
    transport!.send({ kind: 'frame', payload: { frame: JSON.parse(JSON.stringify(prompt)) as Record<string, unknown> } });
    const said = () => got.flatMap((m) => (m.kind === 'frames' ? m.payload.frames : [])).filter((f) => f.type === 'agent.text.done').map((f) => String(f.payload.full_text));
    await waitFor(() => said().some((t) => t.includes('water the plants')), 'the agent to read the attached file', 60_000);
    assert.ok(said().some((t) => /todo\.txt \(1 line\(s\), 17 bytes\)/.test(t)));
  });

  it('§4.5.1 a wrong token: the upload is refused (401) with a sentence naming the file', async () => {
    s = await serve({});
    const { got } = open(s, 'x'.repeat(43));
    transport!.send({ kind: 'attachment.add', payload: { request_id: 'up-2', session_id: s.session_id, file_name: 'a.txt', mime_type: 'text/plain', data: 'YQ==' } });
    await waitFor(() => got.some((m) => m.kind === 'attachment.failed' || m.kind === 'attachment.stored'), 'the upload answer', 30_000);
    const answer = got.find((m) => m.kind === 'attachment.failed' || m.kind === 'attachment.stored')!;
    assert.equal(answer.kind, 'attachment.failed');
    assert.match(answer.kind === 'attachment.failed' ? answer.payload.message : '', /^a\.txt was not attached: /);
  });
});
