// The @ picker in real Chromium, as the picker trial of 2026-12-05 used it with the keyboard and a
// screen reader: the active row stays in view, Enter before the suggestions arrived waits for them
// (it sent the half-typed reference as text), Shift+Tab never accepts, the status (searching, none,
// how many) is a live status outside the listbox, and axe finds no serious or critical violation
// with the picker open, searching or listing.
import { strict as assert } from 'node:assert';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { feed, openAtComposer, sentFrames, startHarness, waitForSent, type Harness } from '../../browser/harness';
import { SESSION } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';
import { AXE_TAGS, blocking, describeViolations } from '../../support/axe';

describe('webview in Chromium: the @ picker by keyboard and screen reader (the picker trial)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  const ready = (): Promise<Page> => openAtComposer(h, { width: 420, height: 700 });

  /** Answer the newest search with `n` files (`truncated` when more match). */
  async function answer(page: Page, n: number, truncated = false): Promise<void> {
    const searches = await sentFrames(page, 'control.file.search');
    const search = searches.at(-1)!;
    const candidates = Array.from({ length: n }, (_, i) => ({ path: `src/dir${i}/file${i}.ts`, name: `file${i}.ts`, directory: `src/dir${i}`, match_ranges: [] }));
    await feed(page, SESSION, [streamBuilder(SESSION).make('session.file.candidates', { query_id: String(search.payload.query_id), candidates, truncated }, { parent_id: search.message_id })]);
  }

  it('the status says searching, then how many (a live status, outside the listbox, which holds only options); axe: 0 serious or critical, searching and listing', async () => {
    const page = await ready();
    await page.keyboard.type('@fi');
    await waitForSent(page, 'control.file.search', 1);
    const status = page.locator('.picker-frame [role=status]');
    assert.equal(await status.innerText(), 'Searching…');
    assert.equal(await page.locator('[role=listbox]').count(), 0, 'no listbox without options (axe: aria-required-children)');
    let axe = await new AxeBuilder({ page }).withTags(AXE_TAGS).include('.composer').analyze();
    assert.deepEqual(describeViolations(blocking(axe.violations)), [], 'searching');
    await answer(page, 20, true);
    await page.locator('[role=listbox] [role=option]').first().waitFor();
    assert.equal(await status.textContent(), '20 files shown, more match: keep typing');
    assert.equal(await page.locator('[role=listbox] .picker-status, [role=listbox] [role=status]').count(), 0);
    axe = await new AxeBuilder({ page }).withTags(AXE_TAGS).include('.composer').analyze();
    assert.deepEqual(describeViolations(blocking(axe.violations)), [], 'listing');
  });

  it('a search still unanswered after 2 s says why (the first search of a large workspace lists its files first), in the live status; the answer replaces it', async () => {
    const page = await ready();
    await page.keyboard.type('@');
    await waitForSent(page, 'control.file.search', 1);
    const status = page.locator('.picker-frame [role=status]');
    assert.equal(await status.innerText(), 'Searching…');
    await page.locator('.picker-frame [role=status]', { hasText: 'Still searching' }).waitFor({ timeout: 5_000 });
    assert.equal(await status.innerText(), 'Still searching: the first search in a large workspace lists its files first.');
    await answer(page, 3);
    await page.locator('[role=listbox] [role=option]').first().waitFor();
    assert.equal(await status.textContent(), '3 files');
  });

  /** Answer the newest search with these paths. */
  /** Answer the newest search with these paths; `listed`: wait until they are on screen (not when the answer closes the picker). */
  async function answerPaths(page: Page, paths: string[], truncated = false, listed = true): Promise<void> {
    const search = (await sentFrames(page, 'control.file.search')).at(-1)!;
    const candidates = paths.map((p) => ({ path: p, name: p.slice(p.lastIndexOf('/') + 1), directory: p.slice(0, Math.max(0, p.lastIndexOf('/'))), match_ranges: [] }));
    await feed(page, SESSION, [streamBuilder(SESSION).make('session.file.candidates', { query_id: String(search.payload.query_id), candidates, truncated }, { parent_id: search.message_id })]);
    if (listed) await page.locator('[role=listbox] [role=option]').first().waitFor();
  }

  it('§16.1.1 a name with spaces can be typed: the query goes on across a space while a listed name holds it (Korean too); the chosen chip is the whole name', async () => {
    const page = await ready();
    await page.keyboard.type('open @meeting');
    await waitForSent(page, 'control.file.search', 1);
    await answerPaths(page, ['docs/my notes/meeting notes final.md', 'src/meeting.ts']);
    await page.keyboard.type(' notes');
    const searches = await waitForSent(page, 'control.file.search', 2);
    assert.equal(String(searches.at(-1)!.payload.query).replace(/\u00a0/g, ' '), 'meeting notes', 'the search goes on with the space');
    await answerPaths(page, ['docs/my notes/meeting notes final.md']);
    await page.keyboard.press('Enter');
    await page.locator('.editor .chip').waitFor();
    assert.equal(await page.locator('.editor .chip').getAttribute('data-path'), 'docs/my notes/meeting notes final.md');
    assert.equal((await page.locator('[role=textbox]').innerText()).replace(/\s+/g, ' ').trim(), 'open docs/my notes/meeting notes final.md', 'the whole typed query, spaces included, became the chip');
    await page.keyboard.type(' and @회의록');
    const korean = await waitForSent(page, 'control.file.search', 3);
    assert.equal(korean.at(-1)!.payload.query, '회의록');
    await answerPaths(page, ['docs/한국어/회의록 2026-11.txt']);
    await page.keyboard.type(' 2026');
    await page.keyboard.press('Tab');
    await page.locator('.editor .chip').nth(1).waitFor();
    assert.equal(await page.locator('.editor .chip').nth(1).getAttribute('data-path'), 'docs/한국어/회의록 2026-11.txt');
  });

  it('§16.1.1 a space after a query no listed name continues ends it: the rest of the sentence is text, no search is sent for it, and Enter sends the prompt', async () => {
    const page = await ready();
    await page.keyboard.type('read @foo');
    await waitForSent(page, 'control.file.search', 1);
    await answerPaths(page, ['src/foo.ts', 'docs/foo bar.md']);
    await page.keyboard.type(' and fix it');
    assert.equal(await page.locator('.picker-frame').count(), 0, 'the picker closed at the space: no name holds "foo a"');
    assert.equal((await sentFrames(page, 'control.file.search')).length, 1, 'no search for the rest of the sentence');
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.equal(prompt.payload.prompt_text, 'read @foo and fix it');
  });

  /** Waits until the newest search sent is for `text` (spaces as typed; the debounce sends the last one). */
  async function searchedFor(page: Page, text: string): Promise<void> {
    await page.waitForFunction((t) => {
      const sent = (window as unknown as { rawpFake: { sentFrames(type: string): Array<{ payload: { query: string } }> } }).rawpFake.sentFrames('control.file.search');
      return sent.at(-1)?.payload.query.replace(/\u00a0/g, ' ') === t;
    }, text);
  }

  /** Twenty names that hold `word` but never `word` and a space (a cut list: more match). */
  const crowded = (word: string) => Array.from({ length: 20 }, (_, i) => `src/${word}${i}/${word}_${i}.ts`);

  /** A page where `before @word` was typed and answered with a cut list of twenty names. */
  async function behindCutList(before: string, word: string): Promise<Page> {
    const page = await ready();
    await page.keyboard.type(`${before} @${word}`);
    await waitForSent(page, 'control.file.search', 1);
    await answerPaths(page, crowded(word), true);
    return page;
  }

  it('§16.1.1 a spaced name outside the top 20: the list of "notes" is cut and none of it holds "notes f", so the space is kept until the answer to "notes f" lists the name; Enter takes it', async () => {
    const page = await behindCutList('open', 'notes');
    await page.keyboard.type(' ');
    await searchedFor(page, 'notes ');
    assert.equal(await page.locator('.picker-frame').count(), 1, 'still open across the space');
    // The search for "notes " gives the list from before the space (the search drops spaces): it waits for more.
    await answerPaths(page, crowded('notes'), true);
    await page.keyboard.type('f');
    await searchedFor(page, 'notes f');
    assert.equal(await page.locator('.picker-frame').count(), 1);
    await answerPaths(page, ['docs/meeting notes final.md', ...crowded('notes').slice(0, 19)], true);
    await page.keyboard.press('Enter');
    await page.locator('.editor .chip').waitFor();
    assert.equal(await page.locator('.editor .chip').getAttribute('data-path'), 'docs/meeting notes final.md');
    assert.equal((await page.locator('[role=textbox]').innerText()).replace(/\s+/g, ' ').trim(), 'open docs/meeting notes final.md');
  });

  it('§16.1.1 a sentence after @foo whose list is cut: the picker stays open while the lists are cut, until a whole answer holds no such name: the reference ends at the space, and Enter sends the sentence as typed', async () => {
    const page = await behindCutList('read', 'foo');
    await page.keyboard.type(' and fix it');
    await searchedFor(page, 'foo and fix it');
    assert.equal(await page.locator('.picker-frame').count(), 1, 'open until the answer');
    await answerPaths(page, ['src/foo/and/fix_it.ts'], false, false);
    await page.locator('.picker-frame').waitFor({ state: 'detached' });
    assert.equal((await page.locator('[role=textbox]').innerText()).replace(/\s+/g, ' ').trim(), 'read @foo and fix it', 'the text stays');
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.equal(prompt.payload.prompt_text, 'read @foo and fix it');
  });

  it('§16.1.1 Enter right after a space behind a cut list waits for the answer, which holds no spaced name: the prompt is sent as typed', async () => {
    const page = await behindCutList('read', 'foo');
    await page.keyboard.type(' ');
    await page.keyboard.press('Enter');
    await searchedFor(page, 'foo ');
    assert.equal((await sentFrames(page, 'control.prompt.request')).length, 0, 'Enter waits for the answer');
    await answerPaths(page, crowded('foo'), true, false);
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.equal(String(prompt.payload.prompt_text).trim(), 'read @foo');
  });

  it('§16.1.1 Enter after a cut answer that holds no spaced name never takes a row (it turned "@foo and fix it" into a chip): the reference ends and the prompt is sent as typed; Shift+Enter breaks the line', async () => {
    const page = await behindCutList('read', 'foo');
    await page.keyboard.type(' and fix it');
    await searchedFor(page, 'foo and fix it');
    await answerPaths(page, crowded('foo'), true); // the answer to "foo and fix it": cut, and no row holds it
    assert.equal(await page.locator('.picker-frame').count(), 1, 'a cut list keeps it open (it cannot tell)');
    await page.keyboard.press('Shift+Enter');
    assert.equal(await page.locator('.picker-frame').count(), 0);
    assert.equal(await page.locator('.editor .chip').count(), 0, 'no chip');
    await page.keyboard.type('thanks');
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.equal(String(prompt.payload.prompt_text).replace(/\u00a0/g, ' '), 'read @foo and fix it\nthanks');
  });

  it('§16.1.1 Enter on a spaced query takes the row that holds it, not the first row (such a name need not lead the list)', async () => {
    const page = await behindCutList('open', 'notes');
    await page.keyboard.type(' f');
    await searchedFor(page, 'notes f');
    await answerPaths(page, ['src/notesf/notesf.ts', 'docs/meeting notes final.md'], false);
    await page.keyboard.press('Enter');
    await page.locator('.editor .chip').waitFor();
    assert.equal(await page.locator('.editor .chip').getAttribute('data-path'), 'docs/meeting notes final.md');
  });

  it('§16.1.1 a space typed before the suggestions arrived (a busy or cold workspace) is kept for now and judged when they come: a name holds it, so the reference goes on and Enter takes it', async () => {
    const page = await ready();
    await page.keyboard.type('open @meeting notes'); // faster than any answer
    const searches = await waitForSent(page, 'control.file.search', 1);
    assert.equal(await page.locator('.picker-frame').count(), 1, 'still open across the space');
    await page.waitForTimeout(200);
    const last = (await sentFrames(page, 'control.file.search')).at(-1)!;
    assert.equal(String(last.payload.query).replace(/\u00a0/g, ' '), 'meeting notes', `searched with the space (${searches.length} searches)`);
    await answerPaths(page, ['docs/my notes/meeting notes final.md']);
    await page.keyboard.press('Enter');
    await page.locator('.editor .chip').waitFor();
    assert.equal(await page.locator('.editor .chip').getAttribute('data-path'), 'docs/my notes/meeting notes final.md');
  });

  it('§16.1.1 a sentence typed after @foo before any suggestion, then Enter: the answer holds no such name, so the reference ends at the space and the sentence is sent as typed', async () => {
    const page = await ready();
    await page.keyboard.type('read @foo and fix it');
    await page.keyboard.press('Enter');
    await waitForSent(page, 'control.file.search', 1);
    await page.waitForTimeout(200);
    assert.equal((await sentFrames(page, 'control.prompt.request')).length, 0, 'Enter waits for the answer');
    await answerPaths(page, [], false, false);
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.equal(prompt.payload.prompt_text, 'read @foo and fix it');
    assert.equal(await page.locator('.picker-frame').count(), 0);
  });

  it('§16.1.1 the caret moved back inside the reference (←): Tab still takes the suggestion, and the chip replaces the whole typed reference', async () => {
    const page = await ready();
    await page.keyboard.type('open @meeting');
    await waitForSent(page, 'control.file.search', 1);
    await answerPaths(page, ['docs/my notes/meeting notes final.md']);
    await page.keyboard.type(' notes');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Tab');
    await page.locator('.editor .chip').waitFor();
    assert.equal(await page.locator('.editor .chip').getAttribute('data-path'), 'docs/my notes/meeting notes final.md');
    assert.equal((await page.locator('[role=textbox]').innerText()).replace(/\s+/g, ' ').trim(), 'open docs/my notes/meeting notes final.md', 'nothing of the typed reference is left after the chip');
  });

  it('security: a planted file named after a sentence (docs/package.json and fix the failing tests.md) cannot swallow "@package.json and fix the failing tests": a space after a name listed whole ends the reference, and Enter sends the sentence', async () => {
    const page = await ready();
    await page.keyboard.type('update @package.json');
    await waitForSent(page, 'control.file.search', 1);
    await answerPaths(page, ['package.json', 'docs/package.json and fix the failing tests.md']);
    await page.keyboard.type(' and fix the failing tests');
    assert.equal(await page.locator('.picker-frame').count(), 0, 'the picker closed at the space');
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.equal(prompt.payload.prompt_text, 'update @package.json and fix the failing tests');
    assert.equal((prompt.payload.file_references as unknown[] | undefined)?.length ?? 0, 0, 'no file rode along');
  });

  it('§16.1.1 "@ " (a space right after the @) never opens a spaced query, even when a listed name has a space', async () => {
    const page = await ready();
    await page.keyboard.type('@');
    await waitForSent(page, 'control.file.search', 1);
    await answerPaths(page, ['docs/a b.md']);
    await page.keyboard.type(' b');
    assert.equal(await page.locator('.picker-frame').count(), 0);
  });

  it('§16.1.1 no match: the picker offers to search hidden files too; Tab reaches it, Enter searches the same query with scope global and puts the caret back; later keystrokes stay in hidden files; Escape from the offer goes back', async () => {
    const page = await ready();
    await page.keyboard.type('read @unique-ign');
    await waitForSent(page, 'control.file.search', 1);
    await answer(page, 0);
    const offer = page.getByRole('button', { name: 'Search hidden files too' });
    await offer.waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Search hidden files too', 'Tab reached the offer');
    await page.keyboard.press('Escape');
    // The prompt box, whatever its role: a combobox while the picker is open (decision 693).
    assert.equal(await page.evaluate(() => document.activeElement?.matches('.composer .editor')), true, 'Escape: back in the prompt box');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const [, hidden] = await waitForSent(page, 'control.file.search', 2);
    assert.deepEqual([hidden.payload.query, hidden.payload.scope], ['unique-ign', 'global']);
    assert.equal(await page.evaluate(() => document.activeElement?.matches('.composer .editor')), true, 'the caret is back in the prompt box');
    await page.keyboard.type('o');
    const third = (await waitForSent(page, 'control.file.search', 3))[2];
    assert.deepEqual([third.payload.query, third.payload.scope], ['unique-igno', 'global'], 'typing goes on at the end of the reference, still among hidden files');
    await answer(page, 1);
    await page.locator('[role=listbox] [role=option]').first().waitFor();
    assert.equal(await page.locator('.picker-frame [role=status]').textContent(), '1 file (hidden files included)');
    assert.equal(await offer.count(), 0, 'no offer once hidden files are searched');
    await page.keyboard.press('Enter');
    await page.locator('.editor .chip').waitFor();
    await page.keyboard.type('@x');
    const fourth = (await waitForSent(page, 'control.file.search', 4))[3];
    assert.equal(fourth.payload.scope, undefined, 'a new @ reference searches the visible files again');
  });

  it('§16.1.1 a Hangul syllable still being composed sends no search and keeps the list (no "No matching files" flash); the composed text is searched when the composition ends', async () => {
    const page = await ready();
    await page.keyboard.type('@');
    await waitForSent(page, 'control.file.search', 1);
    await answerPaths(page, ['docs/한국어/설계문서.md']);
    const cdp = await page.context().newCDPSession(page);
    const compose = async (text: string) => {
      await cdp.send('Input.imeSetComposition', { text, selectionStart: text.length, selectionEnd: text.length });
      await page.waitForTimeout(250); // longer than the composer's debounce
    };
    const queries = async () => (await sentFrames(page, 'control.file.search')).map((f) => f.payload.query);
    for (const step of ['ㅅ', '서', '설']) await compose(step);
    assert.deepEqual(await queries(), [''], 'nothing searched mid-syllable');
    assert.equal(await page.locator('[role=listbox] [role=option]').count(), 1, 'the list stays');
    await cdp.send('Input.insertText', { text: '설' });
    await waitForSent(page, 'control.file.search', 2);
    for (const step of ['ㄱ', '계']) await compose(step);
    await cdp.send('Input.insertText', { text: '계' });
    await waitForSent(page, 'control.file.search', 3);
    await page.waitForTimeout(250);
    assert.deepEqual(await queries(), ['', '설', '설계'], 'only whole syllables were searched');
    await cdp.detach();
  });

  it('ArrowUp from the first row and ArrowDown ×15 keep the active row in view; PageDown moves by a page', async () => {
    const page = await ready();
    await page.keyboard.type('@fi');
    await waitForSent(page, 'control.file.search', 1);
    await answer(page, 20);
    await page.locator('[role=listbox] [role=option]').first().waitFor();
    const activeInView = () =>
      page.evaluate(() => {
        const list = document.querySelector('[role=listbox]')!.getBoundingClientRect();
        const row = document.querySelector('[role=option][aria-selected=true]')!.getBoundingClientRect();
        return row.top >= list.top - 1 && row.bottom <= list.bottom + 1;
      });
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.locator('[role=option][aria-selected=true]').getAttribute('id'), 'composer-picker-19');
    assert.equal(await activeInView(), true, 'the last row, reached by ArrowUp, is in view');
    for (let i = 0; i < 16; i++) await page.keyboard.press('ArrowDown');
    assert.equal(await page.locator('[role=option][aria-selected=true]').getAttribute('id'), 'composer-picker-15');
    assert.equal(await activeInView(), true);
    await page.keyboard.press('PageUp');
    assert.equal(await page.locator('[role=option][aria-selected=true]').getAttribute('id'), 'composer-picker-7');
    assert.equal(await activeInView(), true);
  });

  it('Enter before the suggestions arrived waits for them and takes the first; nothing is sent until the next Enter', async () => {
    const page = await ready();
    await page.keyboard.type('read @fi');
    await page.keyboard.press('Enter'); // before the debounce even sent the search
    await waitForSent(page, 'control.file.search', 1);
    assert.equal((await sentFrames(page, 'control.prompt.request')).length, 0, 'the half-typed reference was not sent');
    await answer(page, 3);
    await page.locator('.editor .chip').waitFor();
    assert.equal(await page.locator('.editor .chip').getAttribute('data-path'), 'src/dir0/file0.ts');
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.match(String(prompt.payload.prompt_text), /^read <@file:ref_0\|src\/dir0\/file0\.ts>/);
  });

  it('Enter on a query with no match sends nothing and says so; Shift+Tab never accepts a suggestion', async () => {
    const page = await ready();
    await page.keyboard.type('@zz');
    await page.keyboard.press('Enter');
    await waitForSent(page, 'control.file.search', 1);
    await answer(page, 0);
    await page.locator('.picker-frame [role=status]', { hasText: 'No matching files' }).waitFor();
    assert.match(await page.locator('.picker-frame [role=status]').innerText(), /\.gitignore or the exclude settings hide are not listed/, 'why a file may be missing (the picker trial F11)');
    assert.equal((await sentFrames(page, 'control.prompt.request')).length, 0);
    await page.keyboard.type('x');
    await waitForSent(page, 'control.file.search', 2);
    await answer(page, 2);
    await page.locator('[role=listbox] [role=option]').first().waitFor();
    await page.keyboard.press('Shift+Tab');
    assert.equal(await page.locator('.editor .chip').count(), 0, 'Shift+Tab moved the focus, it did not pick');
  });

  it('security: a name with a right-to-left override shows its override (<U+202E>) in the picker, the chip and the sent prompt, never reordered; the prompt carries the real name', async () => {
    const page = await ready();
    await page.keyboard.type('read @invo');
    const [search] = await waitForSent(page, 'control.file.search', 1);
    const name = 'adv/invoice\u202Egpj.exe';
    await feed(page, SESSION, [streamBuilder(SESSION).make('session.file.candidates', { query_id: String(search.payload.query_id), candidates: [{ path: name, name: 'invoice\u202Egpj.exe', directory: 'adv', match_ranges: [{ start: 4, end: 8 }] }], truncated: false }, { parent_id: search.message_id })]);
    const option = page.locator('[role=listbox] [role=option]').first();
    await option.waitFor();
    assert.equal((await option.locator('.picker-name').innerText()).trim(), 'invoice<U+202E>gpj.exe');
    assert.equal((await option.locator('.picker-dir').innerText()).trim(), 'adv');
    assert.equal(await option.locator('mark').innerText(), 'invo', 'the highlight still covers what matched');
    await page.keyboard.press('Enter');
    assert.equal((await page.locator('.editor .chip').innerText()).trim(), 'adv/invoice<U+202E>gpj.exe');
    await page.keyboard.press('Enter');
    const [prompt] = await waitForSent(page, 'control.prompt.request', 1);
    assert.equal((prompt.payload.file_references as Array<{ path: string }>)[0].path, name, 'the real name goes to the agent');
    assert.equal((await page.locator('.prompt-block .chip').last().innerText()).trim(), 'adv/invoice<U+202E>gpj.exe');
  });

  it('a deep path in a narrow side bar: the file\'s name shows whole, first; its folder is cut at its end; the highlight follows both parts', async () => {
    const page = await openAtComposer(h, { width: 300, height: 700 });
    await page.keyboard.type('@parser');
    const [search] = await waitForSent(page, 'control.file.search', 1);
    const path = 'biome/crates/biome_js_parser/tests/js_test_suite/ok/parser_test_file.rs';
    const start = path.lastIndexOf('parser');
    await feed(page, SESSION, [streamBuilder(SESSION).make('session.file.candidates', { query_id: String(search.payload.query_id), candidates: [{ path, name: 'parser_test_file.rs', directory: path.slice(0, path.lastIndexOf('/')), match_ranges: [{ start: 13, end: 17 }, { start, end: start + 6 }] }], truncated: false }, { parent_id: search.message_id })]);
    const option = page.locator('[role=listbox] [role=option]').first();
    await option.waitFor();
    const fits = await option.evaluate((row) => {
      const name = row.querySelector('.picker-name')!.getBoundingClientRect();
      const box = row.getBoundingClientRect();
      const dir = row.querySelector('.picker-dir') as HTMLElement;
      return { nameInside: name.left >= box.left && name.right <= box.right + 0.5, dirCut: dir.scrollWidth > dir.clientWidth };
    });
    assert.deepEqual(fits, { nameInside: true, dirCut: true });
    assert.deepEqual(await option.locator('mark').allInnerTexts(), ['parser', 'biom'], 'the name\'s match and the folder\'s');
  });
});
