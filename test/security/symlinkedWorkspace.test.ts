// A workspace opened through a symlink answers to both its names, and to no other (decision 723).
// Found: where a folder keeps the name it was opened by (the editor's workspace folders), an ACP
// agent is told that name, and every file it then asked for by it was refused as "outside the
// workspace" — the Node backend knew only the real path (`rawp run` and `rawp serve` take the real
// path of --workspace instead, so there the agent is told that). A fake ACP agent (a real child
// process) asking for files by the name it was told, by the real path, by a third link to the same
// folder, through a link out of it, and by `..` from the link. Decision 729: `rawp run`/`serve`
// run in the real folder but keep the link's name as the workspace's other name.
import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCliOnce, rawpRun, runScratch, type RunScratch } from '../support/rawpRun';
import { waitFor } from '../unit/remote/harness';
import { serve, stopAll } from './serveProcess';
import { RecordingHost } from '../support/recordingHost';
import { turnWithin } from '../support/fakeAcpAgent';
import { AcpAdapter } from '../../src/agents/acp/adapter';
import { permissionQuestion } from '../../src/agents/acp/permission';
import { resolveToolPath } from '../../src/tools/paths';
import { NodeFsBackend } from '../../src/workspace/nodeFsBackend';
import { resolveInWorkspace } from '../../src/workspace/resolvePath';

// Reads each path of argv (`cwd:` in front: the folder session/new named, joined), then writes
// `made.txt` by the name it was told, and says what each answer was.
const AGENT = `
const paths = process.argv.slice(2);
const rl = require('readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
const waiting = new Map();
let next = 1000, cwd = '', promptId;
const ask = (method, params) => new Promise((done) => { const id = next++; waiting.set(id, done); send({ id, method, params }); });
rl.on('line', async (text) => {
  const m = JSON.parse(text);
  if (m.id !== undefined && waiting.has(m.id)) { const done = waiting.get(m.id); waiting.delete(m.id); done(m); return; }
  if (m.method === 'initialize') send({ id: m.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] } });
  else if (m.method === 'session/new') { cwd = m.params.cwd; send({ id: m.id, result: { sessionId: 'fake-1' } }); }
  else if (m.method === 'session/prompt') {
    promptId = m.id;
    const said = [];
    for (const p of paths) {
      const path = p.startsWith('cwd:') ? cwd + '/' + p.slice(4) : p;
      const a = await ask('fs/read_text_file', { sessionId: 'fake-1', path });
      said.push(a.result ? 'read ' + JSON.stringify(a.result.content.trim()) : 'refused ' + JSON.stringify(String(a.error && a.error.message).slice(0, 60)));
    }
    const w = await ask('fs/write_text_file', { sessionId: 'fake-1', path: cwd + '/made.txt', content: 'made\\n' });
    said.push(w.error ? 'write refused ' + w.error.message.slice(0, 60) : 'wrote');
    send({ method: 'session/update', params: { sessionId: 'fake-1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: said.join('\\n') } } } });
    send({ id: promptId, result: { stopReason: 'end_turn' } });
  }
});`;

describe('security: a workspace opened through a symlink answers to both its names, and to no other (decision 723)', function () {
  this.timeout(120_000);
  let s: RunScratch;
  let link: string;
  beforeEach(() => {
    s = runScratch('rawp-symlinked-ws-', 'inside\n');
    writeFileSync(join(s.dir, 'agent.js'), AGENT);
    link = join(s.dir, 'opened-as');
    symlinkSync(s.ws, link);
    symlinkSync(s.ws, join(s.dir, 'third-name'));
    mkdirSync(join(s.dir, 'outside'));
    writeFileSync(join(s.dir, 'outside', 'secret.txt'), 'secret\n');
    symlinkSync(join(s.dir, 'outside'), join(s.ws, 'out'));
  });
  afterEach(() => s.remove());

  it('an ACP agent told the link\'s name (as in the editor, where the folder keeps the name it was opened by) reads by that name and by the real path, writes by the name; a third link, a link out and `..` are refused', async () => {
    const asked = ['cwd:a.txt', join(s.ws, 'a.txt'), join(s.dir, 'third-name', 'a.txt'), 'cwd:out/secret.txt', join(link, '..', 'outside', 'secret.txt')];
    const adapter = new AcpAdapter({ id: 'acp:fake', displayName: 'Fake ACP', command: process.execPath, args: [join(s.dir, 'agent.js'), ...asked], killGraceMs: 500 });
    try {
      const host = new RecordingHost(link);
      await host.open(adapter);
      const turn = await turnWithin(host, adapter, 30_000);
      const said = turn.frames.flatMap((f) => (f.type === 'agent.text.delta' ? [f.payload.text] : [])).join('').split('\n');
      assert.equal(said.length, 6, said.join('\n'));
      assert.equal(said[0], 'read "inside"', `by the name the agent was told: ${said[0]}`);
      assert.equal(said[1], 'read "inside"', 'by the real path');
      assert.match(said[2], /^refused "FS_OUTSIDE_WORKSPACE/, 'a name the session was not given stays outside');
      assert.match(said[3], /^refused "FS_OUTSIDE_WORKSPACE/, 'a link out of the workspace');
      assert.match(said[4], /^refused "FS_OUTSIDE_WORKSPACE/, '`..` from the link leaves it');
      assert.ok(!said.join('\n').includes('secret'), 'no outside content');
      assert.equal(said[5], 'wrote');
      assert.equal(readFileSync(join(s.ws, 'made.txt'), 'utf8'), 'made\n');
    } finally {
      await adapter.dispose();
    }
  });

  it('rawp run --workspace LINK (decision 729): the agent runs in the real folder and a path typed by the link\'s name is the same file (it was refused as outside); a third name, a link out and `..` stay refused', async () => {
    buildCliOnce();
    const asked = [join(link, 'a.txt'), 'cwd:a.txt', join(s.dir, 'third-name', 'a.txt'), join(link, 'out', 'secret.txt'), join(link, '..', 'outside', 'secret.txt')];
    const r = await rawpRun(['--workspace', link, '--agent', `acp:${process.execPath} ${[join(s.dir, 'agent.js'), ...asked].join(' ')}`, 'go'], { env: s.env, timeoutMs: 90_000 });
    const said = r.out.trim().split('\n');
    assert.equal(r.code, 0, r.err);
    assert.equal(said.length, 6, r.out + r.err);
    assert.equal(said[0], 'read "inside"', `by the link's name: ${said[0]}`);
    assert.equal(said[1], 'read "inside"', 'by the folder the agent was started in (the real path)');
    assert.match(said[2], /^refused "FS_OUTSIDE_WORKSPACE/, 'a name --workspace was not given stays outside');
    assert.match(said[3], /^refused "FS_OUTSIDE_WORKSPACE/, 'a link out of the workspace, by the link\'s name');
    assert.match(said[4], /^refused "FS_OUTSIDE_WORKSPACE/, '`..` from the link leaves it');
    assert.ok(!r.out.includes('secret'), 'no outside content');
    assert.equal(said[5], 'wrote');
    assert.equal(readFileSync(join(s.ws, 'made.txt'), 'utf8'), 'made\n');
  });

  it('rawp serve --workspace LINK (decision 729): a master\'s prompt naming a file by the link\'s name reads it; by a third name it is refused', async () => {
    try {
      const server = await serve({ workspace: link, files: {} });
      const m = await server.master();
      const results = () => m.frames.flatMap((f) => (f.type === 'tool.invoke.result' ? [f.payload] : []));
      const ends = () => m.frames.filter((f) => f.type === 'session.turn.end').length;
      for (const path of [join(link, 'a.txt'), join(s.dir, 'third-name', 'a.txt')]) {
        const had = ends();
        m.client.sendRaw(JSON.stringify({ v: 1, type: 'control.prompt.request', message_id: `p-${had}`, timestamp: new Date().toISOString(), session_id: server.session_id, payload: { prompt_text: `read ${path}` } }));
        await waitFor(() => ends() > had, `the turn reading ${path}`);
      }
      assert.equal(results().length, 2, JSON.stringify(results()));
      const [byLink, byThird] = results();
      assert.equal(byLink.status, 'success', JSON.stringify(byLink.output));
      assert.match(JSON.stringify(byLink.output), /inside/);
      assert.equal(byThird.status, 'error');
      assert.match(JSON.stringify(byThird.output), /outside the workspace/);
    } finally {
      await stopAll();
    }
  });

  it('the backend maps the given name by its letters: re-pointing the link afterwards leads nowhere new', async () => {
    const backend = new NodeFsBackend([link]);
    assert.deepEqual(backend.roots, [s.ws]);
    assert.equal((await backend.readText(join(link, 'a.txt'))).text, 'inside\n');
    // The link now names the outside folder: the backend still reads the workspace's file.
    const { rmSync } = await import('node:fs');
    rmSync(link);
    symlinkSync(join(s.dir, 'outside'), link);
    await assert.rejects(backend.readText(join(link, 'secret.txt')), /does not exist|not found|ENOENT/i);
    assert.equal((await backend.readText(join(link, 'a.txt'))).text, 'inside\n');
  });

  it('an @ reference by the real path resolves in a workspace named by its link', async () => {
    const r = await resolveInWorkspace([link], join(s.ws, 'a.txt'));
    assert.deepEqual(r, { ok: true, absolute: join(link, 'a.txt'), root: link, relative: 'a.txt' });
    const out = await resolveInWorkspace([link], join(s.dir, 'outside', 'secret.txt'));
    assert.equal(out.ok, false);
  });

  it('a permission ask and a tool path by the link\'s name are inside, shown relative; a third name is outside', () => {
    const backend = new NodeFsBackend([link]);
    const ask = (p: string) => permissionQuestion({ tool_name: 'Write', title: 'Write', input: {}, paths: [p] }, [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }], backend.roots, backend.rootAliases).call;
    assert.deepEqual(ask(join(link, 'src', 'new.ts')), { tool_name: 'Write', paths: ['src/new.ts'] });
    assert.equal(ask(join(s.dir, 'third-name', 'new.ts')).outsideWorkspace, true);
    assert.equal(resolveToolPath(s.ws, join(link, 'a.txt'), backend.roots, backend.rootAliases), join(s.ws, 'a.txt'));
    assert.equal(resolveToolPath(s.ws, join(s.dir, 'third-name', 'a.txt'), backend.roots, backend.rootAliases), join(s.dir, 'third-name', 'a.txt'));
  });
});
