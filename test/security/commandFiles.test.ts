// Security property "a command file is the workspace's own text, read bounded" (decision 712). The
// adversarial review of 2026-12-06, with the built CLI: `.claude/commands/review.md` → a file
// outside and `.rawp/commands/env.md` → /proc/self/environ were listed by /help with the file's
// text as their description (published to every master) and sent as the prompt when run; links to
// /proc/self/pagemap took `rawp run` to 1.74 GB; `.codex/commands` → `..` plus 36 descriptions of
// 100 KB re-published 3.6 MB on every write in the workspace root and pushed a fresh master's first
// turn out of the 8 MiB history. Here the library, real temp folders, real symlinks and a FIFO.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CommandService, type CommandSnapshot } from '../../src/commands';
import { SessionCommands } from '../../src/host/sessionCommands';
import type { AgentAdapter, AgentHost } from '../../src/session/agentAdapter';
import { sandbox, type Sandbox } from '../unit/commands/tmp';

const SECRET = 'SECRET_OUTSIDE=hunter2';
const names = (s: CommandSnapshot) => s.commands.map((c) => c.name);
const errorsAbout = (s: CommandSnapshot, re: RegExp) => s.diagnostics.filter((d) => d.severity === 'error' && re.test(d.message));

/** Polls until `pred` holds (the mocha timeout bounds the wait). */
async function until(pred: () => boolean): Promise<void> {
  while (!pred()) await sleep(20);
}

describe('security: command files are read bounded, and in a workspace never through a link out of it (decision 712)', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  let outside: string;
  let svc: CommandService | undefined;
  beforeEach(() => {
    sb = sandbox();
    outside = join(sb.root, 'outside');
    mkdirSync(join(outside, 'cmds'), { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
    writeFileSync(join(outside, 'cmds', 'a.md'), `${SECRET} as a command\n`);
  });
  afterEach(() => {
    svc?.dispose();
    svc = undefined;
    sb.cleanup();
  });
  const make = (watch: boolean) => (svc = new CommandService({ home: sb.home, workspaceFolders: [sb.ws], bundled: [], watch, debounceMs: 30 }));

  it('§12.1.1 a workspace command file linked out of the workspace (a secret file, /proc/self/environ) is not read, listed or published: an error names it; a link that stays inside loads', async () => {
    sb.write(sb.ws, { 'docs/shared.md': 'Shared command\n', '.claude/commands/plain.md': 'Plain\n' });
    symlinkSync(join(outside, 'secret.txt'), join(sb.ws, '.claude', 'commands', 'review.md'));
    mkdirSync(join(sb.ws, '.rawp', 'commands'), { recursive: true });
    const environ = existsSync('/proc/self/environ');
    if (environ) symlinkSync('/proc/self/environ', join(sb.ws, '.rawp', 'commands', 'env.md'));
    mkdirSync(join(sb.ws, '.codex', 'commands'), { recursive: true });
    symlinkSync(join('..', '..', 'docs', 'shared.md'), join(sb.ws, '.codex', 'commands', 'shared.md'));

    const s = await make(false).start();
    assert.deepEqual(names(s).sort(), ['plain', 'shared']);
    const wire = JSON.stringify(s.publish);
    assert.doesNotMatch(wire, /SECRET_OUTSIDE|PATH=|HOME=/, 'nothing of the outside file or the environment is published');
    assert.doesNotMatch(JSON.stringify(s.all), /SECRET_OUTSIDE|PATH=/, 'nor kept for expansion');
    assert.equal(errorsAbout(s, /review\.md is a symlink that leads out of the workspace; not read/).length, 1);
    if (environ) assert.equal(errorsAbout(s, /env\.md is a symlink that leads out of the workspace/).length, 1);
    assert.equal(s.commands.find((c) => c.name === 'shared')?.description, 'Shared command');
  });

  it('a workspace commands folder linked out of the workspace, or to its root, is neither read nor watched: writes there refresh nothing; replacing the link with a folder is seen', async () => {
    sb.write(sb.ws, { 'README.md': 'Read me\n', '.codex/.keep': '' });
    mkdirSync(join(sb.ws, '.claude'));
    symlinkSync(join(outside, 'cmds'), join(sb.ws, '.claude', 'commands'));
    symlinkSync('..', join(sb.ws, '.codex', 'commands')); // the workspace root itself
    const service = make(true);
    const first = await service.start();
    assert.deepEqual(names(first), [], 'neither the outside a.md nor the root README.md is a command');
    assert.equal(errorsAbout(first, /\.claude[/\\]commands leads out of the workspace/).length, 1);
    assert.equal(errorsAbout(first, /\.codex[/\\]commands leads to the workspace folder itself/).length, 1);

    let refreshes = 0;
    service.onDidRefresh(() => refreshes++);
    writeFileSync(join(sb.ws, 'notes.md'), 'a write in the root\n');
    writeFileSync(join(outside, 'cmds', 'b.md'), 'a write behind the link\n');
    await sleep(600);
    assert.equal(refreshes, 0, 'no refresh for writes behind a refused link');

    // The link's own name is watched: replacing it with a real folder is a change.
    unlinkSync(join(sb.ws, '.claude', 'commands'));
    sb.write(sb.ws, { '.claude/commands/c.md': 'Now a real command\n' });
    await until(() => names(service.snapshot).includes('c'));
  });

  it("the user's own folders still follow links (a dotfiles repository): a linked ~/.claude/commands and a linked prompt load, and the linked folder is watched", async () => {
    const dotfiles = join(sb.root, 'dotfiles');
    sb.write(dotfiles, { 'claude-commands/u.md': 'User command\n', 'p.md': 'A prompt\n' });
    mkdirSync(join(sb.home, '.claude'));
    symlinkSync(join(dotfiles, 'claude-commands'), join(sb.home, '.claude', 'commands'));
    mkdirSync(join(sb.home, '.codex', 'prompts'), { recursive: true });
    symlinkSync(join(dotfiles, 'p.md'), join(sb.home, '.codex', 'prompts', 'p.md'));
    const service = make(true);
    assert.deepEqual(names(await service.start()).sort(), ['p', 'u']);
    writeFileSync(join(dotfiles, 'claude-commands', 'v.md'), 'Another\n');
    await until(() => names(service.snapshot).includes('v'));
  });

  it('anywhere, only a regular file of at most 256 KiB is read: a bigger file and a FIFO (home or workspace) are bad commands, the rest load', async () => {
    sb.write(sb.ws, { '.rawp/commands/big.md': `${'x'.repeat(300 * 1024)}\n`, '.rawp/commands/ok.md': 'Ok\n', '.rawp/commands/edge.md': 'y'.repeat(256 * 1024) });
    sb.write(sb.home, { '.claude/commands/ok2.md': 'Ok too\n' });
    const fifo = join(sb.home, '.claude', 'commands', 'fifo.md');
    execFileSync('mkfifo', [fifo, join(sb.ws, '.rawp', 'commands', 'pipe.md')]);
    const s = await make(false).start();
    assert.deepEqual(names(s).sort(), ['edge', 'ok', 'ok2']);
    assert.equal(errorsAbout(s, /big\.md is larger than 256 KiB; not read/).length, 1);
    assert.equal(errorsAbout(s, /(fifo|pipe)\.md is not a regular file; not read/).length, 2, 'a FIFO in the home and in the workspace');
  });

  it('a link to /proc/self/pagemap in the user folder (size 0, endless) is refused after 256 KiB, not read whole', async function () {
    if (!existsSync('/proc/self/pagemap')) this.skip();
    mkdirSync(join(sb.home, '.claude', 'commands'), { recursive: true });
    symlinkSync('/proc/self/pagemap', join(sb.home, '.claude', 'commands', 'pagemap.md'));
    const before = process.memoryUsage().rss;
    const s = await make(false).start();
    assert.deepEqual(names(s), []);
    assert.equal(errorsAbout(s, /pagemap\.md is larger than 256 KiB; not read/).length, 1);
    assert.ok(process.memoryUsage().rss - before < 64 * 1024 * 1024, 'a few chunks read, not gigabytes');
  });

  describe('what a session publishes (src/host/sessionCommands.ts)', () => {
    let commands: SessionCommands | undefined;
    afterEach(() => commands?.dispose());

    async function startSession(): Promise<{ commands: SessionCommands; started: { commands: unknown[] }; emitted: unknown[] }> {
      const emitted: unknown[] = [];
      commands = new SessionCommands({ home: sb.home, workspaceFolders: [sb.ws], send: () => undefined, report: (e) => assert.fail(String(e)), watch: false });
      const adapter = {
        info: { id: 'fake', displayName: 'Fake', adapter_type: 'sdk' },
        start: async () => ({ capabilities: {}, tools: [], commands: [] }),
        prompt: async () => ({ stop_reason: 'end_turn' }),
        dispose: async () => undefined,
      } as unknown as AgentAdapter;
      const host = { emit: (e: { type: string }) => e.type === 'agent.commands.publish' && emitted.push(e) } as unknown as AgentHost;
      const started = await commands.wrap(adapter).start(host);
      return { commands, started, emitted };
    }

    it('§12.1.1 36 commands with 60 KB descriptions publish one line of 303 characters each (about 12 KB, not 2.2 MB); 100 KB ones are bad commands', async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 36; i++) files[`.claude/commands/c${i}.md`] = `---\ndescription: ${'d'.repeat(60_000)}\n  more\n---\nBody ${i}\n`;
      files['.claude/commands/huge.md'] = `---\ndescription: ${'d'.repeat(100_000)}\n---\nBody\n`;
      sb.write(sb.ws, files);
      const { started } = await startSession();
      const listed = started.commands as { name: string; description: string }[];
      const mine = listed.filter((c) => /^c\d+$/.test(c.name));
      assert.equal(mine.length, 36);
      assert.ok(mine.every((c) => c.description.length === 303 && c.description.endsWith('...')));
      assert.ok(!listed.some((c) => c.name === 'huge'), 'frontmatter over 64 KiB: not loaded');
      const bytes = Buffer.byteLength(JSON.stringify(started.commands));
      assert.ok(bytes < 64 * 1024, `the opening publish is ${bytes} bytes`);
    });

    it('§12.1.1 a refresh that changes nothing publishes nothing; a changed command publishes once', async () => {
      sb.write(sb.ws, { '.claude/commands/a.md': 'A\n' });
      const { commands: session, emitted } = await startSession();
      await session.service.refresh('files');
      await session.service.refresh('files');
      assert.equal(emitted.length, 0, 'unchanged list: nothing re-sent to the history and journal');
      sb.write(sb.ws, { '.claude/commands/b.md': 'B\n' });
      await session.service.refresh('files');
      await session.service.refresh('files');
      assert.equal(emitted.length, 1);
      rmSync(join(sb.ws, '.claude', 'commands', 'b.md'));
      await session.service.refresh('files');
      assert.equal(emitted.length, 2, 'a removal is a change too');
    });
  });
});
