// The browser master's side of §4.5.1: its transport (webview-ui/src/transport/websocket.ts) loads a
// transfer's file from the real sharing server with its bearer token (over real HTTP, Node's
// fetch), as a blob: URL for the view — and never sends the token to another origin.
import { strict as assert } from 'node:assert';
import { resolveObjectURL } from 'node:buffer';
import { generateToken } from '../../../../src/remote/auth';
import { WebSocketTransport } from '../../../../webview-ui/src/transport/websocket';
import { sharedHostPerTest } from './sharedHost';
import { ONE_PIXEL_PNG } from '../../../support/images';

const PNG = ONE_PIXEL_PNG;

describe('browser master: §4.5.1 files fetched with the token (real server, real fetch)', () => {
  const fixture = sharedHostPerTest();
  const token = fixture.token;

  it('§4.5.1 a /v1/files URL of the server becomes a blob: URL of the same bytes; a wrong token or a foreign origin gives none', async () => {
    const host = fixture.h.makeHost();
    const id = await host.create({ agent: 'builtin' });
    const transfer = await host.publishFile(id, { bytes: PNG, file_name: 'dot.png', mime_type: 'image/png' });
    const server = await fixture.share(host, id);
    const asked: string[] = [];
    const counting: typeof fetch = (input, init) => {
      asked.push(String(input));
      return fetch(input, init);
    };
    const transport = new WebSocketTransport({ baseUrl: server.url, token, fetchFn: counting });
    const url = await transport.resolveFile(id, transfer);
    assert.ok(url?.startsWith('blob:'), url);
    const blob = resolveObjectURL(url!);
    assert.ok(blob);
    assert.ok(Buffer.from(await blob.arrayBuffer()).equals(PNG), 'the same bytes');
    assert.equal(blob.type, 'image/png');
    // The absolute form on the server's origin works too; the answer is kept (no second fetch).
    assert.equal(await transport.resolveFile(id, { ...transfer, file_url: `${server.url}${transfer.file_url}` }), url);
    assert.equal(asked.length, 1);

    const wrong = new WebSocketTransport({ baseUrl: server.url, token: generateToken(), fetchFn: counting });
    assert.equal(await wrong.resolveFile(id, transfer), undefined, 'a 401 is no file');
    const before = asked.length;
    assert.equal(await transport.resolveFile(id, { transfer_id: '5f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b', file_url: 'http://evil.example/v1/files/5f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b' }), undefined);
    assert.equal(await transport.resolveFile(id, { transfer_id: '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b', file_url: `${server.url}/v1/sessions` }), undefined);
    assert.equal(asked.length, before, 'nothing was fetched for them: the token stays with its server');
  });
});
