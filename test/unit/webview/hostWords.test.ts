// The host's own words in the view's language (decision 567): the descriptions of the commands the
// host publishes and the phrases of its notices. The view recognises a host command by its English
// description word for word, so these tests hold the view's English to the host's.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLED_COMMANDS, buildCommandsPublish, HOST_COMMANDS } from '../../../src/commands';
import { splitFrontmatter } from '../../../src/commands/frontmatter';
import { en, isMessageId } from '../../../webview-ui/src/i18n/en';
import { setLocale } from '../../../webview-ui/src/i18n';
import { agentName, commandDescription, hostNoticeText, noticeSentence, permissionDescription } from '../../../webview-ui/src/i18n/hostWords';
import { detectAgents } from '../../../src/agents/selection';
import { PermissionBroker } from '../../../src/session/permissions/broker';
import { describeScope, suggestScope } from '../../../src/tools/permissions/scope';
import type { PayloadOf } from '../../../src/protocol/frameTypes';

const root = join(__dirname, '..', '..', '..');

describe('webview/hostWords: the host\'s commands and notices in the view\'s language (decision 567)', () => {
  afterEach(() => setLocale('en'));

  it('§12.1.1 every command the host publishes itself has the view\'s English word for word, and Korean', () => {
    const published = buildCommandsPublish({ host: HOST_COMMANDS, files: [] }).commands;
    const bundled = BUNDLED_COMMANDS.map((b) => ({ name: b.name, description: /^description:\s*(.+)$/m.exec(splitFrontmatter(b.content).block ?? '')?.[1].trim() ?? '' }));
    const all = [...published, ...bundled];
    assert.equal(all.length, HOST_COMMANDS.length + BUNDLED_COMMANDS.length);
    for (const c of all) {
      const id = `command.${c.name}`;
      assert.ok(isMessageId(id), `${id} is in the view's catalogue`);
      assert.equal(en[id], c.description, `${id} is the host's description word for word`);
      setLocale('ko');
      assert.notEqual(commandDescription(c), c.description, `/${c.name} is said in Korean`);
      setLocale('en');
      assert.equal(commandDescription(c), c.description);
    }
  });

  it('§12.1.1 an agent\'s command of the same name keeps its own description in Korean too', () => {
    setLocale('ko');
    assert.equal(commandDescription({ name: 'compact', description: 'Summarise with the agent\'s own compaction' }), 'Summarise with the agent\'s own compaction');
    assert.equal(commandDescription({ name: 'deploy', description: 'Ship it' }), 'Ship it');
  });

  it('every phrase the host names in a notice is known to the view; an unknown phrase falls back to the host\'s English', () => {
    const source = ['src/host/promptAdmission.ts', 'src/host/headlessRun.ts'].map((f) => readFileSync(join(root, f), 'utf8')).join('\n');
    const ids = [...source.matchAll(/words: \{ id: '([a-z_]+)'|phrasedNotice\('notice\.([a-z_]+)'/g)].map((m) => m[1] ?? m[2]);
    assert.ok(ids.length >= 9, `found ${ids.length} phrases`);
    for (const id of ids) assert.ok(isMessageId(`notice.${id}`), `notice.${id} is in the view's catalogue`);
    setLocale('ko');
    assert.equal(noticeSentence({ id: 'not_available', args: ['cost'] }), '/cost 명령은 여기서 이 에이전트에 쓸 수 없습니다.');
    assert.equal(noticeSentence({ id: 'from_a_newer_host' }), undefined);
    assert.equal(hostNoticeText({ message: 'English', words: { id: 'from_a_newer_host' } }, undefined), 'English');
  });

  it('/help lists the published commands in the view\'s language, each on its own line', () => {
    setLocale('ko');
    const commands = [{ name: 'clear', description: 'Start a new conversation' }, { name: 'deploy', description: 'Ship it' }];
    assert.equal(hostNoticeText({ message: '/clear — Start a new conversation\n/deploy — Ship it', words: { id: 'help' } }, commands), '슬래시 명령어:\n/clear — 새 대화 시작\n/deploy — Ship it');
  });

  it('§4.3 the descriptions the host\'s permission broker gives its options are said in Korean, the rule\'s paths as written; any other description unchanged', async () => {
    const asked: PayloadOf<'agent.interaction.request'>[] = [];
    await new PermissionBroker().ask(
      { call: { tool_name: 'Write', paths: ['notes.md'] }, input: { file_path: 'notes.md' }, scope: { tool_name: 'Write', path_glob: '**' }, scopeText: 'Write on **', offer: { session: true, always: true, rejectAlways: true } },
      { session_id: 's1', agent_id: 'builtin', newId: () => 'i1', requestInteraction: async (r) => (asked.push(r), { kind: 'response', selected_value: 'reject' }) },
    );
    const described = (asked[0].options ?? []).map((o) => [o.value, o.description]);
    assert.deepEqual(described, [
      ['allow_once', undefined],
      ['allow_session', 'Write on **'],
      ['allow_always', 'Saved rule: Write on **'],
      ['reject', 'Optionally tell the agent why'],
      ['reject_always', 'Saved rule: Write on **'],
    ], 'the host\'s English shapes, which the view recognises word for word');
    setLocale('ko');
    assert.deepEqual(described.map(([, d]) => (d === undefined ? undefined : permissionDescription(d))), [undefined, '** 경로의 Write', '규칙으로 저장: ** 경로의 Write', '원하면 에이전트에게 이유를 알려 줄 수 있습니다', '규칙으로 저장: ** 경로의 Write']);
    assert.equal(permissionDescription('Runs the deploy script'), 'Runs the deploy script', 'an agent\'s own description');
    assert.equal(permissionDescription('Saved rule:'), 'Saved rule:', 'not the host\'s shape: no rule');
    setLocale('en');
    assert.equal(permissionDescription('Saved rule: Write on **'), 'Saved rule: Write on **');
  });

  it('§4.3 the rule a permission option saves is said in Korean — its tool, folder and command as the host wrote them; an agent\'s own words unchanged (decision 654)', () => {
    const onPath = describeScope(suggestScope({ tool_name: 'Write', paths: ['src/a.ts'] }));
    const prefix = describeScope(suggestScope({ tool_name: 'Bash', paths: [], command: 'git status --short' }));
    const exact = describeScope(suggestScope({ tool_name: 'Bash', paths: [], command: '/usr/bin/python3 build.py' }));
    const spaced = describeScope(suggestScope({ tool_name: 'Edit', paths: ['notes on cats/a.md'] }));
    assert.deepEqual([onPath, spaced], ['Write on src/**', 'Edit on notes on cats/**'], 'the host\'s English');
    setLocale('ko');
    assert.equal(permissionDescription(onPath), 'src/** 경로의 Write', 'the bare rule of "Allow for this session"');
    assert.equal(permissionDescription(`Saved rule: ${onPath}`), '규칙으로 저장: src/** 경로의 Write');
    assert.equal(permissionDescription(spaced), 'notes on cats/** 경로의 Edit', 'a folder named with " on " stays whole: the tool ends at the first " on "');
    assert.equal(permissionDescription(prefix), 'Bash: 정확히 `git status --short`, 또는 그 뒤에 일반 인수만 더 붙은 명령 (-delete, -exec, -f, rm, 따옴표, $ 같은 셸 문법이 덧붙으면 해당 없음)');
    assert.equal(permissionDescription(`Saved rule: ${exact}`), '규칙으로 저장: Bash: 정확히 `/usr/bin/python3 build.py`만 (python3은(는) 코드를 실행하므로 아무것도 덧붙일 수 없음)');
    const tricky = describeScope(suggestScope({ tool_name: 'Bash', paths: [], command: 'node x.js --label "on` (node runs code"' }));
    assert.match(permissionDescription(tricky), /^Bash: 정확히 `node x\.js --label "on` \(node runs code"`만 \(node은/, 'the whole command, though it holds the shape\'s own words');
    assert.equal(permissionDescription('Deploys the site'), 'Deploys the site', 'an agent\'s own description');
    setLocale('en');
    assert.equal(permissionDescription(`Saved rule: ${prefix}`), `Saved rule: ${prefix}`);
  });

  it('a long hostile rule is read in linear time: a description of 400,000 separators is answered, not stuck in backtracking', () => {
    setLocale('ko');
    const hostile = `Bash: exactly \`${'` ('.repeat(200_000)}`;
    assert.equal(permissionDescription(hostile), hostile, 'not the host\'s shape (no closing words): unchanged');
    const onMany = `${'x on '.repeat(100_000)}y`;
    assert.equal(permissionDescription(onMany).endsWith(' 경로의 x'), true);
  });

  it('the names the host gives its own agents are said in Korean, held to the host\'s English; a CLI agent\'s name passes unchanged (decision 607)', async () => {
    const plain = await detectAgents({ env: { PATH: '' } });
    const withModel = await detectAgents({ env: { PATH: '' }, openai: { baseUrl: 'http://localhost:9', model: 'qwen3-coder' } });
    const names = (list: typeof plain) => Object.fromEntries(list.map((a) => [a.id, a.displayName]));
    setLocale('ko');
    assert.equal(agentName(names(plain).builtin), '내장 (오프라인)');
    assert.equal(agentName(names(plain).openai), 'OpenAI 호환');
    assert.equal(agentName(names(withModel).openai), 'OpenAI 호환 (qwen3-coder)');
    assert.equal(agentName(names(plain)['claude-code']), names(plain)['claude-code'], 'a CLI agent keeps its name');
    assert.equal(agentName('My built-in (offline)'), 'My built-in (offline)');
    setLocale('en');
    assert.equal(agentName(names(plain).builtin), 'Built-in (offline)');
  });
});
