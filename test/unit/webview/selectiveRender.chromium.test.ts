// Issue 18, decision 507: a flush that changes only the transcript re-renders the transcript and
// what reads it, not the header, the composer or the banners (useStoreSelect). What each of those
// shows from the transcript must still follow it: here every change comes in a flush of its own,
// after the part that shows it has rendered, in real Chromium. A selector that missed one of its
// inputs (the error counts and the token totals change in place) leaves that part stale and fails.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { feed, startHarness, type Harness } from '../../browser/harness';
import { SESSION, TURN, clientCaps } from '../../browser/streams';
import { streamBuilder, usagePayload } from '../../fixtures/frames/streamBuilder';

describe('webview in Chromium: parts that skip transcript-only flushes still follow the transcript (issue 18)', function () {
  this.timeout(60_000);
  let h: Harness;
  let page: Page;
  const b = streamBuilder(SESSION);
  const T = { turn_id: TURN };
  const state = () => page.locator('.agent-state').getAttribute('data-code');
  const stop = () => page.getByRole('button', { name: 'Stop the running turn (Esc)' }).count();

  before(async () => {
    h = await startHarness();
    page = await h.open();
    await feed(page, SESSION, [clientCaps(b), b.make('agent.state.changed', { previous_state: 'idle', current_state: 'idle', reason: 'attached' })], true);
  });
  after(async () => h?.close());

  it('§4.6 §6.1.2 the status bar and the composer follow a turn opening: thinking, and a Stop button', async () => {
    assert.equal(await state(), 'idle');
    assert.equal(await stop(), 0);
    await feed(page, SESSION, [b.make('control.prompt.request', { prompt_text: 'Fix the check' }), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T)]);
    assert.equal(await stop(), 1, 'the open turn shows Stop');
    await feed(page, SESSION, [b.make('agent.state.changed', { previous_state: 'idle', current_state: 'thinking' }, T)]);
    assert.equal(await state(), 'thinking');
    await feed(page, SESSION, [b.make('agent.text.delta', { content_index: 0, text: 'Looking at the check. ' }, T)]);
    assert.equal(await state(), 'thinking');
  });

  it('§7.3 the usage meter follows each usage report, the token totals (kept in place) included', async () => {
    await feed(page, SESSION, [b.make('session.usage', { ...usagePayload(1200, 340, TURN), context_window: { capacity: 200000, used: 150000, utilization: 0.75 } }, T)]);
    assert.equal(await page.locator('[role=meter]').getAttribute('aria-valuenow'), '75');
    assert.match(await page.locator('.usage').innerText(), /1\.2k in · 340 out/);
    await feed(page, SESSION, [b.make('session.usage', { ...usagePayload(2400, 500, TURN), context_window: { capacity: 200000, used: 100000, utilization: 0.5 } }, T)]);
    assert.equal(await page.locator('[role=meter]').getAttribute('aria-valuenow'), '50');
    assert.match(await page.locator('.usage').innerText(), /2\.4k in · 500 out/);
  });

  it('§4.4 the error counts (kept in place) follow each error', async () => {
    const warning = b.make('agent.error', { error_code: 'RATE_LIMITED', message: 'Slow down a little', severity: 'warning', recoverable: true }, T);
    await feed(page, SESSION, [warning]);
    const shown = () => page.locator('.error-counts .severity-warning > span[aria-hidden="true"]:not(.codicon)').innerText();
    assert.equal((await shown()).trim(), '1');
    await feed(page, SESSION, [b.make('agent.error', { error_code: 'RATE_LIMITED', message: 'Slow down again', severity: 'warning', recoverable: true }, T)]);
    assert.equal((await shown()).trim(), '2');
    // Said in words, in a named group (a bare "2" before, the trial of 2026-12-06).
    assert.equal(await page.getByRole('group', { name: 'Errors' }).locator('.sr-only').innerText(), 'Warnings: 2');
  });

  it('§6.3.2 the mode picker follows the engine\'s confirmation of a switch', async () => {
    assert.equal(await page.locator('#mode-select').inputValue(), 'default');
    await feed(page, SESSION, [b.make('agent.state.changed', { previous_state: 'thinking', current_state: 'thinking', reason: 'mode_switch', mode: 'plan' }, T)]);
    assert.equal(await page.locator('#mode-select').inputValue(), 'plan');
  });

  it('§8 the task list appears with the first todo update and follows the next', async () => {
    assert.equal(await page.locator('.todo-panel').count(), 0);
    const todos = (done: number) => ({ success: true, count: 2, todos: [{ id: 't1', content: 'Reproduce the bug', status: done >= 1 ? 'completed' : 'in_progress' }, { id: 't2', content: 'Fix the check', status: done >= 2 ? 'completed' : 'pending' }] });
    for (const [id, done] of [['inv-todo-1', 1], ['inv-todo-2', 2]] as const) {
      await feed(page, SESSION, [
        b.make('tool.invoke.request', { invocation_id: id, tool_name: 'TodoWrite', input: { todos: [] } }, T),
        b.make('tool.invoke.result', { invocation_id: id, tool_name: 'TodoWrite', status: 'success', output: todos(done), output_type: 'structured' }, T),
      ]);
      assert.match(await page.locator('.todo-panel .todo-toggle').innerText(), new RegExp(`Tasks ${done}/2`));
    }
  });

  it('§6.1.2 §4.6 the turn\'s end takes the Stop button away and the status bar back to ready', async () => {
    await feed(page, SESSION, [b.make('session.turn.end', { turn_id: TURN, stop_reason: 'end_turn', tool_invocation_count: 2 }, T)]);
    assert.equal(await stop(), 0);
    await feed(page, SESSION, [b.make('agent.state.changed', { previous_state: 'thinking', current_state: 'idle' }, T)]);
    assert.equal(await state(), 'idle');
  });

  it('§7.7.1 the banner follows the session\'s end, a transcript-only frame', async () => {
    assert.equal(await page.locator('.banner.info').count(), 0);
    await feed(page, SESSION, [b.make('session.deleted', { session_id: SESSION, reason: 'user_request', deleted_by: 'master' })]);
    assert.equal(await page.locator('.banner.info').count(), 1);
  });
});
