// §4.5.1 in the editor: the chat view asks where to load a transfer's file from, and the controller
// answers with a webview resource URI of the host's store (nothing leaves the machine) — only for
// a file of the session it names.
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { webviewMessage, type HostMessage } from '../../../src/protocol/webviewMessages';
import { until } from '../../support/settle';
import { controllerFor, harness, viewRecorder, type Harness } from '../host/harness';
import { ONE_PIXEL_PNG } from '../../support/images';

const PNG = ONE_PIXEL_PNG;

describe('extension: §4.5.1 files shown in the chat view through webview resources', () => {
  let h: Harness;
  beforeEach(() => (h = harness()));
  afterEach(() => h.cleanup());

  it('§4.5.1 file.resolve answers with the resource URI of the stored file of that session; another session or no file gets an error', async () => {
    const host = h.makeHost();
    const c = controllerFor(host, h);
    const view = viewRecorder();
    c.setView(view.post, (p) => `https://file+.vscode-resource.test${pathToFileURL(p).pathname}`);
    const id = await host.create({ agent: 'builtin' });
    const other = await host.create({ agent: 'builtin' });
    const t = await host.publishFile(id, { bytes: PNG, file_name: 'dot.png', mime_type: 'image/png' });
    const answer = async (session_id: string) => {
      view.clear();
      await c.receive(webviewMessage('file.resolve', { session_id, transfer_id: t.transfer_id }));
      await until(() => view.kinds().includes('file.resolved'), 'the answer');
      return view.messages.find((m): m is Extract<HostMessage, { kind: 'file.resolved' }> => m.kind === 'file.resolved')!.payload;
    };
    const ok = await answer(id);
    assert.equal(ok.transfer_id, t.transfer_id);
    assert.ok(ok.uri?.startsWith('https://file+.vscode-resource.test/'), ok.uri);
    assert.ok(ok.uri?.endsWith(`/${t.transfer_id}`), 'the stored bytes themselves');
    assert.ok(ok.uri?.includes(pathToFileURL(host.fileStore!.dir).pathname), 'inside the store folder (the view\'s resource root)');
    const refused = await answer(other);
    assert.equal(refused.uri, undefined);
    assert.ok(refused.error);
  });
});
