// A keyboard and screen-reader trial of the browser page in Korean (decision 605), in real Chromium:
// focus never falls to <body> when a composer control goes away, Escape in the prompt box goes to a
// waiting question instead of stopping the turn, the permission card's words are Korean (its
// options named by their labels, their badges and the host's descriptions as descriptions), the
// file chip and the page's h1 and title are Korean, the browser page starts in the prompt box, and
// the banners' notices are said by the polite live region.
import { strict as assert } from 'node:assert';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { WebSocketServer, type WebSocket } from 'ws';
import { feed, hostSays, pageErrors, rendered, sentFrames, startHarness, waitForSent, type Harness } from '../../browser/harness';
import { GATE_OPTIONS, SESSION, TURN, clientCaps } from '../../browser/streams';
import type { Frame } from '../../../src/protocol/frameTypes';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const T = { turn_id: TURN };

/** What has focus: the prompt box, a question's option (by value), or the element's tag. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'BODY';
    if (el.getAttribute('role') === 'textbox') return 'prompt';
    return el.dataset.value ? `option:${el.dataset.value}` : `${el.tagName}:${el.getAttribute('aria-label') ?? el.textContent}`;
  });
}

/** Chromium's own accessible name and description of every button (its accessibility tree). */
async function axButtons(page: Page): Promise<Array<{ name: string; description: string }>> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: Array<{ ignored?: boolean; role?: { value?: string }; name?: { value?: string }; description?: { value?: string } }> };
  await cdp.detach();
  return nodes.filter((n) => !n.ignored && n.role?.value === 'button').map((n) => ({ name: n.name?.value ?? '', description: n.description?.value ?? '' }));
}

function permission(b: ReturnType<typeof streamBuilder>, question = 'Allow Write notes.md?', tool = 'Write') {
  return b.make('agent.interaction.request', { interaction_id: 'i-perm', interaction_type: 'PERMISSION', question_text: question, timeout_sec: 300, options: GATE_OPTIONS, default_value: 'reject', context: { tool_name: tool, affected_paths: ['notes.md'] } }, T);
}

describe('webview in Chromium: the browser page\'s focus and its Korean (decision 605)', function () {
  this.timeout(90_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('the Stop button pressed from the keyboard hands focus back to the prompt box when the turn ends', async () => {
    const page = await h.open();
    const b = streamBuilder(SESSION, Date.now());
    await feed(page, SESSION, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T)], true);
    await page.getByRole('button', { name: 'Stop the running turn (Esc)' }).focus();
    await page.keyboard.press('Enter');
    await waitForSent(page, 'control.prompt.cancel', 1);
    await feed(page, SESSION, [b.make('session.turn.end', { turn_id: TURN, stop_reason: 'cancelled' }, T)]);
    assert.equal(await page.getByRole('button', { name: 'Stop the running turn (Esc)' }).count(), 0, 'the Stop button is gone');
    assert.equal(await focused(page), 'prompt');
    assert.deepEqual(pageErrors(page), []);
  });

  it('the Send button pressed from the keyboard hands focus back to the prompt box once it is disabled', async () => {
    const page = await h.open();
    await feed(page, SESSION, [clientCaps(streamBuilder(SESSION))], true);
    await page.locator('[role=textbox]').click();
    await page.keyboard.type('hello');
    await page.getByRole('button', { name: 'Send (Enter)' }).focus();
    await page.keyboard.press('Enter');
    await waitForSent(page, 'control.prompt.request', 1);
    await rendered(page);
    assert.equal(await page.getByRole('button', { name: 'Send (Enter)' }).isDisabled(), true);
    assert.equal(await focused(page), 'prompt');
  });

  /** A page in a running turn whose permission question waits (after `before`, e.g. the call it asks about). */
  async function askingPage(before: (b: ReturnType<typeof streamBuilder>) => Frame[] = () => []): Promise<Page> {
    const page = await h.open();
    const b = streamBuilder(SESSION, Date.now());
    await feed(page, SESSION, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T), ...before(b), permission(b)], true);
    return page;
  }

  it('Escape in the prompt box goes to the waiting permission question — its card, so Enter answers nothing — and Escape again, from the card, stops the turn (decision 649)', async () => {
    const page = await askingPage();
    await page.locator('[role=textbox]').click();
    await page.keyboard.press('Escape');
    await rendered(page);
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.interaction), 'i-perm', 'the question\'s card');
    assert.match(await focused(page), /^SECTION:Permission request/, 'named by its question');
    assert.equal((await sentFrames(page, 'control.prompt.cancel')).length, 0, 'the turn was not stopped');
    assert.equal(await page.getByRole('button', { name: 'Stop the running turn (a question is waiting: Esc goes to it)' }).count(), 1, 'the Stop button says what Esc does now');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(150);
    assert.equal((await sentFrames(page, 'control.interaction.response')).length, 0, 'Esc then Enter approves nothing (it approved "Allow once")');
    await page.keyboard.press('Tab');
    assert.equal(await focused(page), 'option:allow_once', 'Tab reaches its buttons');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Escape');
    const [cancel] = await waitForSent(page, 'control.prompt.cancel', 1);
    assert.deepEqual(cancel.payload, { target_turn_id: TURN, reason: 'user_cancelled' });
    assert.equal((await sentFrames(page, 'control.interaction.response')).length, 0);
  });

  it('Escape stops the running turn from the card an answer left the focus on (decision 649)', async () => {
    const page = await askingPage();
    await page.locator('[data-value=allow_once]').focus();
    await page.keyboard.press('Enter');
    await waitForSent(page, 'control.interaction.response', 1);
    await rendered(page);
    assert.notEqual(await focused(page), 'prompt', 'the focus stays in the conversation');
    await page.keyboard.press('Escape');
    const [cancel] = await waitForSent(page, 'control.prompt.cancel', 1);
    assert.deepEqual(cancel.payload, { target_turn_id: TURN, reason: 'user_cancelled' });
  });

  it('the view focused from the keyboard or a command (focus on the page\'s body) puts the focus in the prompt box; focused by a click, it leaves the focus where the click put it', async () => {
    const page = await h.open();
    await feed(page, SESSION, [clientCaps(streamBuilder(SESSION))], true);
    const focusFromOutside = (pointer: boolean) =>
      page.evaluate(async (withPointer) => {
        (document.activeElement as HTMLElement | null)?.blur();
        if (withPointer) window.dispatchEvent(new PointerEvent('pointerdown'));
        window.dispatchEvent(new FocusEvent('focus'));
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      }, pointer);
    await focusFromOutside(false);
    assert.equal(await focused(page), 'prompt');
    await focusFromOutside(true);
    assert.equal(await focused(page), 'BODY', 'a click decides');
  });

  it('Escape from the feed closes Find in chat first, then clears a text selection, and only then stops the turn (decision 649)', async () => {
    const page = await h.open();
    const b = streamBuilder(SESSION, Date.now());
    await feed(page, SESSION, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T), b.make('agent.text.delta', { content_index: 0, text: 'Reading the file now.' }, T)], true);
    await page.keyboard.press('Control+f');
    await page.locator('.find-bar').waitFor();
    await page.locator('.transcript-scroll').focus();
    await page.keyboard.press('Escape');
    await page.locator('.find-bar').waitFor({ state: 'detached' });
    await page.locator('.text-block').first().evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      document.getSelection()?.removeAllRanges();
      document.getSelection()?.addRange(range);
    });
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => document.getSelection()?.isCollapsed), true, 'the selection went');
    assert.equal((await sentFrames(page, 'control.prompt.cancel')).length, 0, 'the turn still runs');
    await page.keyboard.press('Escape');
    await waitForSent(page, 'control.prompt.cancel', 1);
  });

  it('§4.3 a call asked for permission says it waits for the answer, not that it runs; answered, it runs (the trial of 2026-12-06)', async () => {
    const page = await askingPage((b) => [b.make('tool.invoke.request', { invocation_id: 'w1', tool_name: 'Write', input: { file_path: 'notes.md', content: 'x' } }, T)]);
    const card = page.locator('article.tool-card[data-invocation="w1"]');
    assert.equal(await card.getAttribute('aria-label'), 'Tool Write: Waiting for your answer');
    assert.equal(await card.locator('.codicon-loading').count(), 0, 'no spinner: nothing runs');
    await page.locator('[data-value=allow_once]').click(); // our own answer applies at once (§2.4)
    await page.waitForFunction(() => document.querySelector('article.tool-card[data-invocation="w1"]')?.getAttribute('aria-label') === 'Tool Write: Running');
  });

  it('Escape reaches a waiting question whose row was scrolled out of the list', async () => {
    const page = await h.open({ height: 600 });
    const b = streamBuilder(SESSION, Date.now());
    const frames: Frame[] = [clientCaps(b)];
    for (let i = 0; i < 40; i++) {
      const turn = `old-${i}`;
      frames.push(b.make('session.turn.start', { turn_id: turn, turn_index: i }, { turn_id: turn }), b.make('agent.text.delta', { content_index: 0, text: `Answer ${i}\n\n${'words '.repeat(60)}` }, { turn_id: turn }), b.make('agent.text.done', { content_index: 0 }, { turn_id: turn }), b.make('session.turn.end', { turn_id: turn, stop_reason: 'end_turn' }, { turn_id: turn }));
    }
    frames.push(b.make('session.turn.start', { turn_id: TURN, turn_index: 40 }, T), permission(b));
    await feed(page, SESSION, frames, true);
    await page.locator('.transcript-scroll').evaluate((el) => (el.scrollTop = 0));
    await rendered(page);
    assert.equal(await page.locator('[data-interaction="i-perm"]').count(), 0, 'the question\'s row is not mounted');
    await page.locator('[role=textbox]').click();
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => (document.activeElement as HTMLElement | null)?.dataset.interaction === 'i-perm');
    assert.equal((await sentFrames(page, 'control.prompt.cancel')).length, 0);
  });

  it('in Korean the permission options are named by their labels alone, described by their badges and the host\'s description in Korean, and the question\'s tooltip is the Korean question', async () => {
    const page = await h.open({ locale: 'ko-KR' });
    const b = streamBuilder(SESSION, Date.now());
    await feed(page, SESSION, [clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T), permission(b, 'Allow Bash `sleep 30`?', 'Bash')], true);
    const buttons = (await axButtons(page)).filter((x) => ['이번만 허용', '이 세션에서 허용', '항상 허용', '거부'].includes(x.name));
    assert.deepEqual(buttons, [
      { name: '이번만 허용', description: '위험 보통' },
      { name: '이 세션에서 허용', description: '위험 보통 Edit: src/** 아래 파일' },
      { name: '항상 허용', description: '위험 보통 모든 작업 영역에 규칙으로 저장: Edit: src/** 아래 파일' },
      // Decision 676: Reject carries no risk badge (risk is what allowing does).
      { name: '거부', description: '기본값 원하면 에이전트에게 이유를 알려 줄 수 있습니다' },
    ]);
    assert.deepEqual(await page.locator('.interaction-buttons button').evaluateAll((els) => els.map((e) => e.getAttribute('title'))), [null, 'Edit: src/** 아래 파일', '모든 작업 영역에 규칙으로 저장: Edit: src/** 아래 파일', '원하면 에이전트에게 이유를 알려 줄 수 있습니다']);
    assert.equal(await page.locator('.interaction-buttons button[data-value=allow_once] .badge.risk').isVisible(), true, 'the badge stays on screen');
    const question = 'Bash `sleep 30`을(를) 허용할까요?';
    assert.equal(await page.locator('.interaction .question').getAttribute('title'), question);
    assert.match(await page.locator('[data-live="assertive"]').innerText(), new RegExp(question.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&')), 'the tooltip and the announcement say the same');
  });

  it('in Korean the prompt box\'s file chip is named “파일 …”', async () => {
    const page = await h.open({ locale: 'ko-KR' });
    const b = streamBuilder(SESSION);
    await feed(page, SESSION, [clientCaps(b)], true);
    await page.locator('[role=textbox]').click();
    await page.keyboard.type('@회의');
    const [search] = await waitForSent(page, 'control.file.search', 1);
    await feed(page, SESSION, [b.make('session.file.candidates', { query_id: String(search.payload.query_id), candidates: [{ path: '회의록.md', name: '회의록.md', directory: '' }], truncated: false }, { parent_id: search.message_id })]);
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.editor .chip').getAttribute('aria-label'), '파일 회의록.md');
  });

  it('the chat has one h1 in the view\'s language that takes no room, and axe finds no page-has-heading-one problem', async () => {
    const page = await h.open({ locale: 'ko-KR' });
    await feed(page, SESSION, [clientCaps(streamBuilder(SESSION))], true);
    const h1 = page.locator('h1');
    assert.equal(await h1.count(), 1);
    assert.equal(await h1.innerText(), 'RAWP 채팅');
    const place = await page.evaluate(() => {
      const box = document.querySelector('h1')!.getBoundingClientRect();
      return { width: box.width, height: box.height, barTop: document.querySelector('.session-bar')!.getBoundingClientRect().top, mainTop: document.querySelector('main.chat')!.getBoundingClientRect().top };
    });
    assert.ok(place.width <= 1 && place.height <= 1, `visually hidden (${place.width}×${place.height})`);
    assert.equal(place.barTop, place.mainTop, 'the session bar still starts the page');
    const result = await new AxeBuilder({ page }).withRules(['page-has-heading-one']).analyze();
    assert.deepEqual(result.violations.map((v) => v.id), []);
  });

  it('the banners\' notices (a /rename reply, a copy confirmation) are said by the polite live region, and the newest banner stays', async () => {
    const page = await h.open({ locale: 'ko-KR' });
    await feed(page, SESSION, [clientCaps(streamBuilder(SESSION))], true);
    const polite = page.locator('[data-live="polite"]');
    await hostSays(page, [{ kind: 'notice', payload: { level: 'info', message: 'The session is now called “새 이름”.', words: { id: 'renamed', args: ['새 이름'] } } }]);
    assert.equal((await polite.innerText()).trim(), '세션 이름이 “새 이름”(으)로 바뀌었습니다.');
    await hostSays(page, [{ kind: 'notice', payload: { level: 'info', message: 'Attach URL copied (without the token).' } }]);
    assert.equal((await polite.innerText()).trim(), 'Attach URL copied (without the token).');
    // Said, the banner stays on screen; a newer confirmation takes the older one's place (decision 648).
    assert.deepEqual(await page.locator('.banners .banner.info').allInnerTexts(), ['Attach URL copied (without the token).']);
    await hostSays(page, [{ kind: 'notice', payload: { level: 'warning', message: 'WebFetch works with limits: no proxy' } }]);
    // Each Dismiss is named by its notice (stacked notices had several buttons all named "Dismiss").
    assert.deepEqual(await page.locator('.banners .banner button').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), ['닫기: WebFetch works with limits: no proxy']);
    // A confirmation and a refusal in one message batch (one animation frame): the banner of the
    // confirmation is never drawn, but the polite region still says it (decision 657).
    await hostSays(page, [
      { kind: 'notice', payload: { level: 'info', message: 'This session now uses Codex.' } },
      { kind: 'notice', payload: { level: 'error', message: 'Codex cannot run: codex not found on PATH' } },
    ]);
    assert.equal((await polite.innerText()).trim(), 'This session now uses Codex.', 'said, though replaced before it was shown; the error is said by its role=alert banner');
    assert.deepEqual(await page.locator('.banners .banner.info').count(), 0);
  });

  it('the browser page names itself in the view\'s language and starts in the prompt box', async () => {
    const sockets: WebSocket[] = [];
    const wss = new WebSocketServer({ server: h.server, handleProtocols: (protocols) => (protocols.has('rawp-dps-1.0') ? 'rawp-dps-1.0' : false) });
    wss.on('connection', (socket: WebSocket) => {
      sockets.push(socket);
      socket.send(JSON.stringify(clientCaps(streamBuilder(SESSION))));
    });
    const route = (req: IncomingMessage, res: ServerResponse) => {
      if (req.url !== '/v1/sessions') return false;
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ sessions: [{ session_id: SESSION, name: '회의', state: 'idle' }] }));
      return true;
    };
    h.routes.push(route);
    try {
      const page = await h.open({ locale: 'ko-KR' }, `${h.origin}/browser.html#session=${SESSION}&token=t0ken`);
      await rendered(page);
      assert.equal(await page.title(), 'RAWP 에이전트 클라이언트 — 브라우저');
      assert.equal(await focused(page), 'prompt');
    } finally {
      h.routes.splice(h.routes.indexOf(route), 1);
      for (const s of sockets) s.terminate();
      wss.close();
    }
  });
});
