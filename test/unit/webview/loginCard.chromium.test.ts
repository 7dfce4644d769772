// Issue 15 Why 4 in real Chromium: the AUTH_REQUIRED agent.error that the Claude Code adapter makes
// from the CLI's "Not logged in" result (built here by the adapter's own turnEnd) renders as one
// login card — the command to run, a "Log in in a terminal" button and a "Set API key" button that
// send `agent.login` to the host — and not as a red error block with a protocol code.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { turnEnd } from '../../../src/agents/claudeCode/turnEnd';
import { parseStreamLine } from '../../../src/agents/claudeCode/streamJson';
import { AUTH_REQUIRED } from '../../../src/protocol/agentLogin';
import { authRequiredError } from '../../../src/agents/authRequired';
import type { Frame } from '../../../src/protocol/frameTypes';
import { join } from 'node:path';
import { feed, pageErrors, rendered, RESULTS_DIR, startHarness, waitForMessages, type Harness } from '../../browser/harness';
import { SESSION, TURN, clientCaps } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const T = { turn_id: TURN };

/** The frames of a turn Claude Code ended with "Not logged in" (its real result line, captured from claude 2.1). */
function notLoggedInTurn(): Frame[] {
  const line = parseStreamLine({ type: 'result', subtype: 'success', is_error: true, api_error_status: null, num_turns: 1, result: 'Not logged in · Please run /login', session_id: 'a53dfd0b' });
  assert.equal(line.kind, 'line');
  if (line.kind !== 'line' || line.line.type !== 'result') throw new Error('not a result line');
  const end = turnEnd(line.line, false, true);
  assert.equal(end.error?.type, 'agent.error');
  if (end.error?.type !== 'agent.error') throw new Error('no agent.error');
  const b = streamBuilder(SESSION, Date.now());
  return [
    clientCaps(b),
    b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T),
    b.make('agent.error', end.error.payload, T),
    b.make('session.turn.end', { turn_id: TURN, stop_reason: 'error' }, T),
  ];
}

async function agents(page: Page, selected: string): Promise<void> {
  await page.evaluate((selected) => {
    const w = window as unknown as { rawpFake: { host(m: unknown): void } };
    w.rawpFake.host({ kind: 'agent.list', payload: { agents: [{ id: 'builtin', name: 'Built-in (offline)', available: true }, { id: 'claude-code', name: 'Claude Code 2.1.197', available: true }], selected } });
  }, selected);
}

async function showCard(page: Page): Promise<void> {
  await agents(page, 'claude-code');
  await feed(page, SESSION, notLoggedInTurn(), true);
}

describe('webview in Chromium: the not-logged-in card (issue 15 Why 4, decision 381)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('§4.4.1 AUTH_REQUIRED is one card naming the agent and the command, with no red error block and no bare code', async () => {
    const page = await h.open();
    await showCard(page);
    const card = page.locator('.login-card');
    assert.equal(await card.count(), 1);
    assert.equal(await page.locator('.error-block').count(), 0);
    assert.equal((await card.locator('.login-title').innerText()).trim(), 'Claude Code is not logged in.');
    assert.equal(await card.locator('code').innerText(), 'claude auth login');
    const text = await card.innerText();
    assert.doesNotMatch(text, new RegExp(AUTH_REQUIRED), 'the code is only in the tooltip');
    assert.equal(await card.getAttribute('title'), AUTH_REQUIRED);
    assert.match(text, /Anthropic API key/);
    // The CLI's own words are kept, folded away.
    await card.locator('summary').click();
    assert.match(await card.locator('.login-trace').innerText(), /Not logged in · Please run \/login/);
    assert.deepEqual(pageErrors(page), []);
  });

  it('the buttons send agent.login for the terminal and for the API key; both work from the keyboard', async () => {
    const page = await h.open();
    await showCard(page);
    await page.locator('.login-card button', { hasText: 'Log in in a terminal' }).click();
    const keyButton = page.locator('.login-card button', { hasText: 'Set Anthropic API key' });
    await keyButton.focus();
    await page.keyboard.press('Enter');
    await rendered(page);
    const logins = (await waitForMessages(page, 'agent.login', 2)).map((m) => m.payload);
    assert.deepEqual(logins, [
      { agent_id: 'claude-code', via: 'terminal' },
      { agent_id: 'claude-code', via: 'api_key' },
    ]);
  });

  it('in Korean (the browser\'s language) the card speaks Korean', async () => {
    const page = await h.open({ locale: 'ko-KR' });
    await showCard(page);
    assert.match(await page.locator('.login-card .login-title').innerText(), /로그인되어 있지 않습니다/);
    assert.equal(await page.locator('.login-card button').count(), 2);
  });

  it('§4.4.1 Codex, Gemini CLI and codex-acp get the same card with their own login and key (decision 440, 441)', async () => {
    const cases = [
      { id: 'codex', name: 'Codex 0.171.0', title: 'Codex is not logged in.', command: 'codex login', key: 'Set OpenAI API key', trace: 'unexpected status 401 Unauthorized' },
      { id: 'acp:gemini', name: 'Gemini CLI (ACP) 0.61.0', title: 'Gemini CLI (ACP) is not logged in.', command: 'gemini', key: 'Set Gemini API key', trace: 'Gemini API key is missing or not configured.' },
      { id: 'acp:codex-acp', name: 'Codex (ACP, Zed)', title: 'Codex (ACP, Zed) is not logged in.', command: 'codex login', key: 'Set OpenAI API key', trace: 'Authentication required' },
    ];
    for (const c of cases) {
      const page = await h.open();
      await page.evaluate((c) => {
        const w = window as unknown as { rawpFake: { host(m: unknown): void } };
        w.rawpFake.host({ kind: 'agent.list', payload: { agents: [{ id: 'builtin', name: 'Built-in (offline)', available: true }, { id: c.id, name: c.name, available: true }], selected: c.id } });
      }, c);
      const error = authRequiredError(c.id, c.name.replace(/ \d+\.\d+\.\d+$/, ''), { trace: c.trace });
      if (error.type !== 'agent.error') throw new Error('no agent.error');
      const b = streamBuilder(SESSION, Date.now());
      await feed(page, SESSION, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T), b.make('agent.error', error.payload, T), b.make('session.turn.end', { turn_id: TURN, stop_reason: 'error' }, T)], true);
      const card = page.locator('.login-card');
      await card.locator('.login-title', { hasText: c.title }).waitFor({ timeout: 10_000 });
      await card.locator('code', { hasText: c.command }).waitFor({ timeout: 10_000 });
      await card.locator('button', { hasText: c.key }).waitFor({ timeout: 10_000 });
      assert.equal(await card.count(), 1, c.id);
      assert.equal(await page.locator('.error-block').count(), 0, c.id);
      if (c.id === 'acp:gemini') assert.match(await card.innerText(), /Login with Google/);
      await card.locator('button', { hasText: c.key }).click();
      const logins = (await waitForMessages(page, 'agent.login', 1)).map((m) => m.payload);
      assert.deepEqual(logins, [{ agent_id: c.id, via: 'api_key' }], c.id);
      assert.deepEqual(pageErrors(page), []);
      await page.close();
    }
  });

  it('first run: an empty session names the agent in use and how to switch (decision 383)', async () => {
    const page = await h.open();
    await agents(page, 'claude-code');
    await feed(page, SESSION, [clientCaps(streamBuilder(SESSION, Date.now()))], true);
    const hint = page.locator('.first-run-hint');
    assert.equal(await hint.locator('.first-run-agent').innerText(), 'You are talking to Claude Code 2.1.197.');
    assert.match(await hint.innerText(), /Agent menu above or run “RAWP: Pick Agent…”/);
    assert.doesNotMatch(await hint.innerText(), /built-in agent/);
    // The built-in agent says what it is and how a real one is found.
    await agents(page, 'builtin');
    await rendered(page);
    assert.equal(await hint.locator('.first-run-agent').innerText(), 'You are talking to Built-in (offline).');
    assert.match(await hint.innerText(), /works offline without a model .*rawp\.agents\.<name>\.path/s);
    // The first turn replaces the hint.
    await feed(page, SESSION, notLoggedInTurn());
    assert.equal(await page.locator('.first-run-hint').count(), 0);
  });

  it('first run in the browser page of rawp serve: no VS Code command or setting is named, the Agent menu and rawp serve --agent are (decision 607)', async () => {
    for (const [locale, switchText, builtinText] of [
      ['en-US', 'To use another agent, pick it in the Agent menu above.', /on the computer that runs rawp serve, then pick it in the Agent menu or start rawp serve with --agent\./],
      ['ko-KR', '다른 에이전트를 쓰려면 위의 에이전트 메뉴에서 고르세요.', /rawp serve가 실행되는 컴퓨터에 .* rawp serve를 --agent와 함께 시작하세요\./],
    ] as const) {
      const page = await h.open({ locale }, `${h.url}#place=browser`);
      await agents(page, 'builtin');
      await feed(page, SESSION, [clientCaps(streamBuilder(SESSION, Date.now()))], true);
      const hint = page.locator('.first-run-hint');
      await hint.waitFor();
      const text = await hint.innerText();
      assert.ok(text.includes(switchText), text);
      assert.match(text, builtinText);
      assert.doesNotMatch(text, /RAWP: |rawp\.agents|에이전트 선택…/, 'nothing that exists only in VS Code');
    }
  });

  it('first run: the agents that cannot run are listed with why, folded, in the view\'s language; the summary opens by keyboard (decision 611)', async () => {
    const words = [{ id: 'not_on_path', args: ['codex'] }, { id: 'install_or_setting', args: ['@openai/codex', 'codex'] }];
    for (const [locale, summary, reason] of [
      ['en-US', 'Agents that cannot run here (2)', 'Codex: codex not found on PATH; install it with npm i -g @openai/codex or set rawp.agents.codex.path'],
      ['ko-KR', '여기서 실행할 수 없는 에이전트 (2)', 'Codex: PATH에서 codex을(를) 찾지 못했습니다. npm i -g @openai/codex로 설치하거나 rawp.agents.codex.path 설정에 실행 파일 경로를 적으세요'],
    ] as const) {
      const page = await h.open({ locale });
      await page.evaluate((words) => {
        const w = window as unknown as { rawpFake: { host(m: unknown): void } };
        w.rawpFake.host({
          kind: 'agent.list',
          payload: {
            selected: 'builtin',
            agents: [
              { id: 'builtin', name: 'Built-in (offline)', available: true },
              { id: 'codex', name: 'Codex', available: false, unavailable_reason: '`codex` not found on PATH; install it with `npm i -g @openai/codex` or set rawp.agents.codex.path', unavailable_words: words },
              { id: 'acp:odd', name: 'ACP agent (odd `line)', available: false, unavailable_reason: 'unterminated quote in `odd "line' },
            ],
          },
        });
      }, words);
      await feed(page, SESSION, [clientCaps(streamBuilder(SESSION, Date.now()))], true);
      const missing = page.locator('.first-run-hint details.first-run-missing');
      await missing.waitFor();
      assert.equal(await missing.locator('summary').innerText(), summary);
      assert.equal(await missing.getAttribute('open'), null, 'folded at first');
      await missing.locator('summary').focus();
      await page.keyboard.press('Enter');
      const items = missing.locator('li');
      await items.first().waitFor({ state: 'visible' });
      assert.equal(await items.nth(0).innerText(), reason, locale);
      assert.deepEqual(await items.nth(0).locator('code').allInnerTexts(), ['codex', 'npm i -g @openai/codex']);
      assert.equal(await items.nth(1).innerText(), 'ACP agent (odd `line): unterminated quote in `odd "line', 'an unpaired backquote stays as written');
      await page.screenshot({ path: join(RESULTS_DIR, `webview-first-run-missing-${locale}.png`) });
      await page.close();
    }
  });

  it('first run in Korean', async () => {
    const page = await h.open({ locale: 'ko-KR' });
    await agents(page, 'claude-code');
    await feed(page, SESSION, [clientCaps(streamBuilder(SESSION, Date.now()))], true);
    assert.equal(await page.locator('.first-run-agent').innerText(), '지금 대화 상대는 Claude Code 2.1.197입니다.');
  });
});
