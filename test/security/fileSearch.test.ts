// Issue 12 #11 (search) against a real `rawp serve`: 20,000 §16.1.1 exclude_patterns froze a
// search ~6 s (one picomatch regex per pattern, on every path), and a single backtracking-prone
// pattern (`*a*a…*b`) takes picomatch minutes on one 40-character name. Patterns are now capped
// (a clear error) and compiled once into a linear-time matcher. The test sends 5,000 (61 KB): 20,000
// (261 KB) is now refused sooner, by the byte budget of controls without user text (decision 547).
import { strict as assert } from 'node:assert';
import type { Frame, FrameOf, VendorFrame } from '../../src/protocol/frameTypes';
import { http, waitFor, type TestMaster } from '../unit/remote/harness';
import { serve, stopAll } from './serveProcess';

function answerTo(m: TestMaster, id: string | undefined): Frame | VendorFrame | undefined {
  return m.frames.find((f) => f.parent_id === id && (f.type === 'session.file.candidates' || f.type === 'session.error'));
}

describe('security/file search: exclude_patterns cannot freeze the host (issue 12 #11)', function () {
  this.timeout(120_000);
  afterEach(stopAll);

  it('§16.1.1 5,000 exclude_patterns get a clear non-fatal error at once; 256 are served; health answers meanwhile', async () => {
    const s = await serve({ files: { 'a.txt': 'a\n', 'notes.md': 'n\n', 'keep.ts': 'k\n' } });
    const m = await s.master();
    const t0 = performance.now();
    const many = m.client.send('control.file.search', { query_id: 'q-many', query: '', filters: { exclude_patterns: Array.from({ length: 5_000 }, (_, i) => `dir${i}/**`) } });
    const health = await http(`${s.url}/v1/health`);
    await waitFor(() => answerTo(m, many?.message_id) !== undefined, 'the answer to 5,000 patterns');
    const ms = performance.now() - t0;
    assert.equal(health.status, 200);
    const refused = answerTo(m, many?.message_id) as FrameOf<'session.error'>;
    assert.equal(refused.type, 'session.error');
    assert.deepEqual([refused.payload.error_code, refused.payload.fatal], ['FILE_SEARCH_FAILED', false]);
    assert.match(refused.payload.message, /too many exclude_patterns: 5000 \(at most 256\)/);
    assert.ok(ms < 3000, `answered after ${Math.round(ms)} ms`);

    const fine = m.client.send('control.file.search', { query_id: 'q-256', query: '', filters: { exclude_patterns: [...Array.from({ length: 255 }, (_, i) => `dir${i}/**`), '*.md'] } });
    await waitFor(() => answerTo(m, fine?.message_id) !== undefined, 'the answer to 256 patterns');
    const got = answerTo(m, fine?.message_id) as FrameOf<'session.file.candidates'>;
    assert.equal(got.type, 'session.file.candidates');
    const paths = got.payload.candidates.map((c) => c.path).sort();
    assert.deepEqual(paths, ['a.txt', 'keep.ts'], 'the .md file is excluded, the rest is listed');
  });

  it('§16.1.1 a pattern built to backtrack (*a*a…*b) against a 200-character file name answers at once, and the server stays responsive', async () => {
    const long = 'a'.repeat(200);
    const s = await serve({ files: { [long]: 'x\n', 'b.txt': 'b\n' } });
    const m = await s.master();
    const t0 = performance.now();
    const q = m.client.send('control.file.search', { query_id: 'q-evil', query: 'a', filters: { exclude_patterns: ['*a*a*a*a*a*a*a*a*a*a*a*a*b'] } });
    const health = await http(`${s.url}/v1/health`);
    await waitFor(() => answerTo(m, q?.message_id) !== undefined, 'the answer');
    const ms = performance.now() - t0;
    assert.equal(health.status, 200);
    const got = answerTo(m, q?.message_id) as FrameOf<'session.file.candidates'>;
    assert.equal(got.type, 'session.file.candidates');
    assert.ok(got.payload.candidates.some((c) => c.path === long), 'the long name does not match the pattern and is listed');
    assert.ok(ms < 3000, `answered after ${Math.round(ms)} ms`);
  });
});
