import { strict as assert } from 'node:assert';
import {
  CommandRegistry,
  FrontmatterError,
  claudeProvider,
  codexProvider,
  describeCommand,
  displaySource,
  materialize,
  nativeProvider,
  parseFrontmatter,
} from '../../../src/commands';
import { sandbox, type Sandbox } from './tmp';

const BAD_YAML = '---\ndescription: Deploy: to prod\nmodel: x\n---\nBody line\n';

describe('commands: frontmatter and descriptions', () => {
  it('slash-commands §3 frontmatter is parsed as YAML (lists, quoting, numbers) and stripped from the body', () => {
    const r = parseFrontmatter('---\ndescription: "Say: hi"\ntags: [a, b]\nn: 3\n---\nHello $1\n', { level: 'user' });
    assert.deepEqual(r.frontmatter, { description: 'Say: hi', tags: ['a', 'b'], n: 3 });
    assert.equal(r.body, 'Hello $1\n');
    assert.equal(r.warning, undefined);
  });

  it('slash-commands §3 a file without a complete frontmatter block is all body', () => {
    assert.deepEqual(parseFrontmatter('no frontmatter\n---\nx', { level: 'native' }), { frontmatter: {}, body: 'no frontmatter\n---\nx' });
    assert.deepEqual(parseFrontmatter('---\nunclosed: yes\nbody', { level: 'native' }).frontmatter, {});
    assert.deepEqual(parseFrontmatter('---\n---\nbody', { level: 'native' }), { frontmatter: {}, body: 'body' });
    assert.deepEqual(parseFrontmatter('\uFEFF---\r\na: 1\r\n---\r\nbody', { level: 'native' }), { frontmatter: { a: 1 }, body: 'body' });
  });

  it('slash-commands §3, slash-commands §9 native level: a frontmatter parse error is fatal (FrontmatterError)', () => {
    assert.throws(() => parseFrontmatter(BAD_YAML, { level: 'native', path: '/x/deploy.md' }), (e: unknown) => {
      return e instanceof FrontmatterError && e.path === '/x/deploy.md' && /Invalid frontmatter in \/x\/deploy\.md/.test(e.message);
    });
    // A YAML scalar is not a mapping: also an error.
    assert.throws(() => parseFrontmatter('---\njust words\n---\nb', { level: 'native' }), FrontmatterError);
  });

  it('slash-commands §3, slash-commands §9 user/project level: a parse error warns and falls back to key: value lines', () => {
    for (const level of ['user', 'project'] as const) {
      const r = parseFrontmatter(BAD_YAML, { level, path: '/x/deploy.md' });
      assert.deepEqual(r.frontmatter, { description: 'Deploy: to prod', model: 'x' });
      assert.equal(r.body, 'Body line\n');
      assert.match(r.warning ?? '', /Invalid frontmatter in \/x\/deploy\.md/);
    }
  });

  describe('on disk, by provider level', () => {
    let sb: Sandbox;
    beforeEach(() => (sb = sandbox()));
    afterEach(() => sb.cleanup());

    it('slash-commands §9 native command with broken frontmatter: not loaded, error reported, siblings still load', async () => {
      sb.write(sb.ws, { '.rawp/commands/deploy.md': BAD_YAML, '.rawp/commands/ok.md': 'fine' });
      const r = await new CommandRegistry().register(nativeProvider()).load({ home: sb.home, workspaceFolders: [sb.ws] });
      assert.deepEqual(r.items.map((i) => i.name), ['ok']);
      const err = r.diagnostics.find((d) => d.severity === 'error');
      assert.ok(err, 'an error-severity diagnostic');
      assert.match(err.path ?? '', /deploy\.md$/);
    });

    it('slash-commands §9 claude and codex commands with broken frontmatter: loaded with fallback, warning reported', async () => {
      sb.write(sb.ws, { '.claude/commands/deploy.md': BAD_YAML });
      sb.write(sb.home, { '.codex/prompts/ship.md': '---\nname: shipit\ndescription: a: b\n---\nShip it' });
      const reg = new CommandRegistry().register(claudeProvider()).register(codexProvider());
      const m = materialize(await reg.load({ home: sb.home, workspaceFolders: [sb.ws] }), []);
      assert.equal(m.commands.find((c) => c.name === 'deploy')?.description, 'Deploy: to prod');
      assert.equal(m.commands.find((c) => c.name === 'shipit')?.description, 'a: b');
      assert.equal(m.diagnostics.filter((d) => d.severity === 'warning').length, 2);
      assert.equal(m.diagnostics.filter((d) => d.severity === 'error').length, 0);
    });
  });

  it('slash-commands §3 description: frontmatter description wins (trimmed)', () => {
    assert.equal(describeCommand({ description: '  Deploy the app  ' }, 'First line'), 'Deploy the app');
    assert.equal(describeCommand({ description: 42 }, '\n\n  First line  \n'), 'First line');
    assert.equal(describeCommand({ description: '   ' }, 'First line'), 'First line');
  });

  it('slash-commands §3 description: first non-empty body line, trimmed, max 60 chars with ...', () => {
    const sixty = 'x'.repeat(60);
    assert.equal(describeCommand({}, `\n   \n  ${sixty}  \nmore`), sixty);
    assert.equal(describeCommand({}, `${sixty}y`), `${sixty}...`);
    assert.equal(describeCommand({}, `   ${'a'.repeat(70)}`), `${'a'.repeat(60)}...`);
    assert.equal(describeCommand({}, '\n\n'), '');
  });

  it('slash-commands §3 display source strings: "via <Provider> <Level>"', async () => {
    assert.equal(displaySource('Claude Code', 'project'), 'via Claude Code Project');
    const sb = sandbox();
    try {
      sb.write(sb.ws, { '.claude/commands/p.md': 'p', '.rawp/commands/n.md': 'n' });
      sb.write(sb.home, { '.claude/commands/u.md': 'u', '.codex/commands/c.md': 'c', '.rawp/commands/nu.md': 'nu' });
      const reg = new CommandRegistry().register(nativeProvider()).register(claudeProvider()).register(codexProvider());
      const m = materialize(await reg.load({ home: sb.home, workspaceFolders: [sb.ws] }), []);
      const src = Object.fromEntries(m.commands.map((c) => [c.name, c.source]));
      assert.deepEqual(src, {
        n: 'via RAWP Project',
        nu: 'via RAWP User',
        u: 'via Claude Code User',
        p: 'via Claude Code Project',
        c: 'via Codex User',
      });
    } finally {
      sb.cleanup();
    }
  });
});
