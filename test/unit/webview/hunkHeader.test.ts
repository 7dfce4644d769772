// Decision 690: a new file's diff says `@@ -0,0 +1,N @@` as git does, wherever a diff is shown — the
// chat's hunk tables (built from the `hunks` numbers), Claude Code's converted diffs, and the
// `unified_diff` text of the same output all agree.
import { strict as assert } from 'node:assert';
import { structuredPatch } from 'diff';
import { hunkHeader } from '../../../src/protocol/hunkHeader';
import { diffOutput } from '../../../src/tools/diff';
import { unifiedDiff } from '../../../src/agents/claudeCode/toolOutput';
import { diffHunks } from '../../../webview-ui/src/view/outputs';

describe('decision 690: hunk headers as git writes them', () => {
  it('an empty side names line 0; a side with lines keeps its start; a start already 0 stays 0', () => {
    assert.equal(hunkHeader({ oldStart: 1, oldLines: 0, newStart: 1, newLines: 3 }), '@@ -0,0 +1,3 @@');
    assert.equal(hunkHeader({ oldStart: 1, oldLines: 2, newStart: 1, newLines: 0 }), '@@ -1,2 +0,0 @@');
    assert.equal(hunkHeader({ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }), '@@ -0,0 +1,1 @@');
    assert.equal(hunkHeader({ oldStart: 4, oldLines: 3, newStart: 4, newLines: 5 }), '@@ -4,3 +4,5 @@');
  });

  it('a created file in the chat: the hunk table’s header is the unified diff’s, -0,0 (not the library’s -1,0)', () => {
    const out = diffOutput('src/new.ts', '', 'one\ntwo\n', true);
    const d = diffHunks(out);
    assert.equal(d.hunks.length, 1);
    assert.equal(d.hunks[0].header, '@@ -0,0 +1,2 @@');
    assert.ok(out.unified_diff.includes('\n@@ -0,0 +1,2 @@\n'), out.unified_diff);
    // The numbers of the new lines still count from 1.
    assert.equal(d.hunks[0].newStart, 1);
  });

  it('a deleted file’s content and an ordinary edit read as git writes them', () => {
    assert.equal(diffHunks(diffOutput('a.txt', 'x\ny\n', '', false)).hunks[0].header, '@@ -1,2 +0,0 @@');
    assert.equal(diffHunks(diffOutput('a.txt', 'a\nb\nc\n', 'a\nB\nc\n', false)).hunks[0].header, '@@ -1,3 +1,3 @@');
  });

  it('Claude Code’s structuredPatch of a new file (oldStart 1, 0 lines) becomes -0,0 in its converted diff', () => {
    const hunks = structuredPatch('n.txt', 'n.txt', '', 'hi\n').hunks;
    assert.deepEqual([hunks[0].oldStart, hunks[0].oldLines], [1, 0], 'the library’s own form');
    assert.equal(unifiedDiff('n.txt', hunks.map((h) => ({ ...h })), true), '--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,1 @@\n+hi\n');
  });
});
