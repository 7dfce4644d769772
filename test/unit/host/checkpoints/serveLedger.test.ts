// Issue 17 item 4 in a real `rawp serve` child process with the built-in agent: a rewind makes the
// host's one read-before-write ledger forget the files it restored, so the next edit of a restored
// file is refused as unobserved (FS_NOT_OBSERVED, read-before-write.md) and succeeds after a read.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFrame } from '../../../../src/protocol/build';
import { buildCheckpointFrame, CHECKPOINT_RESTORE_TYPE } from '../../../../src/protocol/checkpointFrames';
import type { WireFrame } from '../../../../src/protocol/frameTypes';
import { waitFor } from '../../remote/harness';
import { serve, stopAll } from '../../../security/serveProcess';
import { WsMaster } from './wsMaster';

/** The tool calls of the frames after `from`: name and error code of each result. */
function toolCalls(frames: readonly WireFrame[]): string[] {
  const names = new Map<string, string>();
  const out: string[] = [];
  for (const f of frames) {
    if (f.type === 'tool.invoke.request') names.set(String(f.payload.tool_call_id), String(f.payload.tool_name));
    if (f.type === 'tool.invoke.result') out.push(`${names.get(String(f.payload.tool_call_id)) ?? '?'} ${f.payload.error_code ?? f.payload.status}`);
  }
  return out;
}

describe('checkpoint rewind and the ledger in rawp serve (issue 17 item 4)', function () {
  this.timeout(90_000);
  afterEach(stopAll);

  it('read-before-write.md: read → edit turn → rewind: the next edit of the restored file is refused FS_NOT_OBSERVED, and succeeds after a fresh read', async () => {
    const served = await serve({ files: { 'notes.md': 'alpha\n' }, isolatedHome: true });
    const ws = served.workspace;
    const m = await new WsMaster(served.url, served.token, served.session_id).open();
    m.allowAsks();
    const prompt = async (text: string, n: number) => {
      const from = m.frames.length;
      m.sendRaw(buildFrame('control.prompt.request', { prompt_text: text }, { session_id: served.session_id }));
      await waitFor(() => m.turnEnds() === n, `turn ${n} ends`, 30_000);
      return toolCalls(m.frames.slice(from));
    };

    assert.deepEqual(await prompt('read notes.md', 1), ['Read success']);
    assert.deepEqual(await prompt('replace `alpha` with `beta` in notes.md', 2), ['Edit success'], 'read before: the edit goes straight through');
    assert.equal(readFileSync(join(ws, 'notes.md'), 'utf8'), 'beta\n');
    const created = m.created();
    assert.equal(created.length, 1);

    m.sendRaw(buildCheckpointFrame(CHECKPOINT_RESTORE_TYPE, { checkpoint_id: created[0].checkpoint_id }, served.session_id));
    await waitFor(() => m.restored().length === 1, 'restored');
    assert.deepEqual(m.restored()[0].restored, ['notes.md']);
    assert.equal(readFileSync(join(ws, 'notes.md'), 'utf8'), 'alpha\n');

    // The agent edits the restored file: unobserved (not merely stale) — the ledger forgot it —
    // so the built-in agent reads it and its retry succeeds.
    assert.deepEqual(await prompt('replace `alpha` with `gamma` in notes.md', 3), ['Edit FS_NOT_OBSERVED', 'Read success', 'Edit success']);
    assert.equal(readFileSync(join(ws, 'notes.md'), 'utf8'), 'gamma\n');
    m.close();
  });
});
