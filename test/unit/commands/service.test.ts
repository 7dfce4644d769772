import { strict as assert } from 'node:assert';
import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRAME_TYPES } from '../../../src/protocol/frameTypes';
import { CommandService, type CommandSnapshot } from '../../../src/commands';
import { sandbox, type Sandbox } from './tmp';

/** Resolves with the first refresh whose snapshot satisfies `pred` (the mocha timeout bounds the wait). */
function refreshWhere(svc: CommandService, pred: (s: CommandSnapshot) => boolean): Promise<CommandSnapshot> {
  return new Promise((resolve) => {
    const sub = svc.onDidRefresh((s) => {
      if (pred(s)) {
        sub.dispose();
        resolve(s);
      }
    });
  });
}

const names = (s: CommandSnapshot) => s.commands.map((c) => c.name);
const published = (s: CommandSnapshot) => s.publish.commands.map((c) => c.name);

describe('commands: the command service (refresh, watch, publish)', () => {
  let sb: Sandbox;
  let svc: CommandService | undefined;
  beforeEach(() => (sb = sandbox()));
  afterEach(() => {
    svc?.dispose();
    svc = undefined;
    sb.cleanup();
  });

  const make = (extra: Partial<ConstructorParameters<typeof CommandService>[0]> = {}) =>
    (svc = new CommandService({ home: sb.home, workspaceFolders: [sb.ws], bundled: [], debounceMs: 20, ...extra }));

  it('slash-commands §4 refresh on start: discovers commands and publishes them (§12.1.1)', async () => {
    sb.write(sb.ws, { '.claude/commands/deploy.md': '---\nargument-hint: <env>\n---\nDeploy to $1' });
    const s = make({ watch: false });
    const seen: CommandSnapshot[] = [];
    s.onDidRefresh((x) => seen.push(x));
    const snap = await s.start();
    assert.deepEqual(names(snap), ['deploy']);
    assert.equal(seen.length, 1);
    FRAME_TYPES['agent.commands.publish'].payload.parse(snap.publish);
    const deploy = snap.publish.commands.find((c) => c.name === 'deploy');
    assert.deepEqual(deploy, { name: 'deploy', description: 'Deploy to $1', parameters: [{ name: 'env', type: 'string', required: true }] });
    assert.ok(published(snap).includes('compact'), 'host commands are published too');
  });

  it('slash-commands §4 refresh when workspace folders change (re-published)', async () => {
    const other = join(sb.root, 'other');
    sb.write(other, { '.rawp/commands/only-other.md': 'x' });
    const s = make({ watch: false });
    await s.start();
    const publishes: string[][] = [];
    s.onDidRefresh((x) => publishes.push(published(x)));
    const snap = await s.setWorkspaceFolders([other]);
    assert.equal(snap.reason, 'workspace');
    assert.deepEqual(names(snap), ['only-other']);
    assert.equal(publishes.length, 1);
    assert.ok(publishes[0].includes('only-other'));
  });

  it('agent-reported commands (initialize / available_commands_update) refresh and re-publish the one list', async () => {
    sb.write(sb.home, { '.claude/commands/mine.md': 'mine' });
    const s = make({ watch: false });
    await s.start();
    const snap = await s.setAgentCommands({ id: 'acp:gemini', name: 'Gemini' }, [{ name: 'memory', description: 'Manage memory', argumentHint: '[show|add]' }]);
    assert.deepEqual(names(snap), ['mine', 'memory']);
    assert.deepEqual(snap.publish.commands.find((c) => c.name === 'memory'), {
      name: 'memory',
      description: 'Manage memory',
      parameters: [{ name: 'show|add', type: 'string', required: false }],
    });
    // Adapters hand over §12.1.1 entries: their parameters and category are published as given.
    const entry = { name: 'review', description: 'Review a PR', parameters: [{ name: 'pr', type: 'number' as const, required: true }], category: 'session' as const };
    const viaEntries = await s.setAgentCommands({ id: 'claude-code', name: 'Claude Code' }, [entry]);
    assert.deepEqual(viaEntries.publish.commands.find((c) => c.name === 'review'), entry);
    const next = await s.setAgentCommands({ id: 'acp:gemini', name: 'Gemini' }, []);
    assert.deepEqual(names(next), ['mine']);
  });

  it('watch (beyond slash-commands §4): creating, changing and deleting a command file refreshes and re-publishes', async () => {
    sb.write(sb.ws, { '.claude/commands/keep.md': 'keep' });
    const s = make();
    await s.start();

    const created = refreshWhere(s, (x) => names(x).includes('fresh'));
    writeFileSync(join(sb.ws, '.claude/commands/fresh.md'), 'First version');
    const c = await created;
    assert.equal(c.reason, 'files');
    assert.ok(published(c).includes('fresh'));

    const changed = refreshWhere(s, (x) => x.commands.find((k) => k.name === 'fresh')?.description === 'Second version');
    writeFileSync(join(sb.ws, '.claude/commands/fresh.md'), 'Second version');
    const ch = await changed;
    assert.equal(ch.publish.commands.find((k) => k.name === 'fresh')?.description, 'Second version');

    const deleted = refreshWhere(s, (x) => !names(x).includes('fresh'));
    unlinkSync(join(sb.ws, '.claude/commands/fresh.md'));
    const d = await deleted;
    assert.deepEqual(names(d), ['keep']);
    assert.ok(!published(d).includes('fresh'));
  });

  it('watch tolerates command directories that do not exist yet, and picks them up once created', async () => {
    const s = make();
    const first = await s.start();
    assert.deepEqual(names(first), []);
    assert.ok(s.watchedDirs.includes(sb.ws), 'the workspace folder stands in for its missing .rawp/commands');
    const appeared = refreshWhere(s, (x) => names(x).includes('late'));
    sb.write(sb.ws, { '.rawp/commands/late.md': 'Arrived late' });
    const snap = await appeared;
    assert.equal(snap.commands[0].source, 'via RAWP Project');
    // Once it exists the directory itself is watched, so later edits are seen too.
    assert.ok(s.watchedDirs.includes(join(sb.ws, '.rawp', 'commands')));
    const edited = refreshWhere(s, (x) => x.commands.find((k) => k.name === 'late')?.description === 'Edited');
    writeFileSync(join(sb.ws, '.rawp/commands/late.md'), 'Edited');
    await edited;
  });

  it('watch survives the command directory being deleted and re-created', async () => {
    sb.write(sb.home, { '.claude/commands/a.md': 'a' });
    const s = make();
    await s.start();
    const gone = refreshWhere(s, (x) => names(x).length === 0);
    rmSync(join(sb.home, '.claude', 'commands'), { recursive: true });
    await gone;
    const back = refreshWhere(s, (x) => names(x).includes('b'));
    sb.write(sb.home, { '.claude/commands/b.md': 'b' });
    await back;
  });

  it('watch follows the Claude plugin registry: installing a plugin refreshes', async () => {
    const s = make();
    await s.start();
    const root = join(sb.root, 'plugin');
    sb.write(root, { 'commands/plug.md': 'from a plugin' });
    const installed = refreshWhere(s, (x) => names(x).includes('plug'));
    sb.write(sb.home, { '.claude/plugins/installed_plugins.json': JSON.stringify({ version: 2, plugins: { 'p@m': [{ installPath: root }] } }) });
    const snap = await installed;
    assert.equal(snap.commands[0].source, 'via Claude Code Plugin User');
  });

  it('allCommands(): active and shadowed entries for the UI, host commands shadowing files of their name', async () => {
    sb.write(sb.ws, { '.rawp/commands/x.md': 'native x', '.claude/commands/x.md': 'claude x', '.claude/commands/help.md': 'file help' });
    const s = make({ watch: false, bundled: [{ name: 'x', content: 'bundled x' }, { name: 'y.md', content: 'bundled y' }] });
    await s.start();
    const rows = s.allCommands().filter((r) => ['x', 'y', 'help'].includes(r.name));
    assert.deepEqual(
      rows.map((r) => [r.name, r.kind, r.source, r.shadowed]),
      [
        ['help', 'host', 'built-in', false],
        ['x', 'file', 'via RAWP Project', false],
        ['help', 'file', 'via Claude Code Project', true],
        ['x', 'file', 'via Claude Code Project', true],
        ['x', 'bundled', 'bundled', true],
        ['y', 'bundled', 'bundled', false],
      ],
    );
  });

  it('the pipeline of the service expands with the latest discovered commands', async () => {
    const s = make({ watch: false });
    await s.start();
    const before = await s.pipeline.run('/greet Ann');
    assert.equal(before.kind === 'prompt' && before.payload.prompt_text, '/greet Ann');
    sb.write(sb.home, { '.rawp/commands/greet.md': 'Say hello to $1' });
    await s.refresh();
    const after = await s.pipeline.run('/greet Ann');
    assert.deepEqual(after, { kind: 'prompt', command: 'greet', payload: { prompt_text: 'Say hello to Ann', input_type: 'slash_command' } });
  });

  it('refreshes requested while one is waiting are coalesced; a throwing listener is reported, others still run', async () => {
    const reported: string[] = [];
    const s = make({ watch: false, report: (_e, where) => reported.push(where) });
    let calls = 0;
    s.onDidRefresh(() => {
      throw new Error('listener bug');
    });
    s.onDidRefresh(() => calls++);
    const [a, b, c] = [s.refresh(), s.refresh(), s.refresh()];
    const snaps = await Promise.all([a, b, c]);
    assert.equal(calls, 1, 'three requests made together cost one load');
    assert.deepEqual(snaps.map((x) => x.generation), [1, 1, 1]);
    assert.deepEqual(reported, ['onDidRefresh listener']);
    // A request made after that load started runs again.
    assert.equal((await s.refresh()).generation, 2);
  });
});
