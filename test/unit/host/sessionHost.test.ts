// The extension's session host without VS Code: real hub and engine, the built-in agent on real
// files, the transcript log every view replays, slash-command routing with the follow-up queue,
// persistence, and §7.8 finalization of sessions restored after a window reload.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrame } from '../../../src/protocol/build';
import type { Connection, WireFrame } from '../../../src/session/connection';
import { OUR_MASTER_EXTENSIONS } from '../../../src/protocol/rawpExtension';
import { LOCAL_VIEW_FEATURES, type SessionHost } from '../../../src/host/sessionHost';
import { settle, until } from '../../support/settle';
import { harness, type Harness } from './harness';

function viewConnection(id = 'view-1'): Connection & { got: WireFrame[] } {
  const got: WireFrame[] = [];
  return { id, kind: 'local', features: LOCAL_VIEW_FEATURES, extensions: OUR_MASTER_EXTENSIONS, got, send: (f) => void got.push(f), close: () => undefined };
}

function prompt(session_id: string, text: string) {
  return buildFrame('control.prompt.request', { prompt_text: text }, { session_id }) as unknown as Record<string, unknown> & { message_id: string };
}

const types = (frames: readonly { type: string }[]) => frames.map((f) => f.type);

describe('host: session host', () => {
  let h: Harness;
  let host: SessionHost;
  beforeEach(() => {
    h = harness();
  });
  afterEach(() => h.cleanup());

  it('§13.1 creates a session with the best available agent; its log opens with capabilities, catalog, commands and idle', async () => {
    host = h.makeHost();
    const id = await host.create();
    const [info] = host.list();
    assert.equal(info.session_id, id);
    assert.equal(info.agent, 'builtin');
    assert.equal(info.state, 'idle');
    assert.equal(info.shared, false);
    const log = host.log(id)!.all();
    assert.deepEqual(types(log).slice(0, 4), ['session.capabilities', 'tool.catalog.publish', 'agent.commands.publish', 'agent.state.changed']);
    // Slash commands: the host's own (mode) merged with the agent's (help) in one publish.
    const names = ((log[2].payload as { commands: { name: string }[] }).commands).map((c) => c.name);
    assert.ok(names.includes('mode') && names.includes('help') && names.includes('compact'), names.join(','));
  });

  it('slash-commands §3 the bundled prompts (/review, /explain, /test) are offered to an agent with a model, not to the built-in agent, which follows a grammar (decision 655)', async () => {
    host = h.makeHost();
    const published = async (agent: string) => {
      const id = await host.create({ agent });
      const frame = host.log(id)!.all().find((f) => f.type === 'agent.commands.publish')!;
      return (frame.payload as { commands: { name: string }[] }).commands.map((c) => c.name);
    };
    const builtin = await published('builtin');
    const model = await published('scripted'); // the test's scripted adapter stands for an agent with a model
    for (const name of ['review', 'explain', 'test']) {
      assert.ok(!builtin.includes(name), `/${name} is not offered to the built-in agent: ${builtin.join(',')}`);
      assert.ok(model.includes(name), `/${name} is offered to an agent with a model: ${model.join(',')}`);
    }
    assert.ok(builtin.includes('help') && builtin.includes('compact'), 'the host\'s own commands stay');
  });

  it('§2.4 a prompt from the view reaches the agent; the log records it and the whole turn; the view gets no echo of its own prompt', async () => {
    host = h.makeHost();
    const id = await host.create();
    const view = viewConnection();
    assert.deepEqual(host.hub.attach(id, view, { last_message_id: host.log(id)!.lastMessageId! }), { ok: true });
    const p = prompt(id, 'read src/greeting.ts');
    host.fromView(view.id, p);
    await until(() => host.log(id)!.all().some((f) => f.type === 'session.usage'), 'the turn ends');
    const log = host.log(id)!.all();
    const at = log.findIndex((f) => f.message_id === p.message_id);
    assert.ok(at >= 0, 'the prompt is in the log under the id the view gave it');
    assert.equal(log[at + 1].type, 'session.turn.start');
    assert.ok(log.some((f) => f.type === 'tool.invoke.result' && String(JSON.stringify(f.payload)).includes('Hello')));
    assert.equal(view.got.filter((f) => f.message_id === p.message_id).length, 0);
    assert.ok(view.got.some((f) => f.type === 'session.turn.end'));
  });

  it('§7.6 decision 651: a session named after its agent takes its first prompt\'s words as its name (session.renamed to every connection, kept in the journal); later prompts and named sessions keep theirs', async () => {
    host = h.makeHost({ defaultAgent: 'scripted' });
    const id = await host.create({ agent: 'scripted' });
    const named = await host.create({ agent: 'scripted', name: 'Release notes' });
    const view = viewConnection();
    host.hub.attach(id, view);
    const before = host.list().find((s) => s.session_id === id)!.name;
    host.fromView(view.id, prompt(id, 'fix the failing test in src/greeting.ts\nand explain why'));
    await until(() => view.got.some((f) => f.type === 'session.turn.end'), 'the first turn ends');
    const renamed = view.got.filter((f) => f.type === 'session.renamed').map((f) => f.payload);
    assert.deepEqual(renamed, [{ session_id: id, name: 'fix the failing test in src/greeting.ts and…', previous_name: before, renamed_by: 'client' }]);
    assert.equal(host.list().find((s) => s.session_id === id)!.name, 'fix the failing test in src/greeting.ts and…');
    host.fromView(view.id, prompt(id, 'now something else'));
    await until(() => view.got.filter((f) => f.type === 'session.turn.end').length === 2, 'the second turn ends');
    assert.equal(view.got.filter((f) => f.type === 'session.renamed').length, 1, 'only the first prompt names it');
    const other = viewConnection('view-2');
    host.hub.attach(named, other);
    host.fromView(other.id, prompt(named, 'hello'));
    await until(() => other.got.some((f) => f.type === 'session.turn.end'), 'its turn ends');
    assert.equal(host.list().find((s) => s.session_id === named)!.name, 'Release notes', 'a name someone gave stays');
    // Kept for the next start: the journal's index has the new name.
    await settle();
    assert.match(readFileSync(join(h.storeDir, 'sessions', `${id}.jsonl`), 'utf8'), /fix the failing test in src\/greeting\.ts and…/);
  });

  it('decision 651: a prompt refused before its turn starts (a bad json_schema) names nothing — the prompt of the first turn does; a restored chat keeps its name', async () => {
    host = h.makeHost({ defaultAgent: 'scripted' });
    const id = await host.create({ agent: 'scripted' });
    const view = viewConnection();
    host.hub.attach(id, view);
    const before = host.list().find((s) => s.session_id === id)!.name;
    const refused = buildFrame('control.prompt.request', { prompt_text: 'my api key is sk-live-123 please use it', config_overrides: { json_schema: { type: 'array' } } }, { session_id: id }) as unknown as Record<string, unknown>;
    host.fromView(view.id, refused);
    await until(() => view.got.some((f) => f.type === 'session.error'), 'refused');
    await settle();
    assert.equal(host.list().find((s) => s.session_id === id)!.name, before, 'no turn, no name');
    host.fromView(view.id, prompt(id, 'list the files'));
    await until(() => view.got.some((f) => f.type === 'session.turn.end'), 'the first turn ends');
    // The refused prompt no longer holds the queue: this one ran, it was not "queued" behind it (decision 652).
    assert.equal(view.got.filter((f) => f.type === 'x-rawp.notice').length, 0, 'not queued');
    await settle();
    assert.equal(host.list().find((s) => s.session_id === id)!.name, 'list the files');
    const renamedAt = view.got.findIndex((f) => f.type === 'session.renamed');
    assert.ok(renamedAt > view.got.findIndex((f) => f.type === 'session.turn.start'), 'after the turn\'s start, never before it');
    // A chat from before this rule (its agent's name and a history), restored: its next prompt ("yes")
    // does not rename it.
    const old = h.makeHost({ defaultAgent: 'scripted', namesFromPrompt: false });
    const kept = await old.create({ agent: 'scripted' });
    const v1 = viewConnection('view-old');
    old.hub.attach(kept, v1);
    old.fromView(v1.id, prompt(kept, 'write the release notes'));
    await until(() => v1.got.some((f) => f.type === 'session.turn.end'), 'its first turn ends');
    const oldName = old.list().find((s) => s.session_id === kept)!.name;
    await old.dispose();
    const again = h.makeHost({ defaultAgent: 'scripted' });
    assert.ok((await again.restoreAll()).includes(kept));
    const v2 = viewConnection('view-again');
    again.hub.attach(kept, v2);
    again.fromView(v2.id, prompt(kept, 'yes'));
    await until(() => v2.got.some((f) => f.type === 'session.turn.end'), 'its next turn ends');
    await settle();
    assert.equal(again.list().find((s) => s.session_id === kept)!.name, oldName, 'a restored chat keeps its name');
  });

  it('slash-commands §5: "/mode plan" becomes control.mode.switch (§6.3.2), never a prompt to the agent', async () => {
    host = h.makeHost({ defaultAgent: 'scripted' });
    const id = await host.create({ agent: 'scripted' });
    const view = viewConnection();
    host.hub.attach(id, view);
    host.fromView(view.id, prompt(id, '/mode plan'));
    await until(() => host.log(id)!.all().some((f) => f.type === 'agent.state.changed' && (f.payload as { mode?: string }).mode === 'plan'), 'mode switched');
    assert.ok(host.log(id)!.all().some((f) => f.type === 'control.mode.switch'));
    assert.equal(h.scripted[0].prompts.length, 0);
    assert.deepEqual(h.scripted[0].modes, ['plan']);
  });

  it('slash-commands §8 a prompt sent while a turn runs is queued and goes out after turn.end, under the view\'s id, once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    host = h.makeHost({ scripted: { turns: [{ steps: [{ kind: 'waitFor', promise: gate }, { kind: 'text', chunks: ['first'] }] }, { steps: [{ kind: 'text', chunks: ['second'] }] }] } });
    const id = await host.create({ agent: 'scripted' });
    const view = viewConnection();
    host.hub.attach(id, view);
    host.fromView(view.id, prompt(id, 'one'));
    await until(() => h.scripted[0].prompts.length === 1, 'first turn runs');
    const second = prompt(id, 'two');
    host.fromView(view.id, second);
    await until(() => view.got.some((f) => f.type === 'x-rawp.notice' && JSON.stringify(f.payload).includes('queued')), 'the view is told the prompt is queued');
    await settle();
    assert.ok(!host.log(id)!.all().some((f) => f.type === 'session.error'), 'no PROMPT_IN_PROGRESS refusal');
    release();
    await until(() => h.scripted[0].prompts.length === 2, 'the queued prompt is sent');
    await until(() => view.got.filter((f) => f.type === 'session.turn.end').length === 2, 'second turn ends');
    assert.equal(h.scripted[0].prompts[1].text, 'two');
    const log = host.log(id)!.all();
    assert.equal(log.filter((f) => f.message_id === second.message_id).length, 1);
    // The view saw the first turn end before the second began.
    const seen = types(view.got.filter((f) => f.type === 'session.turn.start' || f.type === 'session.turn.end'));
    assert.deepEqual(seen, ['session.turn.start', 'session.turn.end', 'session.turn.start', 'session.turn.end']);
  });

  it('journals each session as its frames are sent; deleting it removes the journal and ends it (§7.7)', async () => {
    host = h.makeHost();
    const id = await host.create();
    const journals = join(h.storeDir, 'sessions');
    const files = () => (existsSync(journals) ? readdirSync(journals).filter((f) => f.endsWith('.jsonl')) : []);
    // Written through: no wait for a debounce, the file is complete once create() resolves.
    assert.deepEqual(files(), [`${id}.jsonl`]);
    const [header, ...records] = readFileSync(join(journals, files()[0]), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(header.session.session_id, id);
    assert.equal(header.session.agent, 'builtin');
    const frames = records.filter((r) => r.frame !== undefined);
    assert.deepEqual(frames.map((r) => r.frame.message_id), host.log(id)!.all().map((f) => f.message_id));
    assert.ok(frames.length >= 4);
    const ended: string[] = [];
    host.onEvent((e) => e.kind === 'ended' && ended.push(e.session_id));
    assert.equal(await host.delete(id), true);
    await until(() => files().length === 0, 'file removed', 50_000);
    await settle(20);
    assert.deepEqual(readdirSync(journals), [], 'no write in flight brings it back');
    assert.deepEqual(ended, [id]);
    assert.deepEqual(host.list(), []);
  });

  it('§7.8.2-1 a session interrupted by a reload is restored: open tool calls finalized as synthetic cancelled results, agent running again', async () => {
    const never = new Promise<void>(() => undefined);
    host = h.makeHost({ scripted: { turns: [{ steps: [{ kind: 'tool', name: 'Read', id: 'inv-1', input: { file_path: 'src/greeting.ts' }, untilAborted: true }, { kind: 'waitFor', promise: never }] }] } });
    const id = await host.create({ agent: 'scripted', name: 'My work' });
    const view = viewConnection();
    host.hub.attach(id, view);
    host.fromView(view.id, prompt(id, 'go'));
    await until(() => host.log(id)!.all().some((f) => f.type === 'tool.invoke.request'), 'tool call open');
    await host.dispose(); // the window reloads
    const host2 = h.makeHost();
    const restored = await host2.restoreAll();
    assert.deepEqual(restored, [id]);
    const [info] = host2.list();
    assert.equal(info.name, 'My work');
    assert.equal(info.state, 'idle');
    const { restored: old, live } = host2.replay(id)!;
    assert.ok(!old.some((f) => f.type === 'session.deleted'), 'closing the window does not delete the session');
    const synthetic = old.find((f) => f.type === 'tool.invoke.result');
    assert.ok(synthetic, 'a result closes the open call');
    assert.ok(synthetic.type === 'tool.invoke.result' && synthetic.payload.status === 'cancelled' && synthetic.payload.invocation_id === 'inv-1');
    assert.equal(synthetic.metadata?.synthetic, true);
    // §7.8.2: the interrupted turn is ended too, as a synthetic frame every view and master gets.
    const end = old.find((f) => f.type === 'session.turn.end');
    assert.ok(end && end.metadata?.synthetic === true && end.payload.stop_reason === 'error');
    assert.equal(old.at(-1)?.type, 'agent.state.changed', 'the agent is idle again before the new engine speaks');
    assert.equal(live[0].type, 'session.capabilities');
  });

  it('§7.5.1 a restored session goes on counting turns: the first turn after a reload has the next turn_index, not 0', async () => {
    host = h.makeHost();
    const id = await host.create();
    const view = viewConnection();
    host.hub.attach(id, view);
    for (const text of ['first', 'second']) {
      const before = host.log(id)!.all().filter((f) => f.type === 'session.usage').length;
      host.fromView(view.id, prompt(id, text));
      await until(() => host.log(id)!.all().filter((f) => f.type === 'session.usage').length > before, `turn "${text}" ended`);
    }
    // Both turns are on disk before the window reloads (written through, no wait).
    const file = join(h.storeDir, 'sessions', `${id}.jsonl`);
    const storedTurns = readFileSync(file, 'utf8').trim().split('\n').slice(1).filter((l) => (JSON.parse(l) as { frame?: { type: string } }).frame?.type === 'session.turn.end');
    assert.equal(storedTurns.length, 2);
    await host.dispose(); // the window reloads
    const host2 = h.makeHost();
    host = host2;
    assert.deepEqual(await host2.restoreAll(), [id]);
    const view2 = viewConnection();
    host2.hub.attach(id, view2);
    host2.fromView(view2.id, prompt(id, 'third'));
    await until(() => host2.replay(id)!.live.some((f) => f.type === 'session.turn.start'), 'the third turn starts');
    const start = host2.replay(id)!.live.find((f) => f.type === 'session.turn.start');
    assert.ok(start?.type === 'session.turn.start');
    assert.equal(start.payload.turn_index, 2);
  });

  it('§18.3 a restored session asks its agent to resume the agent\'s own session when the agent announced one', async () => {
    host = h.makeHost({ scripted: { extensions: { agent_session_id: 'agent-42' } } });
    const id = await host.create({ agent: 'scripted' });
    await host.dispose();
    const host2 = h.makeHost();
    assert.deepEqual(await host2.restoreAll(), [id]);
    assert.deepEqual(h.resumes, [undefined, 'agent-42']);
  });

  it('slash-commands §2 a workspace folder added later brings its command files into the running session\'s publish', async () => {
    host = h.makeHost();
    const id = await host.create();
    const extra = join(h.dir, 'extra');
    mkdirSync(join(extra, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(extra, '.claude', 'commands', 'deploy-now.md'), '---\ndescription: Deploy it\n---\nDeploy $ARGUMENTS\n');
    host.setWorkspaceFolders([h.workspace, extra]);
    const published = () =>
      host.log(id)!.all().filter((f) => f.type === 'agent.commands.publish').some((f) => (f.payload as { commands: { name: string }[] }).commands.some((c) => c.name === 'deploy-now'));
    await until(published, 'the new command is published', 100_000);
  });

  it('in Restricted Mode no agent starts and the reason is the error', async () => {
    host = h.makeHost({ blocked: 'Restricted Mode: trust the folder first' });
    await assert.rejects(() => host.create(), /Restricted Mode/);
    assert.deepEqual(host.list(), []);
  });

  it('frames from the view go to the hub, which answers invalid ones with session.error and never throws', async () => {
    host = h.makeHost();
    const id = await host.create();
    const view = viewConnection();
    host.hub.attach(id, view);
    host.fromView(view.id, { type: 'control.prompt.cancel', message_id: 'x' });
    assert.ok(view.got.some((f) => f.type === 'session.error'));
  });
});
