// Decision 693 in real Chromium: while the @ file or / command picker is open, the prompt box is
// an ARIA 1.2 combobox (role=combobox, aria-expanded, aria-controls naming the listbox,
// aria-activedescendant the highlighted option); closed, it is the multi-line textbox again.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { feed, openAtComposer, pageErrors, startHarness, waitForSent, type Harness } from '../../browser/harness';
import { SESSION } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

describe('webview in Chromium: the prompt box is a combobox while its picker is open (decision 693)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  const ready = (): Promise<Page> => openAtComposer(h, { width: 300, height: 700 });

  /** The prompt box's ARIA state, and whether what it names exists as it should. */
  const aria = (page: Page) =>
    page.locator('.composer .editor').evaluate((el) => {
      const controls = el.getAttribute('aria-controls');
      const activeId = el.getAttribute('aria-activedescendant');
      const list = controls ? document.getElementById(controls) : null;
      const active = activeId ? document.getElementById(activeId) : null;
      return {
        role: el.getAttribute('role'),
        expanded: el.getAttribute('aria-expanded'),
        multiline: el.getAttribute('aria-multiline'),
        listRole: list?.getAttribute('role') ?? null,
        activeRole: active?.getAttribute('role') ?? null,
        activeSelected: active?.getAttribute('aria-selected') ?? null,
        activeInList: !!(list && active && list.contains(active)),
        activeText: active?.textContent ?? null,
        focused: document.activeElement === el,
      };
    });

  it('@: combobox, expanded, controlling the listbox, the highlighted option its active descendant as the arrows move; Esc makes it a textbox again', async () => {
    const page = await ready();
    const closed = await aria(page);
    assert.deepEqual([closed.role, closed.expanded, closed.multiline], ['textbox', null, 'true'], 'closed: the multi-line textbox');
    await page.keyboard.type('Look at @au');
    const [search] = await waitForSent(page, 'control.file.search', 1);
    // Open and searching: a combobox whose list is not there yet.
    const searching = await aria(page);
    assert.deepEqual([searching.role, searching.expanded, searching.listRole], ['combobox', 'false', null]);
    const b = streamBuilder(SESSION);
    await feed(page, SESSION, [
      b.make(
        'session.file.candidates',
        { query_id: String(search.payload.query_id), candidates: [{ path: 'src/auth.ts', name: 'auth.ts', directory: 'src' }, { path: 'src/audit/log.ts', name: 'log.ts', directory: 'src/audit' }], truncated: false },
        { parent_id: search.message_id },
      ),
    ]);
    await page.waitForSelector('[role=listbox] [role=option]');
    const open = await aria(page);
    assert.equal(open.role, 'combobox');
    assert.equal(open.expanded, 'true');
    assert.equal(open.listRole, 'listbox', 'aria-controls names the listbox');
    assert.deepEqual([open.activeRole, open.activeSelected, open.activeInList, open.activeText], ['option', 'true', true, 'auth.tssrc']);
    assert.ok(open.focused, 'the focus stays in the prompt box');
    await page.keyboard.press('ArrowDown');
    const moved = await aria(page);
    assert.deepEqual([moved.activeSelected, moved.activeText], ['true', 'log.tssrc/audit'], 'the active descendant follows the highlight (name, then folder)');
    await page.keyboard.press('Escape');
    const after = await aria(page);
    assert.deepEqual([after.role, after.expanded, after.multiline, after.listRole], ['textbox', null, 'true', null]);
    assert.deepEqual(pageErrors(page), []);
  });

  it('/: the command list makes it a combobox too; choosing a command closes it', async () => {
    const page = await ready();
    await page.keyboard.type('/');
    await page.waitForSelector('[role=listbox] [role=option]');
    const open = await aria(page);
    assert.deepEqual([open.role, open.expanded, open.listRole, open.activeRole, open.activeInList], ['combobox', 'true', 'listbox', 'option', true]);
    assert.match(open.activeText ?? '', /^\/compact/);
    await page.keyboard.press('Tab');
    const chosen = await aria(page);
    assert.deepEqual([chosen.role, chosen.expanded], ['textbox', null]);
  });
});
