// Long chats and accessibility in real Chromium: a virtualized transcript keeps the DOM bounded and
// opens at the newest output; the UI is usable by keyboard and exposes roles and names.
import { strict as assert } from 'node:assert';
import { feed, rendered, startHarness, waitForSent, type Harness } from '../../browser/harness';
import { SESSION, interactionsStream, longSession, outputsStream } from '../../browser/streams';

describe('webview in Chromium: long chats and accessibility', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('keeps the DOM bounded for a 3,000-frame session, opens at the newest turn and reaches the first by scrolling', async () => {
    const page = await h.open({ height: 800 });
    const frames = longSession(3000);
    await feed(page, SESSION, frames, true);
    await rendered(page);
    const turns = await page.evaluate(() => (window as unknown as { rawpStore: { transcript: { turns: unknown[] } } }).rawpStore.transcript.turns.length);
    assert.ok(turns > 50, `${turns} turns loaded`);
    const rows = await page.locator('.row').count();
    assert.ok(rows > 0 && rows < 40, `${rows} rows in the DOM for ${turns * 4} rows of transcript`);
    const gap = await page.locator('.transcript-scroll').evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    assert.ok(gap < 60, `opens scrolled to the newest output (${gap}px from the end)`);
    const last = await page.locator('.row').evaluateAll((els) => Math.max(...els.map((e) => Number((e as HTMLElement).dataset.index))));
    assert.ok(last > turns * 4, `the newest rows are rendered (row ${last})`);
    assert.equal(await page.locator('.turn-separator', { hasText: /^Turn 1$/ }).count(), 0, 'the first turn is not rendered while far away');
    await page.locator('.transcript-scroll').evaluate((el) => el.scrollTo(0, 0));
    await page.locator('.turn-separator', { hasText: /^Turn 1$/ }).waitFor();
    assert.ok((await page.locator('.row').count()) < 40);
  });

  it('exposes the transcript as a log (not itself live: live regions announce completed answers, decision 390), the composer as a labelled textbox, a combobox while its picker is open, and the picker by aria-activedescendant', async () => {
    const page = await h.open();
    await feed(page, SESSION, outputsStream(), true);
    assert.equal(await page.locator('[role=log]').getAttribute('aria-live'), 'off');
    assert.equal(await page.locator('[data-live="polite"][aria-live="polite"]').count(), 1);
    const box = page.getByRole('textbox', { name: 'Message the agent' });
    await box.click();
    await page.keyboard.type('/');
    // While its picker is open the box is a combobox (decision 693): the same element, named the same.
    const combo = page.getByRole('combobox', { name: 'Message the agent' });
    assert.equal(await combo.getAttribute('aria-expanded'), 'true');
    const active = await combo.getAttribute('aria-activedescendant');
    assert.ok(active);
    assert.equal(await page.locator(`#${active}`).getAttribute('aria-selected'), 'true');
    assert.equal(await page.getByRole('meter', { name: 'Context window used' }).count(), 1);
    assert.equal(await page.locator('[role="status"][data-code="idle"]').count(), 1);
  });

  it('answers a permission request by keyboard alone (Tab to the option, Enter)', async () => {
    const page = await h.open({ height: 1600 });
    await feed(page, SESSION, interactionsStream(), true);
    await page.locator('.interaction.type-PERMISSION button[data-value="allow_once"]').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.value), 'allow_session');
    await page.keyboard.press('Enter');
    assert.deepEqual((await waitForSent(page, 'control.interaction.response', 1)).map((f) => f.payload), [{ interaction_id: 'i-perm', selected_value: 'allow_session' }]);
    assert.equal(await page.getByRole('group', { name: /^Permission request: Allow Edit src\/auth\.ts\?/ }).count(), 1);
  });
});
