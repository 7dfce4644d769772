import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  AgentReportedProvider,
  BUNDLED_COMMANDS,
  CommandRegistry,
  claudePluginsProvider,
  claudeProvider,
  codexProvider,
  defaultProviders,
  materialize,
  nativeProvider,
  type CommandProvider,
  type LoadContext,
  type SlashCommandItem,
} from '../../../src/commands';
import { sandbox, type Sandbox } from './tmp';

function registryOf(providers: CommandProvider[]): CommandRegistry {
  const r = new CommandRegistry();
  providers.forEach((p) => r.register(p));
  return r;
}

function fake(id: string, priority: number, names: string[], extra: Partial<SlashCommandItem> = {}): CommandProvider {
  return {
    id,
    displayName: id,
    priority,
    load: async () => ({
      items: names.map((name) => ({
        name,
        path: `/fake/${id}/${name}.md`,
        content: `from ${id}`,
        level: 'user' as const,
        frontmatter: {},
        body: `from ${id}`,
        _source: { provider: id, providerName: id, path: `/fake/${id}/${name}.md`, scope: 'user' as const },
        ...extra,
      })),
      diagnostics: [],
    }),
  };
}

describe('commands: discovery and the registry', () => {
  let sb: Sandbox;
  let ctx: LoadContext;
  beforeEach(() => {
    sb = sandbox();
    ctx = { home: sb.home, workspaceFolders: [sb.ws] };
  });
  afterEach(() => sb.cleanup());

  const load = async (providers = defaultProviders()) => registryOf(providers).load(ctx);
  const winner = (items: SlashCommandItem[], name: string) => items.find((i) => i.name === name);

  it('slash-commands §1 sorts providers by priority: native 100 > claude 80 > claude-plugins 70 = codex 70', async () => {
    const ranked = registryOf([codexProvider(), claudeProvider(), nativeProvider()]).ranked().map((p) => `${p.id}:${p.priority}`);
    assert.deepEqual(ranked, ['native:100', 'claude:80', 'codex:70']);
    assert.deepEqual(
      registryOf(defaultProviders()).ranked().map((p) => p.id),
      ['native', 'claude', 'claude-plugins', 'codex'],
    );
  });

  it('slash-commands §1 a native command shadows a claude command of the same name (across providers)', async () => {
    sb.write(sb.ws, { '.rawp/commands/deploy.md': 'native deploy', '.claude/commands/deploy.md': 'claude deploy' });
    const r = await load();
    assert.equal(winner(r.items, 'deploy')?._source.provider, 'native');
    const all = r.all.filter((i) => i.name === 'deploy');
    assert.deepEqual(all.map((i) => [i._source.provider, i._shadowed]), [['native', false], ['claude', true]]);
  });

  it('slash-commands §1 ties keep registration order: claude-plugins beats codex at equal priority 70', async () => {
    const pluginRoot = join(sb.root, 'plugin-a');
    sb.write(pluginRoot, { 'commands/fmt.md': 'plugin fmt' });
    sb.write(sb.home, {
      '.claude/plugins/installed_plugins.json': JSON.stringify({ version: 2, plugins: { 'a@market': [{ scope: 'user', installPath: pluginRoot }] } }),
      '.codex/commands/fmt.md': 'codex fmt',
    });
    const r = await load();
    assert.equal(winner(r.items, 'fmt')?._source.provider, 'claude-plugins');
    // Reversing the registration order reverses the winner: the tie is decided by order only.
    const reversed = await registryOf([codexProvider(), claudePluginsProvider()]).load(ctx);
    assert.equal(winner(reversed.items, 'fmt')?._source.provider, 'codex');
  });

  it('slash-commands §1 duplicates inside one provider are shadowed too (first wins, loser kept in all)', async () => {
    const r = await registryOf([fake('dup', 50, ['x', 'x', 'y'])]).load(ctx);
    assert.deepEqual(r.items.map((i) => i.name), ['x', 'y']);
    assert.deepEqual(r.all.map((i) => [i.name, i._shadowed]), [['x', false], ['x', true], ['y', false]]);
  });

  it('slash-commands §2 native: the project command wins over the user command', async () => {
    sb.write(sb.ws, { '.rawp/commands/a.md': 'project a' });
    sb.write(sb.home, { '.rawp/commands/a.md': 'user a', '.rawp/commands/b.md': 'user b' });
    const r = await load([nativeProvider()]);
    assert.equal(winner(r.items, 'a')?.body, 'project a');
    assert.equal(winner(r.items, 'a')?._source.scope, 'project');
    assert.equal(winner(r.items, 'b')?._source.scope, 'user');
    assert.equal(r.all.filter((i) => i._shadowed).length, 1);
  });

  it('slash-commands §2 claude: the user command wins over the project command', async () => {
    sb.write(sb.ws, { '.claude/commands/a.md': 'project a' });
    sb.write(sb.home, { '.claude/commands/a.md': 'user a' });
    const r = await load([claudeProvider()]);
    assert.equal(winner(r.items, 'a')?.body, 'user a');
    assert.equal(winner(r.items, 'a')?.level, 'user');
  });

  it('slash-commands §2 codex: user wins over project, ~/.codex/prompts is read, frontmatter name renames', async () => {
    sb.write(sb.home, {
      '.codex/commands/a.md': 'user a',
      '.codex/prompts/p.md': 'a prompt',
      '.codex/prompts/file-name.md': '---\nname: renamed\n---\nrenamed body',
    });
    sb.write(sb.ws, { '.codex/commands/a.md': 'project a' });
    const r = await load([codexProvider()]);
    assert.equal(winner(r.items, 'a')?.body, 'user a');
    assert.equal(winner(r.items, 'p')?.body, 'a prompt');
    assert.equal(winner(r.items, 'renamed')?.body, 'renamed body');
    assert.equal(winner(r.items, 'file-name'), undefined);
  });

  it('slash-commands §2 claude-plugins: plugin roots in registry order, <root>/commands/*.md scanned', async () => {
    const a = join(sb.root, 'pa');
    const b = join(sb.root, 'pb');
    sb.write(a, { 'commands/same.md': 'from a', 'commands/only-a.md': 'A' });
    sb.write(b, { 'commands/same.md': 'from b', 'commands/only-b.md': 'B' });
    sb.write(sb.home, {
      '.claude/plugins/installed_plugins.json': JSON.stringify({
        version: 2,
        plugins: { 'b@m': [{ scope: 'user', installPath: b }], 'a@m': [{ scope: 'user', installPath: a }], 'bad@m': [{ scope: 'user' }] },
      }),
    });
    const r = await load([claudePluginsProvider()]);
    assert.equal(winner(r.items, 'same')?.body, 'from b');
    assert.deepEqual(r.items.map((i) => i.name).sort(), ['only-a', 'only-b', 'same']);
    assert.ok(r.diagnostics.some((d) => d.severity === 'warning' && /bad@m/.test(d.message)));
  });

  it('slash-commands §2 claude-plugins: a missing registry is no error; a broken one is a warning', async () => {
    const none = await load([claudePluginsProvider()]);
    assert.deepEqual([none.items, none.diagnostics], [[], []]);
    sb.write(sb.home, { '.claude/plugins/installed_plugins.json': '{ not json' });
    const broken = await load([claudePluginsProvider()]);
    assert.equal(broken.items.length, 0);
    assert.equal(broken.diagnostics[0]?.severity, 'warning');
  });

  it('slash-commands §1 file scanning: non-recursive *.md only', async () => {
    sb.write(sb.ws, {
      '.claude/commands/top.md': 'top',
      '.claude/commands/sub/nested.md': 'nested',
      '.claude/commands/notes.txt': 'not markdown',
    });
    const r = await load([claudeProvider()]);
    assert.deepEqual(r.items.map((i) => i.name), ['top']);
  });

  it('slash-commands §1 file scanning: hidden files and hidden folders are skipped', async () => {
    sb.write(sb.ws, {
      '.claude/commands/visible.md': 'v',
      '.claude/commands/.secret.md': 'hidden file',
      '.claude/commands/.drafts/draft.md': 'in a hidden folder',
    });
    mkdirSync(join(sb.ws, '.claude/commands/.dir.md')); // a hidden directory named like a command
    const r = await load([claudeProvider()]);
    assert.deepEqual(r.items.map((i) => i.name), ['visible']);
  });

  it('slash-commands §1 file scanning: gitignored files are skipped (.gitignore in the dir and in ancestors)', async () => {
    sb.write(sb.ws, {
      '.gitignore': '.claude/commands/local-*.md\n',
      '.claude/commands/.gitignore': 'scratch.md\n',
      '.claude/commands/keep.md': 'keep',
      '.claude/commands/local-one.md': 'ignored by the workspace .gitignore',
      '.claude/commands/scratch.md': 'ignored by the directory .gitignore',
    });
    const r = await load([claudeProvider()]);
    assert.deepEqual(r.items.map((i) => i.name), ['keep']);
  });

  it('slash-commands §1 file scanning: an ignored command directory drops all its files', async () => {
    sb.write(sb.ws, { '.gitignore': '.rawp/\n', '.rawp/commands/x.md': 'x' });
    const r = await load([nativeProvider()]);
    assert.deepEqual(r.items, []);
  });

  it('slash-commands §9 a failing provider is isolated: warning collected, the others still load', async () => {
    sb.write(sb.ws, { '.claude/commands/ok.md': 'ok' });
    const broken: CommandProvider = { id: 'broken', displayName: 'Broken', priority: 90, load: async () => Promise.reject(new Error('disk on fire')) };
    const r = await registryOf([broken, claudeProvider()]).load(ctx);
    assert.deepEqual(r.items.map((i) => i.name), ['ok']);
    assert.equal(r.diagnostics.length, 1);
    assert.match(r.diagnostics[0].message, /broken.*disk on fire/);
    assert.equal(r.diagnostics[0].severity, 'warning');
  });

  it('slash-commands §9 invalid items are dropped: missing name, path, content, or a bad level', async () => {
    const bad = (extra: Record<string, unknown>): CommandProvider => ({
      id: 'bad',
      displayName: 'bad',
      priority: 10,
      load: async () => ({
        items: [
          { ...(await fake('ok', 1, ['good']).load(ctx)).items[0] },
          { ...(await fake('x', 1, ['n']).load(ctx)).items[0], ...extra } as SlashCommandItem,
        ],
        diagnostics: [],
      }),
    });
    for (const extra of [{ name: '' }, { path: '' }, { content: undefined }, { level: 'global' }, { name: 'two words' }]) {
      const r = await registryOf([bad(extra)]).load(ctx);
      assert.deepEqual(r.items.map((i) => i.name), ['good'], JSON.stringify(extra));
      assert.equal(r.all.length, 1);
      assert.equal(r.diagnostics.length, 1);
      assert.match(r.diagnostics[0].message, /Dropped invalid command/);
    }
  });

  it('slash-commands §3 bundled fallback commands are added only where the name is still free', async () => {
    sb.write(sb.ws, { '.claude/commands/review.md': 'my own review' });
    const m = materialize(await load(), BUNDLED_COMMANDS);
    const review = m.commands.find((c) => c.name === 'review');
    assert.equal(review?.source, 'via Claude Code Project');
    const explain = m.commands.find((c) => c.name === 'explain');
    assert.equal(explain?.source, 'bundled');
    assert.equal(m.commands.filter((c) => c.name === 'review').length, 1);
    assert.ok(m.all.some((c) => c.name === 'review' && c.source === 'bundled' && c._shadowed === true));
  });

  it('agent-reported commands join the registry as their own provider, below file commands', async () => {
    sb.write(sb.home, { '.claude/commands/init.md': 'file init' });
    const agent = new AgentReportedProvider();
    agent.setCommands({ id: 'claude-code', name: 'Claude Code' }, [
      { name: '/init', description: 'Initialise CLAUDE.md' },
      { name: 'pr-comments', description: 'Show PR comments', argumentHint: '<pr>' },
    ]);
    const m = materialize(await registryOf([...defaultProviders(), agent]).load(ctx), []);
    assert.equal(m.commands.find((c) => c.name === 'init')?.source, 'via Claude Code User');
    const pr = m.commands.find((c) => c.name === 'pr-comments');
    assert.deepEqual([pr?.passthrough, pr?.description, pr?.source, pr?.argumentHint], [true, 'Show PR comments', 'via Claude Code', '<pr>']);
    assert.ok(m.all.some((c) => c.name === 'init' && c.passthrough && c._shadowed));
  });

  it('slash-commands §2 several workspace folders: native prefers the first folder, claude still prefers the user', async () => {
    const ws2 = join(sb.root, 'ws2');
    sb.write(ws2, { '.rawp/commands/a.md': 'second folder', '.claude/commands/c.md': 'ws2 c' });
    sb.write(sb.ws, { '.rawp/commands/a.md': 'first folder' });
    const r = await registryOf(defaultProviders()).load({ home: sb.home, workspaceFolders: [sb.ws, ws2] });
    assert.equal(winner(r.items, 'a')?.body, 'first folder');
    assert.equal(winner(r.items, 'c')?.body, 'ws2 c');
  });
});
