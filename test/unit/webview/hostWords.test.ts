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

  it('§12.1.1 /help ends with how many command files did not load (the same publish\'s unloaded, decision 727) and where to see them, in English and Korean; nothing when all loaded', () => {
    const commands = [{ name: 'clear', description: 'Start a new conversation' }];
    const help = { message: '/clear — Start a new conversation', words: { id: 'help' } };
    const file = { path: '.claude/commands/a.md', reason: 'frontmatter_invalid', message: 'its frontmatter is not valid YAML' };
    assert.equal(hostNoticeText(help, commands, { total: 23, files: [file] }), 'Slash commands:\n/clear — Start a new conversation\n23 command files could not be loaded — see the last row of the / menu');
    assert.equal(hostNoticeText(help, commands, { total: 1, files: [file] }).split('\n').at(-1), '1 command file could not be loaded — see the last row of the / menu');
    assert.equal(hostNoticeText(help, commands, undefined), 'Slash commands:\n/clear — Start a new conversation');
    assert.equal(hostNoticeText(help, commands, { total: 0, files: [] }), 'Slash commands:\n/clear — Start a new conversation');
    assert.equal(hostNoticeText({ message: 'Queued', words: { id: 'queued' } }, commands, { total: 2, files: [file] }).includes('could not be loaded'), false, 'only /help says it');
    setLocale('ko');
    assert.equal(hostNoticeText(help, commands, { total: 2, files: [file] }), '슬래시 명령어:\n/clear — 새 대화 시작\n명령 파일 2개를 불러오지 못했습니다. / 메뉴의 마지막 줄에서 확인하세요');
  });

  it('§4.3 the descriptions the host\'s permission broker gives its options are said in Korean, the rule\'s paths as written; any other description unchanged', async () => {
    const asked: PayloadOf<'agent.interaction.request'>[] = [];
    const scope = suggestScope({ tool_name: 'Write', paths: ['notes.md'] });
    await new PermissionBroker().ask(
      { call: { tool_name: 'Write', paths: ['notes.md'] }, input: { file_path: 'notes.md' }, scope, scopeText: describeScope(scope), offer: { session: true, always: true, rejectAlways: true } },
      { session_id: 's1', agent_id: 'builtin', newId: () => 'i1', requestInteraction: async (r) => (asked.push(r), { kind: 'response', selected_value: 'reject' }) },
    );
    const described = (asked[0].options ?? []).map((o) => [o.value, o.description]);
    assert.deepEqual(described, [
      ['allow_once', undefined],
      ['allow_session', 'Write anywhere in the workspace'],
      ['allow_always', 'Saved rule for every workspace: Write anywhere in the workspace'],
      ['reject', 'Optionally tell the agent why'],
      ['reject_always', 'Saved rule for every workspace: Write anywhere in the workspace'],
    ], 'the host\'s English shapes, which the view recognises word for word; a file at the root makes the broadest rule, and it says so (not "Write on **")');
    setLocale('ko');
    assert.deepEqual(described.map(([, d]) => (d === undefined ? undefined : permissionDescription(d))), [undefined, 'Write: 작업 영역의 모든 파일', '모든 작업 영역에 규칙으로 저장: Write: 작업 영역의 모든 파일', '원하면 에이전트에게 이유를 알려 줄 수 있습니다', '모든 작업 영역에 규칙으로 저장: Write: 작업 영역의 모든 파일']);
    assert.equal(permissionDescription('Runs the deploy script'), 'Runs the deploy script', 'an agent\'s own description');
    assert.equal(permissionDescription('Saved rule:'), 'Saved rule:', 'not the host\'s shape: no rule');
    setLocale('en');
    assert.equal(permissionDescription('Saved rule for every workspace: Write anywhere in the workspace'), 'Saved rule for every workspace: Write anywhere in the workspace');
  });

  it('§4.3 the rule a permission option saves is said in Korean — its tool, folder and command as the host wrote them; the broadest rules say they are; an agent\'s own words unchanged (decision 654)', () => {
    const rule = (call: Parameters<typeof suggestScope>[0]) => describeScope(suggestScope(call));
    const onPath = rule({ tool_name: 'Write', paths: ['src/a.ts'] });
    const prefix = rule({ tool_name: 'Bash', paths: [], command: 'git status --short' });
    const exact = rule({ tool_name: 'Bash', paths: [], command: '/usr/bin/python3 build.py' });
    const spaced = rule({ tool_name: 'Edit', paths: ['notes on cats/a.md'] });
    const whole = rule({ tool_name: 'mcp__web__fetch', paths: [] });
    assert.deepEqual([onPath, spaced, whole], ['Write on src/**', 'Edit on notes on cats/**', 'every mcp__web__fetch call'], 'the host\'s English');
    setLocale('ko');
    assert.equal(permissionDescription(onPath), 'Write: src/** 아래 파일', 'the bare rule of "Allow for this session"');
    assert.equal(permissionDescription(`Saved rule for every workspace: ${onPath}`), '모든 작업 영역에 규칙으로 저장: Write: src/** 아래 파일');
    assert.equal(permissionDescription(`Saved rule for this workspace: ${onPath}`), '이 작업 영역에 규칙으로 저장: Write: src/** 아래 파일');
    assert.equal(permissionDescription(spaced), 'Edit: notes on cats/** 아래 파일', 'a folder named with " on " stays whole: the tool ends at the first " on "');
    assert.equal(permissionDescription(whole), '모든 mcp__web__fetch 호출');
    assert.equal(permissionDescription(prefix), 'Bash: 정확히 `git status --short`, 또는 그 명령에 파일 이름만 더 붙인 것 (작업 영역 안; 옵션, 따옴표, $ 같은 셸 문법은 덧붙일 수 없음)');
    assert.equal(permissionDescription(rule({ tool_name: 'Bash', paths: [], command: 'npm test' })), 'Bash: 정확히 `npm test`만, 덧붙이는 것 없이', 'a command that does not only read: exactly it');
    assert.equal(permissionDescription(`Saved rule for every workspace: ${exact}`), '모든 작업 영역에 규칙으로 저장: Bash: 정확히 `/usr/bin/python3 build.py`만, 덧붙이는 것 없이 (python3은(는) 다른 코드나 명령을 실행함)');
    const tricky = rule({ tool_name: 'Bash', paths: [], command: 'node x.js --label "a`, nothing added (node runs other code or commands)"' });
    assert.match(permissionDescription(tricky), /^Bash: 정확히 `node x\.js --label "a`, nothing added \(node runs other code or commands\)"`만, /, 'the whole command, though it holds the shape\'s own words');
    // A tool an agent named with spaces: its whole-tool rule must not read as a folder rule.
    const spacedTool = rule({ tool_name: 'Read file on disk', paths: [] });
    assert.equal(spacedTool, 'every Read file on disk call');
    assert.equal(permissionDescription(spacedTool), spacedTool, 'left in the host\'s words, not "Read file: disk 아래 파일"');
    assert.equal(permissionDescription('Read file on disk'), 'Read file on disk');
    assert.equal(permissionDescription('Deploys the site'), 'Deploys the site', 'an agent\'s own description');
    setLocale('en');
    assert.equal(permissionDescription(`Saved rule for every workspace: ${prefix}`), `Saved rule for every workspace: ${prefix}`);
  });

  it('every template the view reads back gives the values it was filled with (the host\'s phrases of rules, option descriptions, agent names)', () => {
    const ids = ['rule.on_path', 'rule.anywhere', 'rule.whole_tool', 'rule.bash_prefix', 'rule.bash_exact', 'rule.bash_only', 'permission.savedRule', 'permission.savedRuleHere', 'agent.openaiModel'] as const;
    setLocale('ko');
    for (const id of ids) {
      const places = [...en[id].matchAll(/\{(\d)\}/g)].map((m) => Number(m[1]));
      const values = places.map((n) => (n === 0 ? 'Write' : 'src/**'));
      const filled = en[id].replace(/\{(\d)\}/g, (_w, n: string) => values[places.indexOf(Number(n))]);
      const said = id === 'agent.openaiModel' ? agentName(filled) : permissionDescription(id === 'permission.savedRule' || id === 'permission.savedRuleHere' ? filled.replace('Write', 'Write on src/**') : filled);
      assert.notEqual(said, filled, `${id} is read back and said in Korean`);
      for (const v of values) assert.ok(said.includes(v), `${id}: "${v}" kept in ${said}`);
    }
  });

  it('a long hostile rule is read in linear time: a description of 400,000 separators is answered, not stuck in backtracking', () => {
    setLocale('ko');
    const hostile = `Bash: exactly \`${'` ('.repeat(200_000)}`;
    assert.equal(permissionDescription(hostile), hostile, 'not the host\'s shape (no closing words): unchanged');
    const onMany = `x${' on x'.repeat(100_000)}`;
    assert.equal(permissionDescription(onMany).startsWith('x: x on x'), true);
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
