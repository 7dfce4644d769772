// Plain words and two languages in real Chromium on the fixture page (issue 15 Why 6 and "In
// English and Korean"): what a person reads is a sentence, never a protocol code (the code is in
// the tooltip); with a Korean browser — or a page that names Korean, as VS Code's view does — the
// chat's own words are Korean.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Frame } from '../../../src/protocol/frameTypes';
import { RESULTS_DIR, feed, hostSays, pageErrors, rendered, startHarness, type Harness } from '../../browser/harness';
import { GATE_OPTIONS, SESSION, TURN, clientCaps, interactionsStream } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';
import { buildCommandsPublish, HOST_COMMANDS } from '../../../src/commands';
import { hostPhrase } from '../../../src/protocol/hostPhrases';

/** A turn with the codes people used to see: a refused unread edit that recovers, a permission, a
 *  warning, a failed command, a cancelled turn. */
function codesStream(): Frame[] {
  const b = streamBuilder(SESSION, Date.now());
  const T = { turn_id: TURN };
  const f: Frame[] = [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T)];
  const call = (id: string, tool: string, input: Record<string, unknown>, result: Record<string, unknown>) => {
    f.push(b.make('tool.invoke.request', { invocation_id: id, tool_name: tool, input }, T));
    f.push(b.make('tool.invoke.result', { invocation_id: id, tool_name: tool, output_type: 'text', ...result } as never, T));
  };
  call('e1', 'Edit', { file_path: '/home/me/project/src/auth.ts', old_string: 'a', new_string: 'b' }, { status: 'error', output: 'FS_NOT_OBSERVED: edit requires reading "src/auth.ts" first', error_code: 'FS_NOT_OBSERVED' });
  call('r1', 'Read', { file_path: '/home/me/project/src/auth.ts', limit: 1 }, { status: 'success', output: '1\texport const a = 1;' });
  call('b1', 'Bash', { command: 'npm test' }, { status: 'error', output: 'exit 1', error_code: 'NONZERO_EXIT' });
  call('w1', 'Write', { file_path: '/home/me/project/notes.md', content: 'x' }, { status: 'error', output: 'PERMISSION_REJECTED: the user rejected this Write call', error_code: 'PERMISSION_REJECTED' });
  f.push(b.make('agent.error', { error_code: 'PERMISSION_REJECTED', message: 'the user rejected this Bash call', severity: 'error', recoverable: true }, T));
  f.push(b.make('agent.interaction.request', { interaction_id: 'p1', interaction_type: 'PERMISSION', question_text: 'Allow Edit src/auth.ts?', timeout_sec: 300, options: GATE_OPTIONS, default_value: 'reject', context: { tool_name: 'Edit', affected_paths: ['src/auth.ts'] } }, T));
  return f;
}

/** The text on screen (the screen reader's hidden live regions left out). */
async function screenText(page: Page): Promise<string> {
  return (await page.locator('main.chat > :not(.live-regions)').allInnerTexts()).join('\n');
}

const CODES = /\b(PERMISSION|YN|MULTI_SELECT|TEXT_INPUT|FS_NOT_OBSERVED|NONZERO_EXIT|PERMISSION_REJECTED|AGENT_ERROR|end_turn|awaiting_input|tool_calling|moderate|dangerous)\b/;

describe('webview in Chromium: plain words, English and Korean (issue 15)', function () {
  this.timeout(90_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
    // The page as VS Code serves it: the host names the display language on #root (decision 370).
    const fixture = readFileSync(join(__dirname, '../../browser/fixture.html'), 'utf8').replace('<div id="root"></div>', '<div id="root" data-locale="ko"></div>');
    h.routes.push((req, res) => {
      if (!req.url?.startsWith('/fixture-ko.html')) return false;
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(fixture);
      return true;
    });
  });
  after(async () => h?.close());

  it('§4.3 §4.4 codes become sentences: no protocol code on screen, each one in a tooltip; an unread-file refusal is a quiet note', async () => {
    const page = await h.open({ height: 1400 });
    // The host sends its settings (with the workspace folders) before the session's frames.
    await hostSays(page, [{ kind: 'settings', payload: { permission_rules: [], workspace_roots: ['/home/me/project'] } }]);
    await feed(page, SESSION, codesStream(), true);
    await rendered(page);
    const text = await screenText(page);
    assert.doesNotMatch(text, CODES, 'no protocol code is shown as text');
    assert.doesNotMatch(text, /\/home\/me\/project/, 'files inside the workspace are named relative to it');
    assert.equal(await page.locator('.tool-card[data-invocation="r1"] .tool-summary').innerText(), 'src/auth.ts');
    assert.match(text, /The agent tried to change a file before reading it, so nothing was written; it reads the file and tries again\./);
    assert.match(text, /The command finished with an error\./);
    assert.match(text, /You said no, so the agent did not do this\./);
    assert.match(text, /Permission needed[\s\S]*Allow Edit src\/auth\.ts\?/);
    const held = page.locator('.tool-card[data-invocation="e1"]');
    assert.match(await held.getAttribute('class') ?? '', /status-held/, 'the refused unread edit is not a red failure');
    assert.equal(await held.locator('.badge.status').innerText(), 'Not read yet');
    assert.equal(await held.locator('.badge.status').getAttribute('title'), 'Code: FS_NOT_OBSERVED');
    // A call the person said no to is "Rejected" in the tone of a cancellation, not a red "Failed".
    const rejected = page.locator('.tool-card[data-invocation="w1"]');
    assert.match(await rejected.getAttribute('class') ?? '', /status-cancelled/, 'a rejected call is not a red failure');
    assert.equal(await rejected.locator('.badge.status').innerText(), 'Rejected');
    assert.equal(await rejected.getAttribute('aria-label'), 'Tool Write: Rejected');
    assert.equal(await rejected.locator('.badge.status').getAttribute('title'), 'Code: PERMISSION_REJECTED');
    assert.equal(await page.locator('.interaction .badge.kind').getAttribute('title'), 'Code: PERMISSION');
    assert.equal(await page.locator('.error-block .error-sentence').getAttribute('title'), 'Code: PERMISSION_REJECTED');
    assert.match(await page.locator('.interaction .badge.risk').first().getAttribute('title') ?? '', /Changes files in your workspace/);
    assert.deepEqual(pageErrors(page), []);
    await page.screenshot({ path: join(RESULTS_DIR, 'webview-plain-words-en.png'), fullPage: true });
  });

  it('a Korean browser gets the chat in Korean: controls, kinds, risks, options, statuses and sentences', async () => {
    const page = await h.open({ height: 1400, locale: 'ko-KR' });
    await feed(page, SESSION, codesStream(), true);
    await rendered(page);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'ko');
    const text = await screenText(page);
    for (const words of ['1번째 턴', '권한 필요', '위험 보통', '이번만 허용', '이 세션에서 허용', '거부', '아직 읽지 않음', '완료', '실패', '거부됨', '명령이 오류와 함께 끝났습니다.', '거부하셨기 때문에 에이전트가 이 작업을 하지 않았습니다.', 'Edit src/auth.ts을(를) 허용할까요?', '세션', '모드'])
      assert.ok(text.includes(words), `“${words}” on screen`);
    assert.doesNotMatch(text, CODES);
    assert.doesNotMatch(text, /\b(Allow once|Permission needed|Running|Done|Failed|Session|Reject)\b/, 'no English chrome left');
    assert.match((await page.locator('.editor').getAttribute('data-placeholder')) ?? '', /에이전트에게 물어보세요/);
    assert.equal(await page.locator('.editor').getAttribute('aria-label'), '에이전트에게 메시지 보내기');
    assert.equal(await page.locator('.interaction .badge.kind').getAttribute('title'), '코드: PERMISSION');
    await page.screenshot({ path: join(RESULTS_DIR, 'webview-plain-words-ko.png'), fullPage: true });
  });

  it('Korean text breaks between words, not inside them, and a word longer than its line still never overflows', async () => {
    const page = await h.open({ width: 240, height: 800, locale: 'ko-KR' });
    const b = streamBuilder(SESSION);
    const T = { turn_id: 'turn-ko' };
    const words = '에이전트를 설치하면 이 채팅에서 바로 사용할 수 있습니다 설치가 끝나면 다시 시작하세요';
    const long = '가'.repeat(80);
    await feed(page, SESSION, [
      clientCaps(b),
      b.make('session.turn.start', { turn_id: 'turn-ko', turn_index: 0 }, T),
      b.make('agent.text.delta', { content_index: 0, text: words }, T),
      b.make('agent.text.delta', { content_index: 1, text: long }, T),
    ] as never, true);
    await rendered(page);
    await page.evaluate('window.__name = (f) => f');
    const result = await page.evaluate(({ words, long }) => {
      const holder = (text: string) => [...document.querySelectorAll<HTMLElement>('.row *')].find((el) => el.childElementCount === 0 && el.textContent === text)!;
      // Each line of the sentence starts at a word: the character before it is a space.
      const p = holder(words);
      const node = [...p.childNodes].find((n) => n.nodeType === Node.TEXT_NODE) as Text;
      const starts: number[] = [];
      let top = -Infinity;
      for (let i = 0; i < node.data.length; i++) {
        const r = document.createRange();
        r.setStart(node, i);
        r.setEnd(node, i + 1);
        const box = r.getClientRects()[0];
        if (box && box.top > top + 2) {
          top = box.top;
          starts.push(i);
        }
      }
      const inside = starts.filter((i) => i > 0 && node.data[i - 1] !== ' ' && node.data[i] !== ' ');
      const q = holder(long);
      return { lines: starts.length, inside, wordBreak: getComputedStyle(p).wordBreak, overflows: q.scrollWidth > q.clientWidth + 1 || q.getBoundingClientRect().right > document.documentElement.clientWidth };
    }, { words, long });
    assert.ok(result.lines > 1, `the sentence wraps at 240 px (${result.lines} lines)`);
    assert.deepEqual(result, { lines: result.lines, inside: [], wordBreak: 'keep-all', overflows: false });
    await page.screenshot({ path: join(RESULTS_DIR, 'webview-korean-words.png') });
    await page.close();
  });

  it('decision 651: in Korean, a session still named after its agent is listed by the agent\'s Korean name; a name from a prompt or a person keeps its words; the session bar is a named group', async () => {
    const page = await h.open({ locale: 'ko-KR' });
    const b = streamBuilder(SESSION);
    await feed(page, SESSION, [clientCaps(b)], true);
    await hostSays(page, [{ kind: 'session.list', payload: { active_session_id: SESSION, sessions: [{ session_id: SESSION, name: 'Built-in (offline)', agent: 'builtin' }, { session_id: 'other', name: 'fix the failing test', agent: 'builtin' }] } }]);
    assert.deepEqual(await page.locator('#session-select option').allInnerTexts(), ['내장 (오프라인)', 'fix the failing test']);
    assert.equal(await page.getByRole('group', { name: '세션' }).count(), 1);
    assert.equal(await page.getByRole('toolbar').count(), 0, 'no toolbar without a toolbar\'s arrow keys');
  });

  it('§12.1.1 decision 567: the host’s own commands and notices are Korean in a Korean view; an agent’s command keeps its words', async () => {
    const page = await h.open({ height: 900, locale: 'ko-KR' });
    const b = streamBuilder(SESSION);
    const published = buildCommandsPublish({ host: HOST_COMMANDS, files: [] }).commands;
    await feed(page, SESSION, [clientCaps(b), b.make('agent.commands.publish', { commands: [...published, { name: 'deploy', description: 'Ship the build to staging' }] })] as never, true);
    await rendered(page);
    await page.locator('[role=textbox]').click();
    await page.keyboard.type('/');
    await page.waitForSelector('[role=listbox] [role=option]');
    const rows = await page.locator('[role=listbox] [role=option]').evaluateAll((els) => els.map((el) => [el.querySelector('.command-name')!.textContent, el.querySelector('.command-description')!.textContent]));
    const described = new Map(rows as [string, string][]);
    assert.equal(described.get('/compact'), '대화 맥락을 요약해 줄이기');
    assert.equal(described.get('/rename'), '이 세션의 이름 바꾸기');
    assert.equal(described.get('/deploy'), 'Ship the build to staging', 'the agent’s own command keeps its words');
    for (const [name, words] of described) if (name !== '/deploy') assert.match(words, /[\uac00-\ud7a3]/, `${name}: “${words}” is Korean`);
    await page.keyboard.press('Escape');
    const english = published.map((c) => `/${c.name} — ${c.description}`).join('\n');
    // One at a time: a confirmation gives way to the next notice (decision 648).
    const shown = async (notice: { message: string; words: { id: string } }): Promise<string> => {
      await hostSays(page, [{ kind: 'notice', payload: { level: 'info', ...notice } }]);
      const banners = await page.locator('.banner.info').allInnerTexts();
      assert.equal(banners.length, 1, banners.join(' | '));
      return banners[0];
    };
    const help = await shown({ message: english, words: { id: 'help' } });
    assert.ok(help.startsWith('슬래시 명령어:'), help);
    const lines = help.split('\n');
    assert.ok(lines.includes('/clear — 새 대화 시작'), 'one command a line, in Korean');
    assert.ok(lines.includes('/deploy — Ship the build to staging'));
    assert.equal(lines.length, published.length + 2, 'the heading, then every command the view was given');
    assert.match(await shown({ message: 'The agent is busy: your prompt is queued and goes out when the turn ends.', words: { id: 'queued' } }), /에이전트가 작업 중입니다/);
    assert.match(await shown({ message: 'A phrase from a newer host.', words: { id: 'newer_phrase' } }), /A phrase from a newer host\./, 'an unknown phrase shows the host’s English');
    assert.deepEqual(pageErrors(page), []);
    await page.screenshot({ path: join(RESULTS_DIR, 'webview-host-words-ko.png'), fullPage: true });
    await page.close();
  });

  it('§9.2-1 decision 639: the host\'s plan approval (Claude Code\'s ExitPlanMode as a YN question) is Korean in a Korean view; an agent\'s own YN keeps its words', async () => {
    const page = await h.open({ height: 900, locale: 'ko-KR' });
    const b = streamBuilder(SESSION, Date.now());
    const T = { turn_id: TURN };
    const plan = { interaction_id: 'plan-1', interaction_type: 'YN' as const, question_text: hostPhrase('plan.question'), timeout_sec: 300, options: [{ value: 'yes', label: hostPhrase('plan.approve'), risk_level: 'moderate' as const }, { value: 'no', label: hostPhrase('plan.keep'), risk_level: 'safe' as const }], default_value: 'no', context: { tool_name: 'ExitPlanMode' } };
    const own = { interaction_id: 'own-1', interaction_type: 'YN' as const, question_text: 'Deploy to staging now?', timeout_sec: 300, options: [{ value: 'yes', label: 'Ship it' }, { value: 'no', label: 'Not yet' }], default_value: 'no' };
    await feed(page, SESSION, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T), b.make('agent.interaction.request', plan, T), b.make('agent.interaction.request', own, T)] as never, true);
    await rendered(page);
    const card = page.locator('[data-interaction="plan-1"]');
    await card.waitFor();
    assert.match(await card.innerText(), /이 계획을 승인하고 에이전트가 시작하게 할까요\?/);
    assert.equal(await card.getByRole('button', { name: /^승인/ }).count() + (await card.getByRole('radio', { name: /^승인/ }).count()), 1, 'Approve, in Korean');
    assert.match(await card.innerText(), /계속 계획하기/);
    const other = page.locator('[data-interaction="own-1"]');
    assert.match(await other.innerText(), /Deploy to staging now\?/);
    assert.match(await other.innerText(), /Ship it/);
    assert.deepEqual(pageErrors(page), []);
    await page.close();
  });

  it('inside VS Code the page’s data-locale wins over the browser: Korean on an English browser, questions of every kind', async () => {
    const page = await h.open({ height: 1600, locale: 'en-US' }, `${h.origin}/fixture-ko.html`);
    await feed(page, SESSION, interactionsStream(), true);
    await rendered(page);
    const text = await screenText(page);
    for (const words of ['하나 선택', '여러 개 선택', '답변 입력', '권한 필요', '위험 높음', '답변 보내기', '기본값', '남음', '이후 자동 거부', '계획'])
      assert.ok(text.includes(words), `“${words}” on screen`);
    assert.doesNotMatch(text, CODES);
    assert.deepEqual(pageErrors(page), []);
  });
});
