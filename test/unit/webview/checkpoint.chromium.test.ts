// Issue 17 items 2–3 in real Chromium on the fixture page: a turn's footer says "3 files changed"
// (x-rawp.checkpoint.created), opens the review (checkpoint.review to the host), reverts one file,
// asks before rewinding (naming what goes back and what is deleted), sends x-rawp.checkpoint.restore,
// shows the x-rawp.checkpoint.restored answer with per-file overwrite/keep choices (a second restore
// with force), offers Undo rewind, renders x-rawp.checkpoint.diff.result with the diff renderer;
// all by keyboard, and axe finds no serious or critical violation (decisions 400–402).
import { strict as assert } from 'node:assert';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { buildCheckpointFrame, CHECKPOINT_CREATED_TYPE, CHECKPOINT_NONE_TYPE, CHECKPOINT_DIFF_RESULT_TYPE, CHECKPOINT_RESTORED_TYPE, CHECKPOINT_RESTORE_TYPE, type CheckpointFile } from '../../../src/protocol/checkpointFrames';
import { feed, pageErrors, rendered, sentFrames, startHarness, waitForMessages, waitForSent, type Harness } from '../../browser/harness';
import { SESSION, TURN, clientCaps } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';
import { AXE_TAGS, blocking, describeViolations } from '../../support/axe';

const T = { turn_id: TURN };
const CP = 'cp-1111';

const TURN_FILES: CheckpointFile[] = [{ path: 'a.txt', change: 'modified' }, { path: 'src/b.ts', change: 'modified' }, { path: 'new.txt', change: 'created' }];

async function showTurn(page: Page, files: CheckpointFile[] = TURN_FILES): Promise<void> {
  const b = streamBuilder(SESSION, Date.now());
  await feed(
    page,
    SESSION,
    [
      clientCaps(b),
      b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T),
      b.make('agent.text.delta', { content_index: 0, text: 'Edited two files and made one.' }, T),
      b.make('agent.text.done', { content_index: 0, full_text: 'Edited two files and made one.' }, T),
      buildCheckpointFrame(CHECKPOINT_CREATED_TYPE, { checkpoint_id: CP, turn_id: TURN, files }, SESSION),
      b.make('session.turn.end', { turn_id: TURN, stop_reason: 'end_turn', tool_invocation_count: files.length }, T),
    ],
    true,
  );
}

async function restored(page: Page, payload: Parameters<typeof buildCheckpointFrame<typeof CHECKPOINT_RESTORED_TYPE>>[1]): Promise<void> {
  await feed(page, SESSION, [buildCheckpointFrame(CHECKPOINT_RESTORED_TYPE, payload, SESSION)]);
}

describe('webview in Chromium: a turn’s checkpoint — review and rewind (issue 17, decisions 400–402)', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h?.close());

  it('§3.1.1 the footer says "3 files changed"; opening it asks the host for the review and lists the files; Revert file restores that path only', async () => {
    const page = await h.open();
    await showTurn(page);
    const summary = page.locator('.checkpoint-summary');
    assert.equal((await summary.innerText()).trim(), '3 files changed');
    assert.equal(await summary.getAttribute('aria-expanded'), 'false');
    await summary.focus();
    await page.keyboard.press('Enter');
    await rendered(page);
    assert.equal(await summary.getAttribute('aria-expanded'), 'true');
    const reviews = (await waitForMessages(page, 'checkpoint.review', 1)).map((m) => m.payload);
    assert.deepEqual(reviews, [{ session_id: SESSION, checkpoint_id: CP }]);
    assert.deepEqual(await page.locator('.checkpoint-files li').allInnerTexts(), ['modified a.txt Revert file', 'modified src/b.ts Revert file', 'created new.txt Revert file']);
    // One file's own diff, then revert that file alone.
    await page.locator('.checkpoint-files button', { hasText: 'src/b.ts' }).click();
    await page.locator('.checkpoint-revert-file[aria-label="Revert file new.txt"]').click();
    await rendered(page);
    assert.deepEqual((await waitForMessages(page, 'checkpoint.review', 2)).at(-1)?.payload, { session_id: SESSION, checkpoint_id: CP, path: 'src/b.ts' });
    const sent = await waitForSent(page, CHECKPOINT_RESTORE_TYPE, 1);
    assert.deepEqual(sent.map((f) => f.payload), [{ checkpoint_id: CP, paths: ['new.txt'] }]);
    assert.equal(sent[0].type, CHECKPOINT_RESTORE_TYPE);
    assert.deepEqual(pageErrors(page), []);
  });

  it('Rewind asks first, naming what goes back and what is deleted; Cancel sends nothing, Rewind sends the restore', async () => {
    const page = await h.open();
    await showTurn(page);
    await page.locator('.checkpoint-rewind').click();
    const confirm = page.locator('.checkpoint-confirm[role="alertdialog"]');
    const text = await confirm.innerText();
    assert.match(text, /Rewind to before this turn\?/);
    assert.match(text, /Back to how they were: a\.txt, src\/b\.ts/);
    assert.match(text, /Deleted \(this turn or a later one created them\): new\.txt/);
    assert.match(text, /Files your \.gitignore leaves out, and empty folders, are not part of a rewind/);
    // Focus moves to Rewind in an effect after the question renders: wait for it, bounded.
    await page.waitForFunction(() => document.activeElement?.classList.contains('checkpoint-confirm-yes'), undefined, { timeout: 15_000 }).catch(() => undefined);
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('checkpoint-confirm-yes')), true, 'focus is on Rewind');
    await confirm.locator('button', { hasText: 'Cancel' }).click();
    await rendered(page);
    assert.equal(await confirm.count(), 0);
    assert.deepEqual(await sentFrames(page, CHECKPOINT_RESTORE_TYPE), []);
    // The question's buttons are gone: focus is back on "Rewind to before this turn", not on the page.
    const onRewind = () => page.evaluate(() => document.activeElement?.classList.contains('checkpoint-rewind') ?? false);
    await page.waitForFunction(() => document.activeElement?.classList.contains('checkpoint-rewind'), undefined, { timeout: 15_000 }).catch(() => undefined);
    assert.equal(await onRewind(), true, 'after Cancel, focus is on Rewind to before this turn');
    await page.keyboard.press('Enter');
    await rendered(page); // focus moves to the question once it is drawn
    await page.waitForFunction(() => document.activeElement?.classList.contains('checkpoint-confirm-yes'), undefined, { timeout: 15_000 }).catch(() => undefined);
    await page.keyboard.press('Escape');
    await rendered(page);
    assert.equal(await confirm.count(), 0, 'Esc closes the question');
    await page.waitForFunction(() => document.activeElement?.classList.contains('checkpoint-rewind'), undefined, { timeout: 15_000 }).catch(() => undefined);
    assert.equal(await onRewind(), true, 'after Esc, focus is on Rewind to before this turn');
    await page.keyboard.press('Enter');
    await rendered(page);
    await page.waitForFunction(() => document.activeElement?.classList.contains('checkpoint-confirm-yes'), undefined, { timeout: 15_000 }).catch(() => undefined);
    await page.keyboard.press('Enter');
    await rendered(page);
    assert.deepEqual((await waitForSent(page, CHECKPOINT_RESTORE_TYPE, 1)).map((f) => f.payload), [{ checkpoint_id: CP }]);
    await page.waitForFunction(() => document.activeElement?.classList.contains('checkpoint-rewind'), undefined, { timeout: 15_000 }).catch(() => undefined);
    assert.equal(await onRewind(), true, 'after Rewind, focus is on Rewind to before this turn (the answer shows below it)');
    await restored(page, { checkpoint_id: CP, restored: ['a.txt', 'src/b.ts'], conflicts: [], undo_checkpoint_id: 'cp-undo' });
    assert.match(await page.locator('.checkpoint-result').innerText(), /^Rewound 2 files\. a\.txt, src\/b\.ts/);
    assert.equal(await onRewind(), true, 'the answer does not take the focus away');
  });

  it('the question names the later turns\' files too, and what no rewind brings back; the footer says what its turn took for good (decision 612)', async () => {
    const page = await h.open();
    await showTurn(page, [{ path: 'keep.txt', change: 'modified' }, { path: 'notes.txt', change: 'created' }]);
    const b = streamBuilder(SESSION, Date.now() + 1000);
    const T2 = { turn_id: 'turn-2' };
    await feed(page, SESSION, [
      b.make('session.turn.start', { turn_id: 'turn-2', turn_index: 1 }, T2),
      buildCheckpointFrame(
        CHECKPOINT_CREATED_TYPE,
        { checkpoint_id: 'cp-2', turn_id: 'turn-2', files: [{ path: 'big.txt', change: 'created' }, { path: 'keep.txt', change: 'modified' }, { path: 'sub/existing.md', change: 'deleted' }], skipped: [{ path: 'huge.log', reason: 'large', change: 'deleted' }, { path: 'made.bin', reason: 'binary' }] },
        SESSION,
      ),
      b.make('session.turn.end', { turn_id: 'turn-2', stop_reason: 'end_turn', tool_invocation_count: 3 }, T2),
    ]);
    const second = page.locator('.checkpoint[data-checkpoint="cp-2"]');
    assert.equal((await second.locator('.checkpoint-lost').innerText()).trim(), 'Not kept, so no rewind brings them back: huge.log (deleted)');
    assert.equal((await second.locator('.checkpoint-skipped').innerText()).trim(), '1 not kept (large or binary)');
    await page.locator(`.checkpoint[data-checkpoint="${CP}"] .checkpoint-rewind`).click();
    const text = await page.locator('.checkpoint-confirm').innerText();
    assert.match(text, /Back to how they were: keep\.txt, sub\/existing\.md\n/);
    assert.match(text, /Deleted \(this turn or a later one created them\): big\.txt, notes\.txt\n/);
    assert.match(text, /Not kept, so a rewind cannot bring them back: huge\.log \(deleted\)/);
    // A rewind that found nothing to do says so, and counts nothing as rewound.
    await page.locator('.checkpoint-confirm button', { hasText: 'Cancel' }).click();
    await restored(page, { checkpoint_id: CP, restored: ['keep.txt', 'notes.txt'], unchanged: ['keep.txt', 'notes.txt'], conflicts: [] });
    assert.equal((await page.locator(`.checkpoint[data-checkpoint="${CP}"] .checkpoint-result`).innerText()).trim(), 'Nothing to rewind: these files already are as they were before this turn.');
  });

  it('decision 645: later turns that got no checkpoint (x-rawp.checkpoint.none) are named in the question — what they alone changed is not rewound; a turn whose snapshot was too slow says it cannot be rewound, one switched off says nothing', async () => {
    const page = await h.open();
    await showTurn(page);
    const b = streamBuilder(SESSION, Date.now() + 1000);
    const later = (n: number, reason: 'off' | 'late') => {
      const T = { turn_id: `turn-${n}` };
      return [b.make('session.turn.start', { turn_id: `turn-${n}`, turn_index: n - 1 }, T), buildCheckpointFrame(CHECKPOINT_NONE_TYPE, { turn_id: `turn-${n}`, reason }, SESSION), b.make('session.turn.end', { turn_id: `turn-${n}`, stop_reason: 'end_turn', tool_invocation_count: 1 }, T)];
    };
    await feed(page, SESSION, [...later(2, 'off'), ...later(3, 'late')]);
    const notes = await page.locator('.checkpoint-none').allInnerTexts();
    assert.deepEqual(notes.map((s) => s.trim()), ['No checkpoint for this turn: the workspace snapshot took too long, so this turn cannot be rewound.'], 'only the late turn says so');
    await page.locator(`.checkpoint[data-checkpoint="${CP}"] .checkpoint-rewind`).click();
    const warning = page.locator('.checkpoint-confirm .checkpoint-unrecorded');
    assert.equal((await warning.innerText()).trim(), '2 later turns ran without a checkpoint (checkpoints were off, or their snapshots took too long or failed): files only those turns changed are not rewound, and a file listed here that they changed again is held back for you to choose.');
    // The headline promises only what the checkpoints recorded (it said "Every file … changed goes back").
    const headline = await page.locator('.checkpoint-confirm p').first().innerText();
    assert.match(headline, /Every file the checkpoints of this turn and the turns after it recorded goes back/);
    assert.doesNotMatch(headline, /Every file this turn and the turns after it changed/);
    await page.locator('.checkpoint-confirm button', { hasText: 'Cancel' }).click();
    // A file such a turn changed again comes back as a conflict: not blamed on "someone else" alone.
    await restored(page, { checkpoint_id: CP, restored: [], conflicts: ['a.txt'] });
    assert.match(await page.locator(`.checkpoint[data-checkpoint="${CP}"] .checkpoint-conflicts p`).innerText(), /by someone else, or by a later turn that had no checkpoint/);
    assert.deepEqual(pageErrors(page), []);
  });

  it('at the side bar’s width a path in the question breaks only where it must: one that fits on a line is not split in two (as "src/greeting.t" / "s" was)', async () => {
    const page = await h.open({ width: 300 });
    await showTurn(page, [{ path: 'src/components/greeting.ts', change: 'modified' }]);
    await page.locator('.checkpoint-rewind').click();
    const paths = page.locator('.checkpoint-confirm .checkpoint-paths');
    assert.equal((await paths.innerText()).trim(), 'src/components/greeting.ts');
    const lines = await paths.evaluate((el) => new Set([...el.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size);
    assert.equal(lines, 1, 'the path is on one line');
  });

  it('conflicts wait for a choice per file: Apply sends one restore forcing only the overwritten files; Undo rewind restores the undo checkpoint; each action\'s message counts every file it restored (decision 673)', async () => {
    const page = await h.open();
    await showTurn(page);
    await restored(page, { checkpoint_id: CP, restored: ['new.txt'], conflicts: ['a.txt', 'src/b.ts'], undo_checkpoint_id: 'cp-undo' });
    const result = page.locator('.checkpoint-result');
    assert.match(await result.innerText(), /Rewound 1 file\. new\.txt/);
    assert.equal(await page.locator('.checkpoint-conflict').count(), 2);
    const apply = page.locator('.checkpoint-apply');
    assert.equal(await apply.isDisabled(), true, 'every conflict needs a choice first');
    await page.locator('button[aria-label="Overwrite my changes in a.txt"]').click();
    assert.equal(await apply.isDisabled(), true);
    const keep = page.locator('button[aria-label="Keep mine: src/b.ts"]');
    await keep.focus();
    await page.keyboard.press('Space');
    await rendered(page);
    assert.equal(await keep.getAttribute('aria-pressed'), 'true');
    assert.equal(await page.locator('button[aria-label="Overwrite my changes in a.txt"]').getAttribute('aria-pressed'), 'true');
    await apply.click();
    await rendered(page);
    assert.deepEqual((await waitForSent(page, CHECKPOINT_RESTORE_TYPE, 1)).map((f) => f.payload), [{ checkpoint_id: CP, force: ['a.txt'], paths: ['a.txt'] }]);
    assert.equal(await page.locator('.checkpoint-conflict').count(), 0, 'the choices were applied');
    await restored(page, { checkpoint_id: CP, restored: ['a.txt'], conflicts: [], undo_checkpoint_id: 'cp-undo-2' });
    // The rewind and its Apply are one action: "Rewound 1 file. a.txt" hid new.txt (the new-user trial).
    assert.match(await result.innerText(), /^Rewound 2 files\. new\.txt, a\.txt$/);
    // Decision 612: one Undo undoes the whole rewind — the forced file first, then the rewind before it.
    await page.locator('.checkpoint-undo').click();
    await rendered(page);
    assert.deepEqual((await waitForSent(page, CHECKPOINT_RESTORE_TYPE, 3)).slice(1).map((f) => f.payload), [{ checkpoint_id: 'cp-undo-2' }, { checkpoint_id: 'cp-undo' }]);
    await restored(page, { checkpoint_id: 'cp-undo-2', restored: ['a.txt'], conflicts: [] });
    assert.equal(await page.locator('.checkpoint-undo').count(), 1, 'the first rewind is not undone yet');
    await restored(page, { checkpoint_id: 'cp-undo', restored: ['new.txt'], conflicts: [] });
    assert.match(await result.innerText(), /^Rewind undone: 2 files back\. a\.txt, new\.txt$/);
    assert.equal(await page.locator('.checkpoint-undo').count(), 0);
  });

  it('keeping every conflicting file sends nothing; an error answer is a sentence with its code in the tooltip', async () => {
    const page = await h.open();
    await showTurn(page);
    await restored(page, { checkpoint_id: CP, restored: [], conflicts: ['a.txt'] });
    await page.locator('button[aria-label="Keep mine: a.txt"]').click();
    await page.locator('.checkpoint-apply').click();
    await rendered(page);
    assert.deepEqual(await sentFrames(page, CHECKPOINT_RESTORE_TYPE), []);
    await restored(page, { checkpoint_id: CP, restored: [], conflicts: [], error: { code: 'RESTORE_FAILED', message: 'the shadow repository could not be read' } });
    const err = page.locator('.checkpoint-result.error');
    assert.equal((await err.innerText()).trim(), 'Could not rewind: the shadow repository could not be read');
    assert.match((await err.getAttribute('title')) ?? '', /RESTORE_FAILED/);
    // "A turn is running" is said only while one runs: with none running now, it is stale (decision 612).
    await restored(page, { checkpoint_id: CP, restored: [], conflicts: [], error: { code: 'TURN_IN_PROGRESS', message: 'a turn is running; rewind once it has ended' } });
    assert.equal(await page.locator('.checkpoint-result').count(), 0);
  });

  it('the browser master’s diffs (x-rawp.checkpoint.diff.result) render with the diff renderer; axe: 0 serious or critical with everything open', async () => {
    const page = await h.open({ width: 520, height: 2000 });
    await showTurn(page);
    await feed(page, SESSION, [
      buildCheckpointFrame(CHECKPOINT_DIFF_RESULT_TYPE, {
        checkpoint_id: CP,
        files: [
          { path: 'a.txt', change: 'modified', unified_diff: '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-first\n+second\n keep\n' },
          { path: 'src/b.ts', change: 'modified', omitted: 'large' },
          { path: 'new.txt', change: 'created', unified_diff: '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+new\n' },
        ],
      }, SESSION),
    ]);
    await page.locator('.checkpoint-summary').click();
    await rendered(page);
    assert.equal(await page.locator('.checkpoint-diffs .diff').count(), 2);
    assert.match(await page.locator('.checkpoint-diffs').innerText(), /src\/b\.ts: too large to show/);
    assert.ok((await page.locator('.checkpoint-diffs .diff-line').count()) >= 4);
    await restored(page, { checkpoint_id: CP, restored: ['new.txt'], conflicts: ['a.txt'], undo_checkpoint_id: 'cp-u' });
    await page.locator('.checkpoint-rewind').click();
    await rendered(page);
    const axe = await new AxeBuilder({ page }).include('.checkpoint').withTags(AXE_TAGS).analyze();
    assert.ok(axe.passes.length > 5, `axe ran its rules (${axe.passes.length} passed)`);
    assert.deepEqual(describeViolations(blocking(axe.violations)), []);
    // Visible focus: the focused control draws an outline.
    // Reached by the keyboard (focus-visible): from the control before it, Tab.
    await page.locator('.checkpoint-undo').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('checkpoint-undo')), true);
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.notEqual(outline, 'none');
    assert.deepEqual(pageErrors(page), []);
  });
});
