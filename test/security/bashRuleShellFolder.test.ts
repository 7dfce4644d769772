// Decision 735: a Bash rule's added words are taken from the folder the agent's shell is in. The
// real Claude Code CLI (against the scripted model server) runs `cd sub` without asking and its
// shell stays there; its later `cat link` asks, and the saved rule `cat` used to answer it: `link`
// taken from the workspace folder named nothing, so it "stayed inside" — while in sub/ it is a
// symlink to a key outside the workspace, whose text then went to the model (reproduced before
// this change: the secret reached the model with nobody asked). Our PreToolUse hook's input says
// the shell's folder (`cwd`); the ask now carries it.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostPermissionBroker } from '../../src/host/permissions';
import { permissionQuestion } from '../../src/agents/acp/permission';
import { claude } from '../support/mockModel/anthropic';
import { Harness, useRealClaude } from '../support/claudeHarness';

describe('security: a Bash rule\'s words are taken from the folder the agent\'s shell is in (decision 735)', function () {
  this.timeout(120_000);
  useRealClaude();
  let h: Harness;
  let outside: string;

  beforeEach(() => {
    outside = mkdtempSync(join(tmpdir(), 'rawp-shell-folder-outside-'));
    writeFileSync(join(outside, 'id_rsa'), 'PRIVATE-KEY-TEXT\n');
  });
  afterEach(() => rmSync(outside, { recursive: true, force: true }));

  it('§17.3.1 real Claude Code: after an unasked `cd sub`, `cat link` (a link out, in sub/) is asked despite the saved rule `cat`, and the key never reaches the model; in the workspace folder the rule still answers', async () => {
    h = await Harness.create(undefined, (x) => hostPermissionBroker({ rulesFile: join(x.home, 'permission-rules.json'), workspace: () => x.ws }));
    mkdirSync(join(h.ws, 'sub'));
    writeFileSync(join(h.ws, 'sub', 'notes.txt'), 'inside notes\n');
    symlinkSync(join(outside, 'id_rsa'), join(h.ws, 'sub', 'link'));
    h.permissions!.rules.add({ tool_name: 'Bash', command_prefix: 'cat' }, { decision: 'allow', lifetime: 'always', session_id: h.session.session_id, created_by: 'builtin' });
    const asked: string[] = [];
    h.answer = (req) => (asked.push(req.question_text), 'deny');

    h.script(claude.tool('Bash', { command: 'cat a.txt' }), claude.text('read it'));
    await h.prompt('read a.txt');
    assert.deepEqual(asked, [], 'in the workspace folder the saved rule answers');
    assert.match(h.mainRequests().at(-1)!.rawBody, /hello\\nworld/, 'and the file went to the model');

    h.script(claude.tool('Bash', { command: 'cd sub' }), claude.tool('Bash', { command: 'cat link' }), claude.tool('Bash', { command: 'cat notes.txt' }), claude.text('done'));
    await h.prompt('look in sub');
    assert.equal(asked.length, 1, `asked: ${JSON.stringify(asked)}`);
    assert.match(asked[0], /cat link/);
    const sent = h.mainRequests().map((r) => r.rawBody).join('\n');
    assert.doesNotMatch(sent, /PRIVATE-KEY-TEXT/, 'the key never went to the model');
    assert.match(h.mainRequests().at(-1)!.rawBody, /inside notes/, '`cat notes.txt` in sub/ was answered by the rule');
    h.assertValid();
  });

  it('§17.3.1 an ACP agent\'s shell call names its folder (Gemini CLI\'s `dir_path`, relative to the workspace): the ask carries it, and the rule takes the words from it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rawp-shell-folder-acp-'));
    try {
      const ws = join(dir, 'ws');
      mkdirSync(join(ws, 'sub'), { recursive: true });
      const root = realpathSync(ws);
      const q = permissionQuestion({ tool_name: 'Bash', title: 'cat link', input: { command: 'cat link', dir_path: 'sub' }, paths: [] }, [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }], [root]);
      assert.equal(q.call.cwd, join(root, 'sub'));
      const plain = permissionQuestion({ tool_name: 'Bash', title: 'ls', input: { command: 'ls' }, paths: [] }, [{ optionId: 'a', name: 'Allow', kind: 'allow_once' }], [root]);
      assert.equal(plain.call.cwd, undefined, 'none named: the workspace folder');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
