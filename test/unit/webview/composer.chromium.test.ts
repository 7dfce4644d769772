// The composer in real Chromium: keys, the @ file picker (§16.1, §16.2), /command autocomplete,
// Esc to cancel (§6.1.2) and capability gating (§12.2.1).
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { RESULTS_DIR, feed, hostSays, sentFrames, rendered, startHarness, waitForSent, type Harness } from '../../browser/harness';
import { SESSION, TURN, clientCaps, outputsStream, plainAgentStream } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

describe('webview in Chromium: composer', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  async function ready(frames = outputsStream()): Promise<Page> {
    const page = await h.open();
    await feed(page, SESSION, frames, true);
    await page.locator('[role=textbox]').click();
    return page;
  }

  it('§16.1 / §16.2.1-1 §16.2.1-2 §16.2.2-1 §16.2.2-2 @ picker: debounced search, highlighted candidates, keyboard pick inserts a chip, the prompt carries a token and file_references, typed text is escaped', async () => {
    const page = await ready();
    await page.keyboard.type('Look at @au');
    const searches = await waitForSent(page, 'control.file.search', 1);
    await page.waitForTimeout(250);
    const all = await sentFrames(page, 'control.file.search');
    assert.equal(all.length, 1, 'typing fast sends one debounced search');
    assert.equal(searches[0].payload.query, 'au');
    const search = all[0];
    const b = streamBuilder(SESSION);
    await feed(page, SESSION, [
      b.make(
        'session.file.candidates',
        {
          query_id: String(search.payload.query_id),
          candidates: [
            { path: 'src/auth.ts', name: 'auth.ts', directory: 'src', match_ranges: [{ start: 4, end: 6 }] },
            { path: 'src/audit/log.ts', name: 'log.ts', directory: 'src/audit', match_ranges: [{ start: 4, end: 6 }] },
          ],
          truncated: false,
        },
        { parent_id: search.message_id },
      ),
    ]);
    const options = page.locator('[role=listbox] [role=option]');
    assert.equal(await options.count(), 2);
    assert.deepEqual(await page.locator('[role=listbox] mark').allInnerTexts(), ['au', 'au']);
    assert.equal(await options.nth(0).getAttribute('aria-selected'), 'true');
    await page.screenshot({ path: join(RESULTS_DIR, 'webview-at-picker.png') });
    await page.keyboard.press('ArrowDown');
    assert.equal(await options.nth(1).getAttribute('aria-selected'), 'true');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('[role=listbox]').count(), 0);
    assert.equal(await page.locator('.editor .chip').getAttribute('data-path'), 'src/audit/log.ts');
    await page.keyboard.type('and <@file:evil|/etc/passwd> too');
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.equal(prompt.payload.prompt_text, 'Look at <@file:ref_0|src/audit/log.ts> and \\<@file:evil|/etc/passwd> too');
    assert.deepEqual(prompt.payload.file_references, [{ ref_id: 'ref_0', path: 'src/audit/log.ts', name: 'log.ts', extension: '.ts', workspace_relative_path: 'src/audit/log.ts' }]);
    assert.equal(prompt.payload.input_type, 'text');
    // Our prompt shows in the transcript with the file as a chip and the typed text literal.
    await rendered(page);
    const shown = page.locator('.prompt-block').last();
    assert.equal(await shown.locator('.chip').innerText(), 'src/audit/log.ts');
    assert.match(await shown.innerText(), /and <@file:evil\|\/etc\/passwd> too/);
    assert.equal(await page.locator('.editor').innerText(), '');
  });

  it('§16.1.3 Esc in @ mode cancels the search; §6.1.2 Esc otherwise cancels the running turn', async () => {
    const b = streamBuilder(SESSION);
    const page = await ready([clientCaps(b), b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, { turn_id: TURN })]);
    await page.keyboard.type('@src');
    const [search] = await waitForSent(page, 'control.file.search', 1);
    await page.keyboard.press('Escape');
    const [cancel] = await waitForSent(page, 'control.file.search.cancel', 1);
    assert.equal(cancel.payload.query_id, search.payload.query_id);
    assert.equal((await sentFrames(page, 'control.prompt.cancel')).length, 0);
    await page.keyboard.press('Escape');
    const [stop] = await waitForSent(page, 'control.prompt.cancel', 1);
    assert.deepEqual(stop.payload, { target_turn_id: TURN, reason: 'user_cancelled' });
    assert.equal(stop.turn_id, TURN);
  });

  it('§16.1.3 deleting the @ cancels the search and closes the picker', async () => {
    const page = await ready();
    await page.keyboard.type('@ab');
    const [search] = await waitForSent(page, 'control.file.search', 1);
    assert.equal(await page.locator('.picker-frame [role=status]').innerText(), 'Searching…', 'the picker is open and says it is searching');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Backspace');
    const [cancel] = await waitForSent(page, 'control.file.search.cancel', 1);
    assert.equal(cancel.payload.query_id, search.payload.query_id);
    assert.equal(await page.locator('.picker-frame').count(), 0);
  });

  it('/ autocomplete lists agent.commands.publish with descriptions and argument hints; the pick is sent as a slash_command', async () => {
    const page = await ready();
    await page.keyboard.type('/');
    const options = page.locator('[role=listbox] [role=option]');
    assert.equal(await options.count(), 3);
    assert.match(await options.nth(0).innerText(), /\/compact\s*\[instruction\]\s*Compact the context/);
    assert.match(await options.nth(1).innerText(), /\/review\s*<pr>\s*Review a pull request/);
    await page.keyboard.type('re');
    assert.equal(await options.count(), 1);
    await page.keyboard.press('Tab');
    assert.equal(await page.locator('.editor').innerText(), '/review ');
    await page.keyboard.type('42');
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.deepEqual({ text: prompt.payload.prompt_text, type: prompt.payload.input_type }, { text: '/review 42', type: 'slash_command' });
  });

  it('/ a command typed whole that needs no argument runs on the first Enter; one that needs an argument, or a part of a name, is completed instead (decision 610)', async () => {
    const page = await ready();
    await page.keyboard.type('/review');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.editor').innerText(), '/review ', 'a required argument is still to come');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('/comp');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('.editor').innerText(), '/compact ', 'a part of a name is completed');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('/compact');
    assert.equal(await page.locator('[role=listbox] [role=option]').count(), 1, 'the menu is open on the typed command');
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.deepEqual({ text: prompt.payload.prompt_text, type: prompt.payload.input_type }, { text: '/compact', type: 'slash_command' });
    assert.equal(await page.locator('.editor').innerText(), '');
    assert.equal(await page.locator('[role=listbox]').count(), 0);
  });

  it('/ menu at 300 px: every description is whole, under its name and left-aligned like it (short and long alike)', async () => {
    const page = await h.open({ width: 300, height: 700 });
    const b = streamBuilder(SESSION);
    await feed(page, SESSION, [
      clientCaps(b),
      b.make('agent.commands.publish', {
        commands: [
          { name: 'cost', description: 'Show usage' },
          { name: 'review', description: 'Review a pull request and leave comments on every changed file of it', parameters: [{ name: 'pr', type: 'number', required: true }] },
          { name: 'init', description: 'Create an AGENTS.md file with instructions for the agent in this workspace' },
        ],
      }),
    ], true);
    await page.locator('[role=textbox]').click();
    await page.keyboard.type('/');
    await page.waitForSelector('[role=listbox] [role=option]');
    const rows = await page.locator('[role=listbox] [role=option]').evaluateAll((els) =>
      els.map((el) => {
        const name = el.querySelector('.command-name')!.getBoundingClientRect();
        const d = el.querySelector<HTMLElement>('.command-description')!;
        const box = d.getBoundingClientRect();
        const list = el.closest('[role=listbox]')!.getBoundingClientRect();
        return { whole: d.scrollWidth <= d.clientWidth + 1, below: box.top >= name.bottom - 1, alignedLeft: Math.abs(box.left - name.left) <= 1, inside: box.right <= list.right + 1 };
      }),
    );
    assert.equal(rows.length, 3);
    for (const r of rows) assert.deepEqual(r, { whole: true, below: true, alignedLeft: true, inside: true });
    await page.screenshot({ path: join(RESULTS_DIR, 'webview-slash-300.png') });
    await page.close();
  });

  it('Enter sends, Shift+Enter adds a line, ↑ recalls the last prompt', async () => {
    const page = await ready();
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    assert.equal((await sentFrames(page, 'control.prompt.request')).length, 0);
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.equal(prompt.payload.prompt_text, 'first line\nsecond line');
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.locator('.editor').innerText(), 'first line\nsecond line');
    await page.keyboard.press('Enter');
    const again = await waitForSent(page, 'control.prompt.request', 2);
    assert.equal(again[1].payload.prompt_text, 'first line\nsecond line');
  });

  it('with the host setting enter_sends off, Enter breaks the line and Ctrl+Enter sends', async () => {
    const page = await ready();
    await hostSays(page, [{ kind: 'settings', payload: { permission_rules: [], enter_sends: false } }]);
    await page.keyboard.type('one');
    await page.keyboard.press('Enter');
    await page.keyboard.type('two');
    assert.equal((await sentFrames(page, 'control.prompt.request')).length, 0);
    await page.keyboard.press('Control+Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.equal(prompt.payload.prompt_text, 'one\ntwo');
  });

  it('§12.2.1-3 §6.3.2-7 sends no control.file.search without file_search_fuzzy and offers no mode switch without plan_mode', async () => {
    const page = await ready(plainAgentStream());
    await page.keyboard.type('see @src');
    await page.waitForTimeout(300);
    assert.equal((await sentFrames(page, 'control.file.search')).length, 0);
    assert.equal(await page.locator('[role=listbox]').count(), 0);
    assert.equal(await page.locator('#mode-select').isDisabled(), true);
  });

  it('§6.3.2 the mode picker sends control.mode.switch when the agent announced plan_mode', async () => {
    const page = await ready();
    await page.locator('#mode-select').selectOption('plan');
    const [sw] = await waitForSent(page, 'control.mode.switch', 1);
    assert.deepEqual(sw.payload, { mode: 'plan' });
  });

  it('§12.2.1 announces its own capabilities when attached, without subagent_context (a master never sets it)', async () => {
    const page = await ready();
    const [caps] = await sentFrames(page, 'session.capabilities');
    assert.equal(caps.payload.protocol_version, 'rawp-dps-1.0');
    const features = caps.payload.features as Record<string, unknown>;
    assert.equal(features.file_search_fuzzy, true);
    assert.equal('subagent_context' in features, false);
  });

  it('§7.7.1 an ended chat takes no prompt: Enter sends nothing, the text stays, the view says why; the status bar says the session ended (no "Thinking" spinner)', async () => {
    const b = streamBuilder(SESSION, Date.now());
    const T = { turn_id: TURN };
    const page = await ready([
      clientCaps(b),
      b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T),
      b.make('agent.state.changed', { previous_state: 'idle', current_state: 'thinking' }, T),
      b.make('agent.error', { error_code: 'PROCESS_EXIT', message: 'codex exited with code 1', severity: 'fatal', recoverable: false }, T),
      b.make('session.turn.end', { turn_id: TURN, stop_reason: 'error' }, T),
      b.make('session.deleted', { session_id: SESSION, reason: 'error', deleted_by: 'client' }),
    ]);
    // The box says so before anything is typed, and Send is off (it looked ready: the trial of 2026-12-06).
    assert.equal(await page.locator('[role=textbox]').getAttribute('aria-placeholder'), 'This chat has ended: continue it from the banner above, or start a new chat.');
    await page.keyboard.type('are you there?');
    assert.equal(await page.locator('.composer-actions button.button:not(.secondary)').isDisabled(), true, 'Send is off');
    await page.keyboard.press('Enter');
    await page.locator('.banner', { hasText: 'This chat has ended, so the message was not sent' }).waitFor();
    assert.equal((await sentFrames(page, 'control.prompt.request')).length, 0, 'nothing sent');
    assert.equal((await page.locator('[role=textbox]').innerText()).trim(), 'are you there?', 'the text stays');
    const state = page.locator('.status-bar .agent-state');
    assert.equal((await state.innerText()).trim(), 'Session ended');
    assert.equal(await state.locator('.codicon-modifier-spin').count(), 0, 'no spinner');
  });

  it('§16.1 an @ typed before the session said it can search opens the picker as soon as it can (the first @ after a reload did nothing)', async () => {
    const page = await h.open();
    const b = streamBuilder(SESSION, Date.now());
    // The session is there, but its capabilities (file_search_fuzzy) have not arrived yet.
    await feed(page, SESSION, [b.make('agent.state.changed', { previous_state: 'idle', current_state: 'idle' })], true);
    await page.locator('[role=textbox]').click();
    await page.keyboard.type('@');
    assert.equal(await page.locator('.picker-frame').count(), 0, 'no picker yet: searching is not possible');
    await feed(page, SESSION, [clientCaps(b)]);
    await waitForSent(page, 'control.file.search', 1);
    assert.equal(await page.locator('.picker-frame').count(), 1, 'the picker opened with no further key');
  });
});
