// Issue 15 Why 5 in real Chromium: the header says, with visible labels, which session, which agent
// and which mode the chat is in, and fits the default sidebar width (300 px), the agent's name whole
// (the mode goes below it when both do not fit, decision 692);
// picking an agent goes to the host, whose offer of a new session is shown and acted on; a mode
// switch confirmed by the engine (as after `/mode review`) shows at once.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { feed, hostSays, pageErrors, startHarness, waitForMessages, type Harness } from '../../browser/harness';
import { SESSION, TURN, clientCaps } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';
import { selectWidths } from '../../support/selectWidth';

interface Box {
  what: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const LONG = 'A session with a really rather long name about the auth module';

async function openHeader(h: Harness, width: number): Promise<Page> {
  const page = await h.open({ width, height: 700 });
  await feed(page, SESSION, [clientCaps(streamBuilder(SESSION))], true);
  await hostSays(page, [
    { kind: 'session.list', payload: { active_session_id: SESSION, sessions: [{ session_id: SESSION, name: LONG, agent: 'builtin', shared: true }] } },
    // As in a fresh install: the unavailable agents are listed too, and their long names make the
    // agent select's own width large (it must not take the mode select's room).
    { kind: 'agent.list', payload: { selected: 'builtin', agents: [{ id: 'builtin', name: 'Built-in (offline)', available: true }, { id: 'claude-code', name: 'Claude Code', available: true }, { id: 'acp:claude-code-acp', name: 'Claude Code (ACP, Zed)', available: false, unavailable_reason: '`claude-code-acp` not found on PATH' }] } },
    { kind: 'settings', payload: { permission_rules: [{ id: 'r1', tool_name: 'Bash', command_prefix: 'npm test', created_at: '2026-03-16T10:00:00.000Z' }] } },
  ]);
  return page;
}

/** Boxes of the header's controls and labels, and the header's own box. */
async function headerBoxes(page: Page): Promise<{ bar: Box; items: Box[] }> {
  // One function body, no inner named functions (tsx would wrap them in a helper the page lacks).
  return page.evaluate(() => {
    const bar = document.querySelector('.session-bar')!;
    const els = [bar, ...bar.querySelectorAll('.bar-row > .field > label, .bar-row select, .bar-row button, .bar-row .codicon')];
    const boxes = els.map((el) => {
      const r = el.getBoundingClientRect();
      const label = el.getAttribute('aria-label');
      const what = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${label ? `[${label}]` : ''}.${String(el.className).split(' ').join('.')}`;
      return { what, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    });
    return { bar: boxes[0], items: boxes.slice(1) };
  });
}

describe('webview in Chromium: the header (issue 15 Why 5)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  for (const width of [300, 240, 520]) {
    it(`decision 361 at ${width} px: visible Session, Agent and Mode labels, two rows, the agent's name whole (decision 692), nothing outside the header (the shield included)`, async () => {
      const page = await openHeader(h, width);
      for (const label of ['Session', 'Agent', 'Mode']) {
        const l = page.locator('.session-bar label', { hasText: new RegExp(`^${label}$`) });
        assert.equal(await l.count(), 1, `${label} label`);
        assert.ok(await l.isVisible(), `${label} label visible`);
        const b = await l.boundingBox();
        assert.ok(b && b.width > 10 && b.height > 6, `${label} label has a size (not sr-only)`);
      }
      assert.equal(await page.locator('#agent-select').inputValue(), 'builtin', 'the agent of the session in front of the user');
      const { bar, items } = await headerBoxes(page);
      assert.ok(items.length >= 12, `measured ${items.length} boxes`);
      for (const b of items) {
        assert.ok(b.left >= bar.left - 0.5 && b.right <= bar.right + 0.5, `${b.what} inside the header horizontally: ${JSON.stringify(b)} in ${JSON.stringify(bar)}`);
        assert.ok(b.right - b.left > 0, `${b.what} is not squeezed to nothing`);
      }
      // Two rows exactly: every box's vertical centre lies in one of two bands.
      const rows = await page.evaluate(() => [...document.querySelectorAll('.session-bar > .bar-row')].map((r) => { const x = r.getBoundingClientRect(); return { top: x.top, bottom: x.bottom }; }));
      assert.equal(rows.length, 2);
      for (const b of items) {
        const mid = (b.top + b.bottom) / 2;
        assert.ok(rows.some((r) => mid >= r.top && mid <= r.bottom), `${b.what} sits in one of the two rows`);
      }
      // The session row never grows a second line; the agent row does only when agent and mode
      // would not both fit whole (decision 692), never at a wide side bar.
      const controlHeight = Math.max(...items.filter((b) => b.what.startsWith('select')).map((b) => b.bottom - b.top));
      assert.ok(rows[0].bottom - rows[0].top <= controlHeight + 4, `session row height ${rows[0].bottom - rows[0].top} ≈ one control (${controlHeight})`);
      if (width >= 520) assert.ok(rows[1].bottom - rows[1].top <= controlHeight + 4, `agent row height ${rows[1].bottom - rows[1].top} ≈ one control (${controlHeight})`);
      assert.ok(rows[1].bottom - rows[1].top <= 2 * controlHeight + 8, 'the agent row is at most two lines');
      // Decision 692: the agent select shows its agent's name whole ("Built-in (offline)", not
      // "Built-i…"): it is at least as wide as a select holding only that option.
      const agent = await page.locator('#agent-select').evaluate(selectWidths, { onlyChosen: true, unbounded: true });
      assert.ok(agent.width >= agent.natural - 0.5, `the agent's name is whole: ${agent.width} px of ${agent.natural}`);
      // The shield (rules) is on the session row, at its right end.
      const shield = items.find((b) => b.what.includes('[Permission rules]'))!;
      const session = items.find((b) => b.what.startsWith('select#session-select'))!;
      assert.ok(Math.abs((shield.top + shield.bottom) / 2 - (session.top + session.bottom) / 2) < 4, 'the shield shares the session row');
      assert.ok(shield.left > session.right, 'right of the session select');
      // The mode select shows its word whole ("Default", not "D"): it is as wide as it would be alone.
      const mode = await page.locator('#mode-select').evaluate(selectWidths, { onlyChosen: false, unbounded: false });
      assert.ok(mode.width >= mode.natural - 0.5, `the mode select is not squeezed: ${mode.width} px of ${mode.natural}`);
      assert.deepEqual(pageErrors(page), []);
      if (width === 300) await page.screenshot({ path: 'test-results/webview-header-300.png' });
    });
  }

  it('the page itself never scrolls: the screen reader’s live regions below the status bar add no pixel of overflow (no second scrollbar beside the transcript’s)', async () => {
    const page = await openHeader(h, 300);
    assert.ok((await page.locator('.live-regions .sr-only').count()) >= 2, 'the live regions are there');
    const sizes = await page.evaluate(() => {
      const se = document.scrollingElement!;
      return { scrollHeight: se.scrollHeight, clientHeight: se.clientHeight, scrollWidth: se.scrollWidth, clientWidth: se.clientWidth };
    });
    assert.ok(sizes.scrollHeight <= sizes.clientHeight, `no vertical overflow of the page: ${JSON.stringify(sizes)}`);
    assert.ok(sizes.scrollWidth <= sizes.clientWidth, `no horizontal overflow of the page: ${JSON.stringify(sizes)}`);
  });

  it('decision 361: picking an agent asks the host; its offer for a session with history is shown, and "New session with X" starts one with that agent', async () => {
    const page = await openHeader(h, 300);
    await page.locator('#agent-select').selectOption('claude-code');
    assert.deepEqual((await waitForMessages(page, 'agent.pick', 1)).map((m) => m.payload), [{ agent_id: 'claude-code' }]);
    await hostSays(page, [{ kind: 'agent.offer', payload: { session_id: SESSION, agent_id: 'claude-code', agent_name: 'Claude Code' } }]);
    assert.equal(await page.locator('#agent-select').inputValue(), 'builtin', 'the session keeps its agent');
    assert.match(await page.locator('.agent-offer').innerText(), /stays with Built-in \(offline\)/);
    await page.getByRole('button', { name: 'New session with Claude Code' }).click();
    assert.deepEqual((await waitForMessages(page, 'session.new', 1)).map((m) => m.payload), [{ agent: 'claude-code' }]);
    assert.equal(await page.locator('.agent-offer').count(), 0, 'the offer is gone once taken');
  });

  it('the permission rules panel: Esc closes it and focus goes back to its button; with no rules it says so (no empty list), in English and Korean', async () => {
    const page = await openHeader(h, 300);
    const button = page.getByRole('button', { name: 'Permission rules' });
    await button.click();
    await page.waitForSelector('.rules-panel');
    assert.equal(await page.locator('.rules-panel li').count(), 1);
    // Esc from inside the panel (its revoke button) closes it and focuses the shield.
    await page.locator('.rules-panel button').focus();
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.rules-panel').count(), 0, 'closed by Esc');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Permission rules');
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    // Esc right after opening it (focus still on the button) closes it too.
    await button.click();
    await page.waitForSelector('.rules-panel');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.rules-panel').count(), 0);
    // No rules: a sentence, not an empty list.
    await hostSays(page, [{ kind: 'settings', payload: { permission_rules: [] } }]);
    await button.click();
    await page.waitForSelector('.rules-panel');
    assert.equal(await page.locator('.rules-panel ul').count(), 0, 'no empty list');
    assert.equal(await page.locator('.rules-panel').innerText(), 'No saved permission rules yet: every permission is asked.');
    await page.close();

    const ko = await h.open({ width: 300, height: 700, locale: 'ko-KR' });
    await feed(ko, SESSION, [clientCaps(streamBuilder(SESSION))], true);
    await hostSays(ko, [{ kind: 'settings', payload: { permission_rules: [] } }]);
    await ko.locator('.session-bar .codicon-shield').click();
    assert.equal(await ko.locator('.rules-panel').innerText(), '저장된 권한 규칙이 없습니다. 모든 권한을 물어봅니다.');
    assert.equal(await ko.locator('.rules-panel ul').count(), 0);
    await ko.close();
  });

  it('decision 361: after the host switched an empty session, the header shows the new agent', async () => {
    const page = await openHeader(h, 300);
    const NEW = '66666666-6666-4666-8666-666666666666';
    await hostSays(page, [
      { kind: 'session.attached', payload: { session_id: NEW, name: 'Claude Code', agent: 'claude-code', live: true } },
      { kind: 'session.list', payload: { active_session_id: NEW, sessions: [{ session_id: NEW, name: 'Claude Code', agent: 'claude-code' }] } },
    ]);
    assert.equal(await page.locator('#agent-select').inputValue(), 'claude-code');
    assert.equal(await page.locator('#session-select').inputValue(), NEW);
  });

  it('§6.3.2 a mode switch the engine confirms (agent.state.changed "mode_switch", as after /mode review) shows in the header at once, before any turn', async () => {
    const page = await openHeader(h, 300);
    assert.equal(await page.locator('#mode-select').inputValue(), 'default');
    const b = streamBuilder(SESSION);
    await feed(page, SESSION, [b.make('agent.state.changed', { previous_state: 'idle', current_state: 'idle', reason: 'mode_switch', mode: 'review' })]);
    assert.equal(await page.locator('#mode-select').inputValue(), 'review');
    assert.match(await page.locator('#mode-select option:checked').innerText(), /Review/);
    assert.equal(await page.locator('.turn-separator').count(), 0, 'no turn was needed');
    await feed(page, SESSION, [b.make('session.turn.start', { turn_id: TURN, turn_index: 0, mode: 'plan' }, { turn_id: TURN })]);
    assert.equal(await page.locator('#mode-select').inputValue(), 'plan');
  });
});
