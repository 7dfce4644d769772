// The chat view's frame budget (decision 516): a huge tool result reaches the editor's own view cut
// in the middle — its start and its end, a mark with the count — live (the hub, through the view's
// connection) and in a replay (the controller), while the session keeps the frame whole.
import assert from 'node:assert/strict';
import { buildFrame } from '../../../src/protocol/build';
import type { FrameOf } from '../../../src/protocol/frameTypes';
import { webviewMessage } from '../../../src/protocol/webviewMessages';
import { MASTER_FEATURES } from '../../../webview-ui/src/state/store';
import { CUT_MARK_PATTERN } from '../../../src/protocol/cutMark';
import { forView } from '../../../src/extension/viewFrames';
import { OUR_MASTER_EXTENSIONS, OUR_VIEW_FRAME_BUDGET as VIEW_FRAME_BUDGET } from '../../../src/protocol/rawpExtension';
import { until } from '../../support/settle';
import { controllerFor, harness, viewRecorder, type Harness } from '../host/harness';

/** A 3 MB command output whose first and last lines say where they are. */
const BIG = 'first line of the build log\n' + 'compiling module 1234 of 5678 ok\n'.repeat(90_000) + 'error TS2322: the last line says why it failed';
const bytes = (f: unknown) => Buffer.byteLength(JSON.stringify(f), 'utf8');

function assertCut(output: unknown, whole: string): void {
  assert.equal(typeof output, 'string');
  const text = output as string;
  const m = CUT_MARK_PATTERN.exec(text);
  assert.ok(m, 'the output says where it was cut');
  const head = text.slice(0, m.index);
  const tail = text.slice(m.index + m[0].length);
  assert.ok(head.startsWith('first line of the build log') && whole.startsWith(head), 'its start is kept');
  assert.ok(tail.endsWith('the last line says why it failed') && whole.endsWith(tail), 'its end is kept');
  assert.equal(head.length + Number(m[1]) + tail.length, whole.length, 'the mark counts what is left out');
}

describe('extension: the chat view is given at most its frame budget (decision 516)', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.cleanup());

  it('§12.2 §5.3.1 a 3 MB tool result reaches the view cut to the budget, live and on reload; the session keeps it whole', async () => {
    const host = h.makeHost({ defaultAgent: 'scripted', scripted: { turns: [{ steps: [{ kind: 'tool', name: 'Bash', input: { command: 'npm run build' }, output: BIG }, { kind: 'text', chunks: ['it failed'] }] }] } });
    const c = controllerFor(host, h);
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    const session_id = c.activeSessionId!;
    // The view announces itself as the real store does: x-rawp.frame_budget, no max_frame_size.
    await c.receive(webviewMessage('frame', { frame: buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: MASTER_FEATURES, extensions: OUR_MASTER_EXTENSIONS }, { session_id }) }));
    const published: FrameOf<'tool.invoke.result'>[] = [];
    host.onEvent((e) => {
      if (e.kind === 'frame' && e.frame.type === 'tool.invoke.result') published.push(e.frame as FrameOf<'tool.invoke.result'>);
    });
    await c.receive(webviewMessage('frame', { frame: buildFrame('control.prompt.request', { prompt_text: 'build it' }, { session_id }) }));
    await until(() => view.frames().some((f) => f.type === 'session.turn.end'), 'the turn ends in the view');

    for (const f of view.frames()) assert.ok(bytes(f) <= VIEW_FRAME_BUDGET, `${f.type}: ${bytes(f)} bytes`);
    const live = view.frames().find((f) => f.type === 'tool.invoke.result') as FrameOf<'tool.invoke.result'>;
    assertCut(live.payload.output, BIG);
    assert.equal(live.payload.truncated, true);
    assert.equal(published.length, 1);
    assert.equal(published[0].payload.output, BIG, 'the session (history, journal, masters without a limit) has it whole');
    assert.equal(live.message_id, published[0].message_id);

    // A reloaded view is given the transcript by the controller's replay: cut the same way.
    const again = viewRecorder();
    c.setView(again.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await until(() => again.frames().some((f) => f.type === 'tool.invoke.result'), 'the replay has the result');
    for (const f of again.frames()) assert.ok(bytes(f) <= VIEW_FRAME_BUDGET, `replayed ${f.type}: ${bytes(f)} bytes`);
    assertCut((again.frames().find((f) => f.type === 'tool.invoke.result') as FrameOf<'tool.invoke.result'>).payload.output, BIG);
  });

  it('§12.2 a replayed frame no cut can fit becomes a session.error that names it; the frames around it go as they are', () => {
    const session_id = 's-1';
    const tools = Array.from({ length: 20_000 }, (_, i) => ({ name: `tool${i}`, description: 'd', category: 'search' as const }));
    const catalog = buildFrame('tool.catalog.publish', { tools } as never, { session_id });
    const small = buildFrame('agent.text.delta', { content_index: 0, delta: 'hello' } as never, { session_id });
    const out = forView([small, catalog, small], session_id);
    assert.equal(out[0], small, 'a frame within the budget is the same object');
    assert.equal(out[2], small);
    assert.equal(out[1].type, 'session.error');
    const note = (out[1] as FrameOf<'session.error'>).payload;
    assert.equal(note.error_code, 'FRAME_TOO_LARGE');
    assert.match(note.message, new RegExp(`tool\\.catalog\\.publish.*the ${VIEW_FRAME_BUDGET} bytes the chat view takes`));
    assert.equal(note.fatal, false);
  });
});
