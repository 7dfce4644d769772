// Decision 727: the terminal clients say which command files did not load (`agent.commands.publish`'s
// `unloaded`, decision 721) — `rawp attach` as a notice when the list is published and again after
// its own /help, `rawp run` as a warning on stderr — once per distinct list, bounded, and with the
// host's paths and words shown, not obeyed. `rawp attach` is the real TerminalMaster against a
// loopback peer that sends what a hostile host could; `rawp run` is the built CLI with the built-in
// agent on a workspace with broken command files.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { TerminalMaster } from '../../../src/cli/attach/terminalMaster';
import { UNLOADED_SHOWN_MESSAGE_MAX, UNLOADED_SHOWN_PATH_MAX, UnloadedNews, unloadedText, type Unloaded } from '../../../src/cli/attach/unloadedNotice';
import { unloadedWarnings } from '../../../src/cli/run/unloadedWarning';
import { buildFrame } from '../../../src/protocol/build';
import { UNLOADED_LISTED_MAX } from '../../../src/protocol/payloads/agent';
import { buildNotice } from '../../../src/protocol/rawpExtension';
import { waitFor } from '../remote/harness';
import { buildCliOnce, frames, rawpRun, runScratch, type RunScratch } from '../../support/rawpRun';

const SESSION = '6f1c7a4e-2b1d-4c3e-9a8b-0d1e2f3a4b5c';
const s = { session_id: SESSION };

const TWO: Unloaded = {
  total: 2,
  files: [
    { path: '.claude/commands/a.md', reason: 'frontmatter_invalid', message: 'its frontmatter is not valid YAML (unexpected end at line 2 of the file, column 1)', detail: 'unexpected end at line 2 of the file, column 1' },
    { path: '~/.codex/prompts/b.md', reason: 'file_too_big', message: 'the file is larger than 256 KiB' },
  ],
};

/** A path and words a hostile host could send: an OSC 52 clipboard write, a line feed that forges a line, a bidi override. */
const HOSTILE: Unloaded = {
  total: 1,
  files: [{ path: '.rawp/commands/\u001b]52;c;SGVsbG8=\u0007evil\n[fake].md', reason: 'from_the_future', message: 'it was\u202Egnp.exe\r\u001b[2Jbad' }],
};

describe('cli: the command files that did not load, said on the terminal (decision 727)', function () {
  this.timeout(120_000);

  describe('the line (unloadedText)', () => {
    it('§12.1.1 each listed file as "path: why", the count first, one line, in plain English', () => {
      assert.equal(
        unloadedText(TWO),
        '2 command files could not be loaded: .claude/commands/a.md: its frontmatter is not valid YAML (unexpected end at line 2 of the file, column 1); ~/.codex/prompts/b.md: the file is larger than 256 KiB',
      );
      assert.equal(unloadedText({ total: 1, files: [TWO.files[1]] }), '1 command file could not be loaded: ~/.codex/prompts/b.md: the file is larger than 256 KiB');
      assert.equal(unloadedText({ total: 1, files: [{ reason: 'provider_failed', message: 'the commands of this source could not be listed (Claude Code plugins)' }] }), '1 command file could not be loaded: the commands of this source could not be listed (Claude Code plugins)', 'an entry without a path: its words alone');
      assert.equal(unloadedText(undefined), undefined);
      assert.equal(unloadedText({ total: 0, files: [] }), undefined, 'nothing to say when every file loaded');
    });

    it('§12.1.1 the count sentence in the terminal\'s language (decision 601); the host\'s words as sent', () => {
      assert.equal(unloadedText(TWO, 'ko')?.startsWith('명령 파일 2개를 불러오지 못했습니다: .claude/commands/a.md: its frontmatter'), true, unloadedText(TWO, 'ko'));
      assert.match(unloadedText({ total: 30, files: TWO.files }, 'ko') ?? '', /; 그 밖에 28개 더$/);
    });

    it('bounded: at most the listed files, then "and N more"; a total below the list is not believed', () => {
      const files = Array.from({ length: 100 }, (_, i) => ({ path: `.rawp/commands/b${i}.md`, reason: 'frontmatter_invalid', message: 'its frontmatter is not valid YAML' }));
      const text = unloadedText({ total: 250, files }) ?? '';
      assert.equal(text.split('.rawp/commands/').length - 1, UNLOADED_LISTED_MAX);
      assert.match(text, /^250 command files could not be loaded: /);
      assert.match(text, /b19\.md: its frontmatter is not valid YAML; and 230 more$/);
      assert.match(unloadedText({ total: 3, files: files.slice(0, 25) }) ?? '', /^25 command files could not be loaded: .*; and 5 more$/);
      assert.equal(unloadedText({ total: 4, files: [] }), '4 command files could not be loaded', 'a count with no list: no dangling colon');
    });

    it('security: a hostile path and reason are shown, not obeyed — controls, line feeds and bidi overrides as pictures or names — and cut', () => {
      const text = unloadedText(HOSTILE) ?? '';
      assert.equal(text, '1 command file could not be loaded: .rawp/commands/␛]52;c;SGVsbG8=␇evil␊[fake].md: it was<U+202E>gnp.exe␍␛[2Jbad');
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(text, /[\u0000-\u001f\u007f-\u009f\u202e]/);
      const huge = unloadedText({ total: 20, files: Array.from({ length: 20 }, () => ({ path: `${'d/'.repeat(2000)}end.md`, reason: 'x', message: `${'\u001b'.repeat(4000)}` })) }) ?? '';
      assert.ok(huge.length <= 100 + 20 * (UNLOADED_SHOWN_PATH_MAX + UNLOADED_SHOWN_MESSAGE_MAX + 4), `bounded: ${huge.length} characters`);
      assert.match(huge, /: …[d/]+\/end\.md: ␛␛/, 'a long path keeps its end: the file\'s name');
    });

    it('§12.1.1 once per distinct list: the same list republished is no news; a changed one is; one that comes back after a fix is said again', () => {
      const news = new UnloadedNews();
      assert.match(news.next(TWO) ?? '', /^2 command files/);
      assert.equal(news.next(TWO), undefined, 'the same object');
      assert.equal(news.next(structuredClone(TWO)), undefined, 'an identical list in a new publish');
      assert.match(news.next({ total: 1, files: [TWO.files[0]] }) ?? '', /^1 command file could not be loaded: \.claude\/commands\/a\.md/);
      assert.equal(news.next(undefined), undefined, 'all fixed: nothing to print');
      assert.match(news.next(TWO) ?? '', /^2 command files/, 'broken again: said again');
    });
  });

  describe('rawp run', () => {
    let scratch: RunScratch;
    before(() => buildCliOnce());
    beforeEach(() => {
      scratch = runScratch('rawp-run-unloaded-', 'hello\n');
      mkdirSync(join(scratch.ws, '.rawp', 'commands'), { recursive: true });
      writeFileSync(join(scratch.ws, '.rawp', 'commands', 'bad.md'), '---\ndescription: [unclosed\n---\nBody\n');
      writeFileSync(join(scratch.ws, '.rawp', 'commands', 'e\u001b]0;pwned\u0007vil.md'), '---\ndescription: [unclosed\n---\nBody\n');
      writeFileSync(join(scratch.ws, '.rawp', 'commands', 'good.md'), '---\ndescription: Fine\n---\nGood\n');
    });
    afterEach(() => scratch.remove());
    const base = () => ['--workspace', scratch.ws, '--agent', 'builtin'];
    const warnings = (err: string) => err.split('\n').filter((l) => l.startsWith('rawp run: warning: '));

    it('§12.1.1 text: one warning line on stderr naming each file and why, its controls as pictures; the answer on stdout as before', async () => {
      const r = await rawpRun([...base(), 'read a.txt'], { env: scratch.env });
      assert.equal(r.code, 0, r.err);
      assert.equal(r.out, '     1\thello\n', 'stdout holds the answer only');
      const lines = warnings(r.err);
      assert.equal(lines.length, 1, `said once, however often the same list is published:\n${r.err}`);
      assert.match(lines[0], /^rawp run: warning: 2 command files could not be loaded: /);
      assert.match(lines[0], /\.rawp\/commands\/bad\.md: its frontmatter is not valid YAML \(/);
      assert.ok(lines[0].includes('.rawp/commands/e␛]0;pwned␇vil.md: its frontmatter is not valid YAML'), lines[0]);
      assert.ok(!r.err.includes('\u001b') && !r.err.includes('\u0007'), 'no escape sequence reaches the terminal');
      assert.ok(!r.err.includes(scratch.dir), 'no absolute path');
    });

    it('§12.1.1 json and stream-json: stdout stays machine-readable, the warning goes to stderr', async () => {
      const json = await rawpRun([...base(), '--output-format', 'json', 'read a.txt'], { env: scratch.env });
      assert.equal(json.code, 0, json.err);
      assert.equal(JSON.parse(json.out).is_error, false);
      assert.equal(warnings(json.err).length, 1, json.err);
      const stream = await rawpRun([...base(), '--output-format', 'stream-json', 'read a.txt'], { env: scratch.env });
      assert.equal(stream.code, 0, stream.err);
      const publish = frames(stream.out).filter((f) => f.type === 'agent.commands.publish');
      assert.ok(publish.some((f) => (f.payload as { unloaded?: Unloaded }).unloaded?.total === 2), 'the frame itself is in the stream');
      assert.equal(warnings(stream.err).length, 1, stream.err);
    });

    it('§12.1.1 /help: the host\'s list on stdout, exit 0, and the files that did not load on stderr', async () => {
      const r = await rawpRun([...base(), '/help'], { env: scratch.env });
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /\/help — List the available slash commands/);
      assert.match(warnings(r.err)[0] ?? '', /2 command files could not be loaded/);
    });

    it('the listener: the run\'s typed list (HeadlessRun\'s onUnloadedCommands, decision 731), once per distinct list; nothing when all loaded; a hostile path shown, not obeyed', () => {
      let err = '';
      const listen = unloadedWarnings({ stderr: { write: (t: string) => ((err += t), true) } as never });
      listen(undefined);
      listen({ total: 0, files: [] });
      assert.equal(err, '');
      listen(HOSTILE);
      listen(structuredClone(HOSTILE));
      assert.equal(err, 'rawp run: warning: 1 command file could not be loaded: .rawp/commands/␛]52;c;SGVsbG8=␇evil␊[fake].md: it was<U+202E>gnp.exe␍␛[2Jbad\n');
    });
  });

  describe('rawp attach', () => {
    /** A host that opens with `unloaded` (published twice), answers /help, then publishes other lists. */
    async function peer(): Promise<{ port: number; sockets: WebSocket[]; close: () => Promise<void> }> {
      const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'rawp-dps-1.0' });
      await new Promise<void>((r) => wss.once('listening', () => r()));
      const sockets: WebSocket[] = [];
      wss.on('connection', (ws) => {
        sockets.push(ws);
        const send = (f: object) => ws.send(JSON.stringify(f));
        send(buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: {} }, s));
        send(buildFrame('tool.catalog.publish', { tools: [] }, s));
        send(buildFrame('agent.commands.publish', { commands: [{ name: 'help', description: 'List the available slash commands' }], unloaded: { total: 3, files: [...TWO.files, ...HOSTILE.files] } }, s));
        send(buildFrame('agent.commands.publish', { commands: [{ name: 'help', description: 'List the available slash commands' }], unloaded: { total: 3, files: [...TWO.files, ...HOSTILE.files] } }, s));
        send(buildFrame('agent.state.changed', { previous_state: 'idle', current_state: 'idle', reason: 'attached' }, s));
        ws.on('message', (d) => {
          const f = JSON.parse(String(d)) as { type: string; message_id: string; payload: { prompt_text?: string } };
          if (f.type !== 'control.prompt.request') return;
          if (f.payload.prompt_text === '/help') send(buildNotice(SESSION, { level: 'info', message: '/help — List the available slash commands', words: { id: 'help' } }, f.message_id));
          if (f.payload.prompt_text === 'fix one') send(buildFrame('agent.commands.publish', { commands: [], unloaded: { total: 1, files: [TWO.files[1]] } }, s));
          if (f.payload.prompt_text === 'fix all') send(buildFrame('agent.commands.publish', { commands: [] }, s));
          if (f.payload.prompt_text === 'break again') send(buildFrame('agent.commands.publish', { commands: [], unloaded: { total: 1, files: [TWO.files[1]] } }, s));
        });
      });
      return { port: (wss.address() as { port: number }).port, sockets, close: () => new Promise((r) => wss.close(() => r())) };
    }

    it('§12.1.1 the list as a notice when published (not again when republished the same), after its own /help, and again when it changes; shown, not obeyed', async () => {
      const p = await peer();
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      let out = '';
      stdout.on('data', (d: Buffer) => (out += d.toString()));
      const master = new TerminalMaster({ url: `ws://127.0.0.1:${p.port}/v1/sessions/${SESSION}/stream`, token: 't', session_id: SESSION, stdin, stdout });
      const said = () => out.split('could not be loaded').length - 1;
      try {
        master.start();
        await waitFor(() => out.includes('attached to session'), 'the attach');
        assert.equal(said(), 1, `one notice for the list published twice:\n${out}`);
        assert.match(out, /\[⚠ 3 command files could not be loaded: \.claude\/commands\/a\.md: its frontmatter is not valid YAML \(unexpected end at line 2 of the file, column 1\); ~\/\.codex\/prompts\/b\.md: the file is larger than 256 KiB; \.rawp\/commands\/␛\]52;c;SGVsbG8=␇evil␊\[fake\]\.md: it was<U\+202E>gnp\.exe␍␛\[2Jbad\]\n/);
        assert.ok(out.indexOf('could not be loaded') < out.indexOf('attached to session'), 'said with the opening, before the word that we are attached');

        stdin.write('/help\n');
        await waitFor(() => said() === 2, 'the list after /help');
        const help = out.slice(out.indexOf('[/help — List the available slash commands]'));
        assert.match(help, /^\[\/help — List the available slash commands\]\n\[and rawp attach's own: [^\n]*\]\n\[⚠ 3 command files could not be loaded: \.claude\/commands\/a\.md/);

        stdin.write('fix one\n');
        await waitFor(() => said() === 3, 'the changed list');
        assert.match(out, /\[⚠ 1 command file could not be loaded: ~\/\.codex\/prompts\/b\.md: the file is larger than 256 KiB\]\n$/);
        stdin.write('fix all\n');
        await waitFor(() => out.includes('› fix all'), 'the prompt shown');
        await new Promise((r) => setTimeout(r, 200));
        assert.equal(said(), 3, 'the publish without the list (all fixed) says nothing');
        stdin.write('break again\n');
        await waitFor(() => said() === 4, 'the list that came back');
        assert.ok(!out.includes('\u001b') && !out.includes('\u0007') && !out.includes('\u202e'), 'no escape sequence or override reaches the terminal');
      } finally {
        master.stop();
        await p.close();
      }
    });

    it('§12.1.1 in Korean, the count is said in the terminal\'s language (decision 601)', async () => {
      const p = await peer();
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      let out = '';
      stdout.on('data', (d: Buffer) => (out += d.toString()));
      const master = new TerminalMaster({ url: `ws://127.0.0.1:${p.port}/v1/sessions/${SESSION}/stream`, token: 't', session_id: SESSION, stdin, stdout, language: 'ko' });
      try {
        master.start();
        await waitFor(() => out.includes('불러오지 못했습니다'), 'the notice');
        assert.match(out, /\[⚠ 명령 파일 3개를 불러오지 못했습니다: \.claude\/commands\/a\.md: /);
      } finally {
        master.stop();
        await p.close();
      }
    });
  });
});
