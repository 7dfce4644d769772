// Issue 15 Why 7 in real Chromium: one rendering per fact. A Read result, a Bash output and a
// plan's approval each appear once; Reject is one click and there is only ever one Reject button.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { feed, pageErrors, rendered, waitForSent } from '../../browser/harness';
import { GATE_OPTIONS, SESSION, TURN } from '../../browser/streams';
import { harnessPerSuite, openTurn, T } from '../../browser/turnPage';

/** How often a text is rendered on screen (the screen reader's live regions repeat it once, unseen). */
async function occurrences(page: Page, needle: string): Promise<number> {
  const text = (await page.locator('main.chat > :not(.live-regions)').allInnerTexts()).join('\n');
  return text.split(needle).length - 1;
}

/** The answers the page sent, once it has sent `n` (bounded wait). */
async function answers(page: Page, n = 1): Promise<unknown[]> {
  return (await waitForSent(page, 'control.interaction.response', n)).map((f) => f.payload);
}

describe('webview in Chromium: one rendering per fact (issue 15 Why 7)', function () {
  this.timeout(60_000);
  const chromium = harnessPerSuite();

  it('§5.3.1 a Read result (file_content) is shown once, in its tool card', async () => {
    const { page } = await openTurn(chromium.h, (b) => [
      b.make('tool.invoke.request', { invocation_id: 'r1', tool_name: 'Read', input: { file_path: 'src/greeting.ts' } }, T),
      b.make('tool.invoke.result', { invocation_id: 'r1', tool_name: 'Read', status: 'success', output: '     1\texport const unique_marker_line = 1;\n', output_type: 'file_content' }, T),
      b.make('agent.text.done', { content_index: 0, full_text: 'Read `src/greeting.ts` (1 line).' }, T),
      b.make('session.turn.end', { turn_id: TURN, stop_reason: 'end_turn' }, T),
    ]);
    assert.equal(await occurrences(page, 'unique_marker_line'), 1);
    assert.equal(await page.locator('.tool-card[data-output-type="file_content"] .code-lines').count(), 1);
    assert.deepEqual(pageErrors(page), []);
  });

  it('§5.2 §5.3 Bash output streams live and, once the result holds it, is shown once (not as a stream and again as the result)', async () => {
    const { page, b } = await openTurn(chromium.h, (b) => [
      b.make('tool.invoke.request', { invocation_id: 'b1', tool_name: 'Bash', input: { command: 'make' } }, T),
      b.make('tool.invoke.stream', { invocation_id: 'b1', tool_name: 'Bash', stream_type: 'stdout', chunk: 'compiling bash_marker\n', sequence: 0 }, T),
      b.make('tool.invoke.stream', { invocation_id: 'b1', tool_name: 'Bash', stream_type: 'stderr', chunk: 'warning bash_marker\n', sequence: 1 }, T),
    ]);
    assert.equal(await occurrences(page, 'bash_marker'), 2, 'two lines streamed, each once');
    assert.equal(await page.locator('.stream-output').count(), 1);
    // A failing command: our Bash returns the output plus an exit note (status error).
    await feed(page, SESSION, [b.make('tool.invoke.result', { invocation_id: 'b1', tool_name: 'Bash', status: 'error', output: 'compiling bash_marker\nwarning bash_marker\n(exit code 2)', output_type: 'text' }, T)]);
    assert.equal(await occurrences(page, 'bash_marker'), 2, 'still each line once');
    assert.equal(await page.locator('.stream-output').count(), 0);
    assert.match(await page.locator('.tool-card .tool-output').innerText(), /\(exit code 2\)/);
  });

  it('§9.2 a plan has one approval control: its YN question is inside the plan, with no second card; once answered, focus stays on it', async () => {
    const plan = { content_role: 'plan' as const, plan_id: '55555555-5555-4555-8555-555555555555' };
    const { page } = await openTurn(
      chromium.h,
      (b) => [
        b.make('agent.text.done', { content_index: 0, full_text: '## Plan\n\n1. read a.ts' }, { ...T, metadata: plan }),
        b.make('agent.interaction.request', { interaction_id: 'yn', interaction_type: 'YN', question_text: 'Carry out this plan (1 step)?', timeout_sec: 300, options: [{ value: 'yes', label: 'Approve' }, { value: 'no', label: 'Reject' }], default_value: 'no' }, T),
      ],
      { startedAt: Date.now(), turnStart: { mode: 'plan' } },
    );
    assert.equal(await page.locator('.interaction').count(), 0, 'no separate YN card');
    assert.equal(await page.getByRole('button', { name: /Approve/ }).count(), 1, 'one Approve');
    assert.equal(await page.getByRole('button', { name: /Reject/ }).count(), 1, 'one Reject');
    assert.equal(await occurrences(page, 'Carry out this plan'), 1);
    await page.locator('.plan-approval button[data-value="yes"]').click();
    assert.deepEqual(await answers(page), [{ interaction_id: 'yn', selected_value: 'yes' }]);
    await rendered(page);
    assert.match(await page.locator('.plan-approval').innerText(), /Answered: Approve/);
    assert.equal(await page.locator('.plan-block button').count(), 0);
    // Approve went with the answer: keyboard focus stays on the approval, not on the page's <body>.
    await page.waitForFunction(() => document.activeElement?.classList.contains('plan-approval'), undefined, { timeout: 15_000 }).catch(() => undefined);
    assert.equal(await page.evaluate(() => document.activeElement?.className ?? 'none'), 'plan-approval status-answered', 'focus is on the answered approval');
  });

  it('§6.2.1 Reject is one click: it answers at once, with the reason typed beforehand, and no second Reject ever appears', async () => {
    const { page } = await openTurn(
      chromium.h,
      (b) => [
        b.make('agent.interaction.request', { interaction_id: 'w', interaction_type: 'PERMISSION', question_text: 'Allow Write notes.md?', timeout_sec: 300, options: GATE_OPTIONS, default_value: 'reject', context: { tool_name: 'Write', affected_paths: ['notes.md'] } }, T),
      ],
      { startedAt: Date.now() },
    );
    const rejects = page.getByRole('button', { name: /^Reject/ });
    assert.equal(await rejects.count(), 1);
    await page.getByRole('textbox', { name: /Reason if you reject/ }).fill('not now');
    await rejects.click();
    // Count again right after the click, before any answer arrives: still one (or none).
    assert.ok((await rejects.count()) <= 1, 'no second Reject button');
    assert.deepEqual(await answers(page), [{ interaction_id: 'w', selected_value: 'reject', text_input: 'not now' }]);
    await rendered(page);
    assert.equal(await rejects.count(), 0);
    assert.match(await page.locator('.interaction').innerText(), /Answered: Reject — “not now”/);
  });

  it('§6.2.1 Reject without a reason sends no text_input', async () => {
    const { page } = await openTurn(
      chromium.h,
      (b) => [b.make('agent.interaction.request', { interaction_id: 'w2', interaction_type: 'PERMISSION', question_text: 'Allow Bash?', timeout_sec: 300, options: GATE_OPTIONS, context: { tool_name: 'Bash' } }, T)],
      { startedAt: Date.now() },
    );
    await page.getByRole('button', { name: /^Reject/ }).click();
    assert.deepEqual(await answers(page), [{ interaction_id: 'w2', selected_value: 'reject' }]);
  });
});
