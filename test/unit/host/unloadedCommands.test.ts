// Decision 721 end to end, without VS Code: a session host as the extension builds it, command files
// that do not load in the workspace and in the home, and the chat view's connection. The
// `agent.commands.publish` the view receives (and the session's log, which remote masters and the
// journal get) carries which files did not load and why, by relative and `~/` paths only; the
// view's transcript keeps them for the picker; a fix takes them away, live and for a fresh attach.
import { strict as assert } from 'node:assert';
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHostMessage, webviewMessage } from '../../../src/protocol/webviewMessages';
import { applyFrames, createTranscript } from '../../../src/protocol/transcript';
import type { Connection, WireFrame } from '../../../src/session/connection';
import { OUR_MASTER_EXTENSIONS } from '../../../src/protocol/rawpExtension';
import { LOCAL_VIEW_FEATURES, type SessionHost } from '../../../src/host/sessionHost';
import { until } from '../../support/settle';
import { controllerFor, harness, viewRecorder, type Harness } from './harness';

describe('host: the files that did not load reach the chat view with the command list (decision 721)', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.cleanup());

  function writeBadFiles(): void {
    mkdirSync(join(h.workspace, '.rawp', 'commands'), { recursive: true });
    writeFileSync(join(h.workspace, '.rawp', 'commands', 'deploy.md'), '---\ndescription: [unclosed\n---\nDeploy $1\n');
    mkdirSync(join(h.dir, 'home', '.claude', 'commands'), { recursive: true });
    writeFileSync(join(h.dir, 'home', '.claude', 'commands', 'huge.md'), `Huge\n${'x'.repeat(300 * 1024)}\n`);
  }

  /** What the view's transcript holds after the frames it was sent (parsed as the webview parses them). */
  function viewModel(view: ReturnType<typeof viewRecorder>) {
    const t = createTranscript({ sessionId: String((view.frames()[0] as { session_id: string }).session_id) });
    for (const m of view.messages) {
      const parsed = parseHostMessage(m);
      assert.ok(parsed.ok, 'every message is valid for the typed map');
      if (parsed.message.kind === 'frames') applyFrames(t, parsed.message.payload.frames as WireFrame[]);
    }
    return t;
  }

  it('§12.1.1 the view\'s opening publish names each file relatively (~/ for the home) with a reason; nothing names the temp folders; the view model keeps them for the picker', async () => {
    writeBadFiles();
    const host = h.makeHost();
    const c = controllerFor(host, h);
    const view = viewRecorder();
    c.setView(view.post);
    await c.receive(webviewMessage('ready', { version: 1 }));
    await until(() => view.frames().some((f) => f.type === 'agent.state.changed'), 'frames arrive');
    const publish = view.frames().find((f) => f.type === 'agent.commands.publish') as { payload: { commands: { name: string }[]; unloaded?: { total: number; files: { path?: string; reason: string; message: string }[] } } };
    assert.ok(!publish.payload.commands.some((c) => c.name === 'deploy' || c.name === 'huge'));
    assert.deepEqual(
      publish.payload.unloaded?.files.map((f) => [f.path, f.reason]),
      [
        ['.rawp/commands/deploy.md', 'frontmatter_invalid'],
        ['~/.claude/commands/huge.md', 'file_too_big'],
      ],
    );
    assert.equal(publish.payload.unloaded?.files[1].message, 'the file is larger than 256 KiB');
    const t = viewModel(view);
    assert.equal(t.unloadedCommands?.total, 2);
    assert.equal(t.unloadedCommands?.files[0].path, '.rawp/commands/deploy.md');

    // The session's log is what a remote master's attach and the journal get.
    const logged = JSON.stringify(host.log(c.activeSessionId!)!.all());
    assert.match(logged, /"unloaded":\{"total":2/);
    assert.ok(!logged.includes(h.dir), 'no absolute path (the home, the workspace) in what masters get');
  });

  /** A connection attached fresh to the session (as a master's attach is): what it is sent. */
  function attachFresh(host: SessionHost, id: string, name: string): Connection & { got: WireFrame[] } {
    const got: WireFrame[] = [];
    const conn = { id: name, kind: 'local' as const, features: LOCAL_VIEW_FEATURES, extensions: OUR_MASTER_EXTENSIONS, got, send: (f: WireFrame) => void got.push(f), close: () => undefined };
    assert.deepEqual(host.hub.attach(id, conn), { ok: true });
    return conn;
  }
  const unloadedIn = (frames: readonly WireFrame[]) => frames.filter((f) => f.type === 'agent.commands.publish').map((f) => (f.payload as { unloaded?: { total: number } }).unloaded?.total);

  it('§13.1 a fresh attach opens with them; a fix is published live (the view model drops the line) and the next fresh attach opens without them', async () => {
    writeBadFiles();
    const host = h.makeHost();
    const id = await host.create();
    const first = attachFresh(host, id, 'master-1');
    await until(() => first.got.some((f) => f.type === 'agent.state.changed'), 'the opening frames');
    assert.deepEqual(unloadedIn(first.got), [2], 'the opening publish carries them');

    unlinkSync(join(h.workspace, '.rawp', 'commands', 'deploy.md'));
    host.setWorkspaceFolders([h.workspace]);
    await until(() => unloadedIn(first.got).length === 2, 'the refresh after one fix');
    unlinkSync(join(h.dir, 'home', '.claude', 'commands', 'huge.md'));
    host.setWorkspaceFolders([h.workspace]);
    await until(() => unloadedIn(first.got).length === 3, 'the refresh after the last fix');
    assert.deepEqual(unloadedIn(first.got), [2, 1, undefined]);
    const t = createTranscript({ sessionId: id });
    applyFrames(t, first.got);
    assert.equal(t.unloadedCommands, undefined, 'the picker line goes with the last fix');

    const second = attachFresh(host, id, 'master-2');
    await until(() => second.got.some((f) => f.type === 'agent.state.changed'), 'the second opening');
    assert.deepEqual(unloadedIn(second.got), [undefined]);
  });
});
