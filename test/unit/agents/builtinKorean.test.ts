// Decision 572: the built-in agent speaks the language the person reads. In Korean it answers,
// thinks, asks and describes its commands in Korean over the same real tools, and the paths,
// patterns and commands stay as typed. `rawp run` takes the language from the locale (LANG).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltinAgent } from '../../../src/agents/builtin';
import { KOREAN } from '../../../src/agents/builtin/words';
import { AgentCatalog } from '../../../src/host/agentCatalog';
import { silentLogger } from '../../../src/session/ports';
import { createSharedToolState } from '../../../src/tools/toolkit';
import { NodeFsBackend } from '../../../src/workspace/nodeFsBackend';
import type { AgentPrompt } from '../../../src/session/agentAdapter';
import { FakeHost } from '../../support/fakeHost';
import { buildCliOnce, rawpRun, runScratch } from '../../support/rawpRun';

function prompt(text: string): AgentPrompt {
  return { turn_id: globalThis.crypto.randomUUID(), turn_index: 0, text, input_type: 'text', mode: 'default', file_references: [], context_files: [] };
}
const HANGUL = /[\uac00-\ud7a3]/;

describe('agents/builtin in Korean (decision 572)', function () {
  this.timeout(120_000);
  let dir: string;
  let host: FakeHost;
  let agent: BuiltinAgent;
  let commands: { name: string; description: string }[];
  const run = (text: string) => agent.prompt(prompt(text), new AbortController().signal);
  const lastText = () => host.ofType('agent.text.done').at(-1)?.payload.full_text ?? '';

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-builtin-ko-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'a.ts'), 'export const greeting = "hello";\n// TODO: more\n');
    host = new FakeHost(dir);
    host.answer = (req) => ({ kind: 'response', selected_value: req.interaction_type === 'YN' ? 'yes' : 'allow_once' });
    agent = new BuiltinAgent({ settings: { killGraceMs: 200 }, language: 'ko' });
    commands = (await agent.start(host)).commands;
  });
  afterEach(async () => {
    host.assertAllFramesAccepted();
    await agent.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('its commands are described in Korean', () => {
    assert.deepEqual(commands.map((c) => [c.name, c.description]), [['compact', '대화 컨텍스트 압축'], ['help', '내장 에이전트가 이해하는 요청']]);
  });

  it('thinks and answers in Korean: a read, a search, a command, a task list, help, and free text it cannot understand', async () => {
    await run('read src/a.ts');
    assert.equal(lastText(), '`src/a.ts` 파일을 읽었습니다 (2줄).');
    assert.match(host.ofType('agent.thinking.delta').map((d) => d.payload.text).join(''), /^요청을 이렇게 읽었습니다: read\. 모드: 기본\./);
    await run('find TODO');
    assert.equal(lastText(), '`TODO` 패턴과 일치하는 줄 1개를 찾았습니다.');
    await run('run `echo hi`');
    assert.equal(lastText(), '`echo hi` 명령이 끝났습니다.');
    await run('run `exit 3`');
    assert.equal(lastText(), '`exit 3` 명령이 종료 코드 3(으)로 실패했습니다.');
    await run('todo: 테스트 쓰기; 배포');
    assert.equal(lastText(), '작업 목록을 고쳤습니다: 작업 2개 (진행 중 1, 할 일 1, 완료 0).');
    await run('help');
    assert.equal(lastText(), KOREAN.grammarHelp);
    await run('이 파일을 설명해 줘');
    assert.equal(lastText(), KOREAN.connectHelp);
    // A line it did not understand is named in Korean in its thinking, not as the grammar's "unknown".
    assert.match(host.ofType('agent.thinking.delta').map((d) => d.payload.text).join(''), /요청을 이렇게 읽었습니다: 알 수 없는 요청\. 모드: 기본\./);
  });

  it('edits and plans in Korean: the approval question and its answers are Korean too', async () => {
    await run('replace `"hello"` with `"hi"` in src/a.ts');
    assert.equal(lastText(), '고치려면 먼저 읽어야 해서 `src/a.ts` 파일을 읽었습니다. `src/a.ts` 파일에서 1곳을 바꿨습니다 (+1 −1).');
    await run('plan: read src/a.ts; 뭔가 멋진 일');
    const question = host.interactions.find((i) => i.interaction_type === 'YN');
    assert.equal(question?.question_text, '이 계획(2단계)을 실행할까요?');
    assert.deepEqual(question?.options?.map((o) => o.label), ['승인', '거절']);
    const said = host.ofType('agent.text.done').map((e) => e.payload.full_text ?? '');
    assert.ok(said.some((t) => t.startsWith('## 계획\n\n1. read src/a.ts\n2. 뭔가 멋진 일 _(모델 없이는')), said.join('\n---\n'));
    assert.ok(said.includes('계획이 승인되었습니다. 2단계를 실행합니다.'));
    for (const t of said) assert.match(t, HANGUL, t);
  });

  it('says why a tool call failed in Korean first, then the tool\'s own words (a missing string, a missing file, a directory)', async () => {
    await run('replace `nowhere` with `x` in src/a.ts');
    const notFound = lastText();
    assert.match(notFound, /에 실패했습니다 \(FS_EDIT_NOT_FOUND\)\. 바꿀 문자열을 파일에서 찾지 못했습니다\. 도구의 설명\(영어\): /, notFound);
    assert.match(notFound, /도구의 설명\(영어\): old_string was not found in "src\/a\.ts"/, 'the tool\'s own detail, with its path, is still there');
    await run('read src/missing.ts');
    assert.match(lastText(), /에 실패했습니다 \(FS_NOT_FOUND\)\. 파일이나 폴더가 없습니다\. 도구의 설명\(영어\): .*missing\.ts/s, lastText());
    await run('read src');
    assert.match(lastText(), /\(FS_IS_DIRECTORY\)\. 파일이 아니라 폴더입니다\./, lastText());
    // A code without a Korean reason keeps the code and the tool's words, as before.
    assert.equal(KOREAN.failed('`x` 파일 읽기', 'SOMETHING_NEW', 'detail'), '`x` 파일 읽기에 실패했습니다 (SOMETHING_NEW): detail');
  });

  it("the editor's agent catalogue, told VS Code's display language is Korean, describes the built-in agent in Korean and makes it speak Korean", async () => {
    const catalog = new AgentCatalog({ shared: () => createSharedToolState({ fs: new NodeFsBackend([dir]) }), blocked: () => undefined, openai: async () => ({}), apiKey: async () => undefined, logger: silentLogger, language: 'ko' });
    const builtin = catalog.choices().find((c) => c.id === 'builtin')!;
    assert.equal(builtin.description, KOREAN.agentDescription);
    const made = builtin.create();
    const started = await made.start(host);
    assert.equal(started.commands.find((c) => c.name === 'help')?.description, KOREAN.helpCommand);
    await made.prompt(prompt('help'), new AbortController().signal);
    assert.equal(lastText(), KOREAN.grammarHelp);
    await made.dispose();
  });

  it('`rawp run` (the built CLI, a real process) answers in Korean under LANG=ko_KR.UTF-8 and in English under LANG=C.UTF-8', async () => {
    buildCliOnce();
    const scratch = runScratch('rawp-run-ko-', 'hello\nworld\n');
    try {
      const args = ['--workspace', scratch.ws, '--agent', 'builtin', 'read a.txt'];
      const ko = await rawpRun(args, { env: { ...scratch.env, LANG: 'ko_KR.UTF-8', LC_ALL: '', LC_MESSAGES: '' } });
      assert.equal(ko.code, 0, ko.err);
      // What the tools returned on stdout, the agent's words on stderr (decision 697).
      assert.equal(ko.out, '     1\thello\n     2\tworld\n');
      assert.equal(ko.err, '`a.txt` 파일을 읽었습니다 (2줄).\n');
      const en = await rawpRun(args, { env: { ...scratch.env, LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '' } });
      assert.equal(en.err, 'Read `a.txt` (2 lines).\n');
    } finally {
      scratch.remove();
    }
  });
});
