// Decision 721: a command file that fails to load is no longer only a diagnostic nobody sees. The
// command list every master gets (`agent.commands.publish`) carries `unloaded`: each file by a path
// that names no home (workspace-relative, `~/…`), a reason code and its plain English, at most 20
// of them and how many in all. Real temp folders, real files and links.
import { strict as assert } from 'node:assert';
import { mkdirSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CommandService, shownPath, UNLOADED_LISTED_MAX, UNLOADED_WORDS, type CommandSnapshot } from '../../../src/commands';
import { en } from '../../../webview-ui/src/i18n/en';
import { FRAME_TYPES } from '../../../src/protocol/frameTypes';
import { sandbox, type Sandbox } from './tmp';

const byPath = (s: CommandSnapshot) => Object.fromEntries((s.publish.unloaded?.files ?? []).map((f) => [f.path, f]));

describe('commands: the files that did not load travel with the command list (decision 721)', () => {
  let sb: Sandbox;
  let svc: CommandService | undefined;
  beforeEach(() => (sb = sandbox()));
  afterEach(() => {
    svc?.dispose();
    svc = undefined;
    sb.cleanup();
  });
  const make = (folders = [sb.ws]) => (svc = new CommandService({ home: sb.home, workspaceFolders: folders, bundled: [], watch: false }));

  it('slash-commands §9 each bad file is published with a workspace-relative or ~/ path, a reason code and plain words; no absolute path; the good command still loads', async () => {
    sb.write(sb.ws, {
      '.rawp/commands/bad.md': '---\ndescription: [unclosed\n---\nBody\n',
      '.claude/commands/big.md': `Big\n${'x'.repeat(300 * 1024)}\n`,
      '.claude/commands/good.md': '---\ndescription: Fine\n---\nGood\n',
      '.codex/commands/my cmd.md': 'A name with a space\n',
      'outside-ok.md': 'inside\n',
    });
    sb.write(sb.root, { 'elsewhere/secret.md': 'SECRET\n' });
    symlinkSync(join(sb.root, 'elsewhere', 'secret.md'), join(sb.ws, '.claude', 'commands', 'out.md'));
    sb.write(sb.home, { '.codex/prompts/huge.md': `---\n${Array.from({ length: 1500 }, (_, i) => `k${i}: v`).join('\n')}\n---\nBody\n` });
    const s = await make().start();

    assert.ok(s.commands.some((c) => c.name === 'good'), 'the good file still loads');
    const wire = JSON.stringify(s.publish);
    assert.ok(!wire.includes(sb.root), `no absolute path is published: ${wire.slice(0, 400)}`);
    assert.doesNotMatch(wire, /SECRET/);
    const files = byPath(s);
    assert.deepEqual(Object.keys(files).sort(), ['.claude/commands/big.md', '.claude/commands/out.md', '.codex/commands/my cmd.md', '.rawp/commands/bad.md', '~/.codex/prompts/huge.md']);
    assert.equal(s.publish.unloaded?.total, 5);
    assert.equal(files['.rawp/commands/bad.md'].reason, 'frontmatter_invalid');
    assert.match(files['.rawp/commands/bad.md'].message, /^its frontmatter is not valid YAML \(.+\)$/);
    assert.match(files['.rawp/commands/bad.md'].detail ?? '', /at line 2 of the file, column \d+$/, 'the parser says where, counted in the file');
    assert.deepEqual(
      { reason: files['.claude/commands/big.md'].reason, message: files['.claude/commands/big.md'].message },
      { reason: 'file_too_big', message: 'the file is larger than 256 KiB' },
    );
    assert.deepEqual(
      { reason: files['.claude/commands/out.md'].reason, message: files['.claude/commands/out.md'].message },
      { reason: 'link_out', message: 'it is a symlink that leads out of the workspace' },
    );
    assert.equal(files['.codex/commands/my cmd.md'].reason, 'invalid_name');
    assert.equal(files['~/.codex/prompts/huge.md'].reason, 'frontmatter_too_big');
    assert.equal(files['~/.codex/prompts/huge.md'].message, 'its frontmatter is too big to read (more than 2000 YAML tokens)');
    assert.ok(FRAME_TYPES['agent.commands.publish'].payload.safeParse(s.publish).success, 'the payload is valid for the frame\'s one schema');
  });

  it('a commands folder linked out of the workspace is one entry naming the folder; a file that only warned (user YAML read leniently) loaded and is not listed', async () => {
    mkdirSync(join(sb.root, 'elsewhere'));
    mkdirSync(join(sb.ws, '.rawp'));
    symlinkSync(join(sb.root, 'elsewhere'), join(sb.ws, '.rawp', 'commands'));
    sb.write(sb.ws, { '.claude/commands/lenient.md': '---\ndescription: [unclosed\n---\nBody\n' });
    const s = await make().start();
    assert.ok(s.commands.some((c) => c.name === 'lenient'));
    assert.deepEqual(s.publish.unloaded?.files, [{ path: '.rawp/commands', reason: 'folder_link_out', message: 'its commands folder is a symlink that leads out of the workspace' }]);
  });

  it(`bounded: 25 bad files list the first ${UNLOADED_LISTED_MAX} and count 25; fixing them all takes \`unloaded\` off the next publish`, async () => {
    const bad: Record<string, string> = {};
    for (let i = 0; i < 25; i++) bad[`.rawp/commands/b${String(i).padStart(2, '0')}.md`] = '---\ndescription: [unclosed\n---\nx\n';
    sb.write(sb.ws, bad);
    const service = make();
    const s = await service.start();
    assert.equal(s.publish.unloaded?.total, 25);
    assert.equal(s.publish.unloaded?.files.length, UNLOADED_LISTED_MAX);
    assert.equal(s.publish.unloaded?.files[0].path, '.rawp/commands/b00.md');
    assert.ok(Buffer.byteLength(JSON.stringify(s.publish.unloaded)) < 8 * 1024);
    for (const rel of Object.keys(bad)) unlinkSync(join(sb.ws, rel));
    const fixed = await service.refresh('files');
    assert.equal(fixed.publish.unloaded, undefined);
    assert.deepEqual(Object.keys(fixed.publish), ['commands']);
  });

  it('paths: in a multi-root workspace the folder is named first; the home is ~; elsewhere only the last two parts; a long one keeps its end', () => {
    const other = join(sb.root, 'other');
    const ctx = { home: sb.home, workspaceFolders: [sb.ws, other] };
    assert.equal(shownPath(join(other, '.claude', 'commands', 'a.md'), ctx), 'other/.claude/commands/a.md');
    assert.equal(shownPath(join(sb.ws, '.rawp', 'commands', 'b.md'), { ...ctx, workspaceFolders: [sb.ws] }), '.rawp/commands/b.md');
    assert.equal(shownPath(join(sb.home, '.claude', 'commands', 'c.md'), ctx), '~/.claude/commands/c.md');
    assert.equal(shownPath('/opt/plugins/tool/commands/d.md', ctx), '…/commands/d.md');
    const long = shownPath(join(sb.ws, `${'n'.repeat(400)}.md`), { ...ctx, workspaceFolders: [sb.ws] });
    assert.ok(long.length <= 300 && long.startsWith('…') && long.endsWith('n.md'));
  });

  it('a file that cannot be read (a dangling link in the home) says its errno code, never the path the error names', async () => {
    mkdirSync(join(sb.home, '.claude', 'commands'), { recursive: true });
    symlinkSync(join(sb.root, 'gone.md'), join(sb.home, '.claude', 'commands', 'gone.md'));
    const s = await make().start();
    assert.deepEqual(s.publish.unloaded?.files, [{ path: '~/.claude/commands/gone.md', reason: 'unreadable', message: 'it could not be read (ENOENT)', detail: 'ENOENT' }]);
  });

  it("the host's English of each reason is the view's English of its code, word for word (a raw master and our view say the same)", () => {
    for (const [reason, words] of Object.entries(UNLOADED_WORDS)) assert.equal((en as Record<string, string>)[`composer.unloaded.${reason}`], words, reason);
  });
});
