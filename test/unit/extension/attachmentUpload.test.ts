// §6.1.1 attachments from the editor's chat view: the bytes the webview posts are stored in the
// session's file store (§4.5.1) and answered with the file_url the prompt then carries; what the
// store refuses comes back as a sentence, and the built-in agent reads the stored file.
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import { webviewMessage, type HostMessage } from '../../../src/protocol/webviewMessages';
import { until } from '../../support/settle';
import { controllerFor, harness, viewRecorder, type Harness } from '../host/harness';

describe('chat view attachments (§6.1.1, §4.5.1)', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.cleanup());

  async function open() {
    const host = h.makeHost({ defaultAgent: 'builtin' });
    const c = controllerFor(host, h);
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await until(() => view.frames().some((f) => f.type === 'agent.state.changed'), 'the session is up');
    return { host, c, view, session_id: c.activeSessionId! };
  }

  const answers = (view: ReturnType<typeof viewRecorder>) => view.messages.filter((m): m is Extract<HostMessage, { kind: 'attachment.stored' | 'attachment.failed' }> => m.kind === 'attachment.stored' || m.kind === 'attachment.failed');

  it('§6.1.1 a posted text file is stored in the session (type guessed from its name), its file_url read by the built-in agent through context_files', async () => {
    const { c, view, session_id } = await open();
    await c.receive(webviewMessage('attachment.add', { request_id: 'r1', session_id, file_name: 'notes.md', mime_type: '', data: Buffer.from('# Plan\nship it\n').toString('base64') }));
    const [stored] = answers(view);
    assert.equal(stored.kind, 'attachment.stored', JSON.stringify(stored));
    if (stored.kind !== 'attachment.stored') return;
    assert.equal(stored.payload.request_id, 'r1');
    assert.match(stored.payload.file_url, /^\/v1\/files\/[0-9a-f-]{36}$/);
    assert.equal(stored.payload.mime_type, 'text/markdown');
    assert.equal(stored.payload.size_bytes, 15);
    const prompt = buildFrame('control.prompt.request', { prompt_text: 'help', context_files: [{ file_url: stored.payload.file_url, file_name: 'notes.md', mime_type: 'text/markdown' }] }, { session_id });
    await c.receive({ kind: 'frame', payload: { frame: prompt } }); // as the webview posts it (receive validates)
    await until(() => view.frames().some((f) => f.type === 'session.turn.end'), 'the turn ends');
    const said = view.frames().filter((f) => f.type === 'agent.text.done').map((f) => String((f.payload as { full_text: string }).full_text));
    assert.ok(said.some((t) => t.includes('notes.md') && t.includes('ship it')), said.join('\n'));
  });

  it('§6.1.1 an image for the built-in agent is refused before the turn with a notice naming it; bytes that are not what they claim are not stored', async () => {
    const { c, view, session_id } = await open();
    await c.receive(webviewMessage('attachment.add', { request_id: 'r2', session_id, file_name: 'fake.png', mime_type: 'image/png', data: Buffer.from('not a png').toString('base64') }));
    const [fake] = answers(view);
    assert.equal(fake.kind, 'attachment.failed');
    assert.match(fake.kind === 'attachment.failed' ? fake.payload.message : '', /^fake\.png was not attached: .*image\/png/);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await c.receive(webviewMessage('attachment.add', { request_id: 'r3', session_id, file_name: 'shot.png', mime_type: 'image/png', data: png.toString('base64') }));
    const ok = answers(view)[1];
    assert.equal(ok.kind, 'attachment.stored');
    if (ok.kind !== 'attachment.stored') return;
    const turnStarts = () => view.frames().filter((f) => f.type === 'session.turn.start').length;
    const before = turnStarts();
    const prompt = buildFrame('control.prompt.request', { prompt_text: 'look', context_files: [{ file_url: ok.payload.file_url, file_name: 'shot.png', mime_type: 'image/png' }] }, { session_id });
    await c.receive({ kind: 'frame', payload: { frame: prompt } }); // as the webview posts it (receive validates)
    await until(() => view.messages.some((m) => JSON.stringify(m).includes('cannot take the attached file shot.png')), 'the refusal');
    assert.equal(turnStarts(), before, 'no turn started');
  });

  it('§6.1.1 a file for a session that is gone is refused with a sentence', async () => {
    const { c, view } = await open();
    await c.receive(webviewMessage('attachment.add', { request_id: 'r4', session_id: '00000000-0000-4000-8000-000000000000', file_name: 'a.txt', mime_type: 'text/plain', data: 'YQ==' }));
    const [gone] = answers(view);
    assert.equal(gone.kind, 'attachment.failed');
    assert.match(gone.kind === 'attachment.failed' ? gone.payload.message : '', /a\.txt cannot be attached: the session has ended/);
  });
});
