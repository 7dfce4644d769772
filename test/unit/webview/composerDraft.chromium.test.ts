// Decision 672 in real Chromium: the prompt not sent yet survives the view being thrown away and
// built again (VS Code does that when the side bar shows another view; here a reload of the fixture
// page, whose fake transport keeps its state the way VS Code keeps a webview's), chips included,
// per chat, bounded, and gone once sent. The new-user trial typed a draft, clicked Explorer, came
// back: the box was empty.
import { strict as assert } from 'node:assert';
import type { Page } from 'playwright-core';
import { feed, rendered, sentFrames, startHarness, waitForSent, type Harness } from '../../browser/harness';
import { SESSION, clientCaps } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const OTHER = '44444444-4444-4444-8444-444444444444';

async function attach(page: Page, session = SESSION): Promise<void> {
  await feed(page, session, [clientCaps(streamBuilder(session))], true);
}

/** The view thrown away and built again, then attached to its chat as the host does. */
async function rebuild(page: Page, session = SESSION): Promise<void> {
  await page.reload();
  await page.waitForSelector('main.chat');
  await attach(page, session);
}

const box = (page: Page) => page.locator('.editor');
const drafts = (page: Page) => page.evaluate(() => (window.rawpTransport?.getState() as { drafts?: unknown } | undefined)?.drafts);

describe('webview in Chromium: the unsent prompt survives a rebuilt view (decision 672)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('decision 672 typed text, a file chip and an @ query being typed come back after the view is rebuilt; sending drops the draft', async () => {
    const page = await h.open();
    await attach(page);
    await box(page).click();
    await page.keyboard.type('my long unsent draft text');
    await rebuild(page);
    assert.equal(await box(page).innerText(), 'my long unsent draft text');
    assert.equal(await page.locator('.composer-actions button.button:not(.secondary)').isDisabled(), false, 'Send is on: the box is not empty');
    assert.equal(await page.evaluate(() => document.activeElement === document.querySelector('.editor')), false, 'putting it back took no focus');
    // A chip picked from the @ list, then an @ query still being typed.
    await box(page).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' see @au');
    const [search] = await waitForSent(page, 'control.file.search', 1);
    const b = streamBuilder(SESSION);
    await feed(page, SESSION, [b.make('session.file.candidates', { query_id: String(search.payload.query_id), candidates: [{ path: 'src/auth.ts', name: 'auth.ts', directory: 'src', extension: '.ts' }], truncated: false }, { parent_id: search.message_id })]);
    await page.keyboard.press('Enter');
    await page.keyboard.type('and @que');
    await rebuild(page);
    assert.equal(await box(page).locator('.chip').getAttribute('data-path'), 'src/auth.ts', 'the chip is a chip again');
    assert.equal(await box(page).locator('.chip').getAttribute('data-ext'), '.ts');
    assert.equal((await box(page).textContent())?.replace(/[\s\u00a0]+/g, ' '), 'my long unsent draft text see src/auth.ts and @que');
    // Sent: the draft goes, and a rebuilt view starts empty.
    await box(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.equal(prompt.payload.prompt_text, 'my long unsent draft text see <@file:ref_0|src/auth.ts> and @que');
    assert.deepEqual(await drafts(page), []);
    await rebuild(page);
    assert.equal(await box(page).innerText(), '');
  });

  it('decision 672 each chat keeps its own draft: switching chats shows the other one\'s, switching back brings this one back', async () => {
    const page = await h.open();
    await attach(page);
    await box(page).click();
    await page.keyboard.type('for the first chat');
    await attach(page, OTHER);
    assert.equal(await box(page).innerText(), '', 'the other chat has no draft');
    await box(page).click();
    await page.keyboard.type('for the second chat');
    await attach(page, SESSION);
    assert.equal(await box(page).innerText(), 'for the first chat');
    await rebuild(page, OTHER);
    assert.equal(await box(page).innerText(), 'for the second chat');
  });

  it('decision 672 text typed into a chat that ended goes on in the chat that continues it', async () => {
    const page = await h.open();
    const b = streamBuilder(SESSION, Date.now());
    await feed(page, SESSION, [clientCaps(b), b.make('session.deleted', { session_id: SESSION, reason: 'error', deleted_by: 'client' })], true);
    await box(page).click();
    await page.keyboard.type('are you there?');
    await attach(page, OTHER);
    assert.equal(await box(page).innerText(), 'are you there?');
    await rebuild(page, OTHER);
    assert.equal(await box(page).innerText(), 'are you there?');
  });

  it('decision 672 a draft is bounded: a very long one keeps its first 32,000 characters, and ten chats at most keep one', async () => {
    const page = await h.open();
    await attach(page);
    await box(page).click();
    await page.evaluate(() => document.execCommand('insertText', false, 'x'.repeat(40_000)));
    await rendered(page);
    const kept = (await drafts(page)) as Array<{ session: string; parts: Array<{ text: string }> }>;
    assert.equal(kept[0].session, SESSION);
    assert.equal(kept[0].parts[0].text.length, 32_000);
    for (let i = 0; i < 12; i++) {
      const id = `55555555-5555-4555-8555-5555555555${String(i).padStart(2, '0')}`;
      await attach(page, id);
      await box(page).click();
      await page.keyboard.type(`draft ${i}`);
    }
    const all = (await drafts(page)) as Array<{ session: string }>;
    assert.equal(all.length, 10);
    assert.equal(all[0].session, '55555555-5555-4555-8555-555555555511', 'the newest first');
    assert.equal(all.some((d) => d.session === SESSION), false, 'the oldest went');
    assert.deepEqual(await sentFrames(page, 'control.prompt.request'), []);
  });
});
