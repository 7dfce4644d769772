// A big edit's text goes to the edit/diff worker as UTF-8 bytes that are moved, not cloned
// (src/tools/search/searchClient.ts, issue 12 finding 2): cloning a 20 MB string held the loop
// ~20 ms each way. Moved bytes are gone from this thread, so a request that must be sent again
// (the shared worker was restarted for another caller) is built afresh — never sent empty.
import { strict as assert } from 'node:assert';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { search, SearchAbortedError } from '../../../src/tools/search/searchClient';
import type { SearchQuery } from '../../../src/tools/search/searchProtocol';
import { DiffUnavailableError, writeDiffOutput } from '../../../src/tools/diff';
import type { FsWriteResult } from '../../../src/workspace/fsBackend';
import { until } from '../../support/settle';

const TEXT = 'keep this line\n'.repeat(1000) + 'change me\n';
const EDITED = 'keep this line\n'.repeat(1000) + 'changed\n';
const editOf = (utf8: Uint8Array): SearchQuery => ({ op: 'edit', utf8, edits: [{ old_string: 'change me', new_string: 'changed' }], displayPath: 'big.txt' });

describe('tools: big edits and diffs move their bytes to the worker (issue 12 finding 2)', function () {
  this.timeout(60_000);

  it('§5.3.3 a built request moves its bytes (gone here afterwards) and the edited text comes back whole; a plain one is copied', async () => {
    const built: Uint8Array[] = [];
    const r = await search(async () => {
      built.push(Buffer.from(TEXT, 'utf8'));
      return editOf(built[0]);
    });
    assert.ok(r.ok && r.edited, JSON.stringify(r));
    assert.equal(Buffer.from(r.edited.utf8).toString('utf8'), EDITED);
    assert.equal(r.edited.replacements, 1);
    assert.equal(built[0].byteLength, 0, 'the request bytes were moved to the worker, not cloned');
    const kept = Buffer.from(TEXT, 'utf8');
    const plain = await search(editOf(kept));
    assert.ok(plain.ok && plain.edited);
    assert.equal(kept.byteLength, Buffer.byteLength(TEXT), 'a plain request (resent as it is) keeps its bytes');
  });

  it('§5.3.3 the worker restarted for another caller: the edit is built again and resent with its bytes, and succeeds', async () => {
    // A grep that runs long in the worker; the edit waits behind it, then the grep is cancelled.
    const abort = new AbortController();
    const grep = search({ op: 'grep', pattern: '(a|b|c|d|e|f|g|h)+z', options: {}, mode: 'count', text: 'abcdefghij '.repeat(2_000_000) }, abort.signal).then(
      () => 'finished',
      (e: unknown) => e,
    );
    const built: Uint8Array[] = [];
    const edit = search(async () => {
      built.push(Buffer.from(TEXT, 'utf8'));
      return editOf(built[built.length - 1]);
    });
    await until(() => built.length === 1, 'the edit was built and sent');
    await nextTurn();
    abort.abort();
    const r = await edit;
    assert.ok((await grep) instanceof SearchAbortedError, 'the grep was cancelled');
    assert.equal(built.length, 2, 'the edit was built again for the new worker');
    assert.ok(r.ok && r.edited, JSON.stringify(r));
    assert.equal(Buffer.from(r.edited.utf8).toString('utf8'), EDITED);
  });

  it('§5.3.3 a big write\'s diff moves the bytes the backend read and wrote; if the worker restarts before answering, the diff is unavailable — never a diff against nothing', async () => {
    const bigBefore = 'keep this line\n'.repeat(80_000) + 'change me\n';
    const bigAfter = 'keep this line\n'.repeat(80_000) + 'changed\n';
    const result = (): FsWriteResult => {
      const before = Buffer.from(bigBefore, 'utf8');
      const r = { after: bigAfter, version: 'c1:x' as FsWriteResult['version'], created: false, utf8: { before, after: Buffer.from(bigAfter, 'utf8') } };
      // As the local backend's: `before` comes from the bytes, and not once they were moved.
      return Object.defineProperty(r, 'before', { get: () => (before.byteLength === 0 ? assert.fail('before read after the move') : before.toString('utf8')) }) as unknown as FsWriteResult;
    };
    const moved = result();
    const diff = await writeDiffOutput('big.txt', moved);
    assert.deepEqual([diff.additions, diff.deletions], [1, 1]);
    assert.match(diff.unified_diff, /-change me\n\+changed/);
    assert.equal(moved.utf8!.before.byteLength, 0, 'the old bytes were moved to the worker, not cloned');
    assert.equal(moved.utf8!.after.byteLength, 0, 'so were the new ones');
    // The worker is restarted for another caller (a grep cancelled) while the diff waits behind it.
    const abort = new AbortController();
    const grep = search({ op: 'grep', pattern: '(a|b|c|d|e|f|g|h)+z', options: {}, mode: 'count', text: 'abcdefghij '.repeat(2_000_000) }, abort.signal).then(
      () => 'finished',
      (e: unknown) => e,
    );
    const lost = result();
    const pending = writeDiffOutput('big.txt', lost).then(
      () => 'a diff',
      (e: unknown) => e,
    );
    await until(() => lost.utf8!.before.byteLength === 0, 'the diff was sent');
    await nextTurn();
    abort.abort();
    assert.ok((await grep) instanceof SearchAbortedError, 'the grep was cancelled');
    const outcome = await pending;
    assert.ok(outcome instanceof DiffUnavailableError, `the diff is unavailable, not computed from empty bytes (${String(outcome)})`);
    assert.equal(outcome.writtenBytes, Buffer.byteLength(bigAfter), 'it tells the size that was written');
  });
});
