// Issue 15 Why 3 in real Chromium: a permission prompt that is cancelled (Stop), whose turn ended,
// that another master answered, whose own deadline passed, whose host restarted, or whose answer
// the client refused
// retires at once: no live Allow/Reject, no ticking countdown, no red UNKNOWN_INTERACTION block.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { feed, pageErrors, rendered, sentFrames, startHarness, waitForSent, type Harness } from '../../browser/harness';
import { GATE_OPTIONS, SESSION, TURN, clientCaps } from '../../browser/streams';
import type { Frame } from '../../../src/protocol/frameTypes';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const T = { turn_id: TURN };

function pendingWrite(timeout_sec = 300): { b: ReturnType<typeof streamBuilder>; frames: Frame[] } {
  const b = streamBuilder(SESSION, Date.now());
  return {
    b,
    frames: [
      clientCaps(b),
      b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T),
      b.make('agent.state.changed', { previous_state: 'idle', current_state: 'waiting_permission' }, T),
      b.make('agent.interaction.request', { interaction_id: 'i-write', interaction_type: 'PERMISSION', question_text: 'Allow Write notes.md?', timeout_sec, options: GATE_OPTIONS, default_value: 'reject', context: { tool_name: 'Write', affected_paths: ['notes.md'] } }, T),
    ],
  };
}

async function assertRetired(page: Page, text: RegExp): Promise<void> {
  const card = page.locator('.interaction.type-PERMISSION');
  assert.equal(await card.count(), 1);
  assert.equal(await card.locator('button').count(), 0, 'no Allow/Reject left');
  assert.equal(await card.locator('[role=timer]').count(), 0, 'no countdown');
  assert.match(await card.locator('[role=status]').innerText(), text);
  assert.equal(await page.locator('.error-block').count(), 0, 'no red error block');
  assert.deepEqual(pageErrors(page), []);
}

describe('webview in Chromium: a question that ends without this view retires at once (issue 15 Why 3)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  // Esc in the prompt box goes to a waiting question instead (decision 605, browserPageFocus.chromium.test.ts).
  it('§6.1.2 Stop during a pending permission sends the cancel and retires the card before the turn ends', async () => {
    const page = await h.open();
    await feed(page, SESSION, pendingWrite().frames, true);
    assert.equal(await page.locator('.interaction.type-PERMISSION button[data-value="allow_once"]').count(), 1);
    await page.locator('.composer-actions button', { hasText: 'Stop' }).click();
    await rendered(page);
    const cancels = await waitForSent(page, 'control.prompt.cancel', 1);
    assert.deepEqual(cancels.map((f) => f.payload.target_turn_id), [TURN]);
    await assertRetired(page, /Cancelled/);
    assert.deepEqual(await sentFrames(page, 'control.interaction.response'), [], 'nothing was answered');
  });

  it('§7.5.2 the turn ending (cancelled by another view) retires the card', async () => {
    const page = await h.open();
    const { b, frames } = pendingWrite();
    await feed(page, SESSION, frames, true);
    await feed(page, SESSION, [b.make('session.turn.end', { turn_id: TURN, stop_reason: 'cancelled' }, T)]);
    await assertRetired(page, /Cancelled/);
  });

  it('§6.2.1 an answer by another master shows that answer and leaves no buttons', async () => {
    const page = await h.open();
    const { b, frames } = pendingWrite();
    await feed(page, SESSION, frames, true);
    await feed(page, SESSION, [b.make('control.interaction.response', { interaction_id: 'i-write', selected_value: 'allow_once' })]);
    await assertRetired(page, /Answered: Allow once/);
  });

  it('§4.3.1 when timeout_sec runs out the card retires by itself: "No answer in time, so it was rejected"', async () => {
    const page = await h.open();
    await feed(page, SESSION, pendingWrite(2).frames, true);
    assert.equal(await page.locator('.interaction.type-PERMISSION [role=timer]').count(), 1);
    await page.waitForSelector('.interaction.status-expired', { timeout: 10_000 });
    await assertRetired(page, /No answer in time, so it was rejected/);
  });

  it('§4.3.1 the call a permission question is about stops "Waiting for your answer" when the question\'s deadline passes: "Not answered" at once, and still once the host\'s timeout and PERMISSION_TIMEOUT result arrive (decision 656)', async () => {
    const page = await h.open();
    const { b, frames } = pendingWrite(2);
    frames.splice(3, 0, b.make('tool.invoke.request', { invocation_id: 'w1', tool_name: 'Write', input: { file_path: 'notes.md', content: 'x' } }, T));
    await feed(page, SESSION, frames, true);
    const card = page.locator('article.tool-card[data-invocation="w1"]');
    const label = () => page.evaluate(() => document.querySelector('article.tool-card[data-invocation="w1"]')?.getAttribute('aria-label'));
    assert.equal(await label(), 'Tool Write: Waiting for your answer');
    await page.waitForSelector('.interaction.status-expired', { timeout: 10_000 });
    await page.waitForFunction(() => document.querySelector('article.tool-card[data-invocation="w1"]')?.getAttribute('aria-label') === 'Tool Write: Not answered', undefined, { timeout: 5_000 });
    assert.equal(await card.locator('.codicon-loading').count(), 0, 'no spinner: it will not run');
    await feed(page, SESSION, [
      b.make('control.interaction.timeout', { interaction_id: 'i-write' }, T),
      b.make('tool.invoke.result', { invocation_id: 'w1', tool_name: 'Write', status: 'error', error_code: 'PERMISSION_TIMEOUT', output: 'No answer in time', output_type: 'text' }, T),
    ]);
    assert.equal(await label(), 'Tool Write: Not answered', 'the same words once the host\'s verdict is in (it turned a red "Failed")');
    assert.equal(await card.evaluate((el) => el.classList.contains('status-error')), false, 'not a failure of the tool');
    assert.match(await card.innerText(), /No answer came in time, so the action was not allowed\./);
    assert.deepEqual(pageErrors(page), []);
  });

  it('§7.8.2 a question whose host died (a reload) is closed by the restored host: the card says so, not "No answer in time" (decision 656)', async () => {
    const page = await h.open();
    const { b, frames } = pendingWrite(2);
    await feed(page, SESSION, frames, true);
    await feed(page, SESSION, [
      b.make('control.interaction.timeout', { interaction_id: 'i-write' }, { ...T, metadata: { synthetic: true } }),
      b.make('session.turn.end', { turn_id: TURN, stop_reason: 'error' }, { ...T, metadata: { synthetic: true } }),
    ]);
    await page.waitForTimeout(2_500); // past the question's own deadline: still not "in time"
    await assertRetired(page, /Closed: the editor or server restarted before an answer, so nothing was allowed/);
    assert.doesNotMatch(await page.locator('.interaction.type-PERMISSION').innerText(), /in time/);
    // A question that allows nothing says what the agent missed instead.
    const other = await h.open();
    const q = streamBuilder(SESSION, Date.now());
    await feed(other, SESSION, [
      clientCaps(q),
      q.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T),
      q.make('agent.interaction.request', { interaction_id: 'i-yn', interaction_type: 'YN', question_text: 'Use vitest?', timeout_sec: 300 }, T),
      q.make('control.interaction.timeout', { interaction_id: 'i-yn' }, { ...T, metadata: { synthetic: true } }),
    ], true);
    assert.equal((await other.locator('.interaction.type-YN [role=status]').innerText()).trim(), 'Closed: the editor or server restarted before an answer, so the agent got none');
  });

  it('§6.2 an answer the client refuses with UNKNOWN_INTERACTION retires the card instead of a red error', async () => {
    const page = await h.open();
    const { b, frames } = pendingWrite();
    await feed(page, SESSION, frames, true);
    await page.locator('.interaction.type-PERMISSION button[data-value="allow_once"]').click();
    await rendered(page);
    const [mine] = await waitForSent(page, 'control.interaction.response', 1);
    assert.ok(mine, 'the answer was sent');
    await feed(page, SESSION, [b.make('session.error', { error_code: 'UNKNOWN_INTERACTION', message: 'no pending interaction i-write', fatal: false }, { parent_id: mine.message_id })]);
    await assertRetired(page, /No longer open/);
  });
});
