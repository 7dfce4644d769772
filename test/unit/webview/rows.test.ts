// The transcript's rows for the virtualizer (issue 18): two builds of the same transcript hold the
// same key strings, so sameKeys is a pointer check, and sameKeys tells when the virtualizer must
// recompute every row's place (a row added, removed or replaced) from when one only grew.
import { strict as assert } from 'node:assert';
import { applyFrames, createTranscript } from '../../../src/protocol/transcript';
import { buildRows, sameKeys } from '../../../webview-ui/src/view/rows';
import { SESSION, longSession } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

describe('webview/rows: row keys across builds', () => {
  const b = streamBuilder(SESSION, Date.parse('2026-03-16T08:00:00.000Z'));
  const t = createTranscript();
  applyFrames(t, longSession(200, b));
  const T = { turn_id: 'turn-open' };
  applyFrames(t, [b.make('session.turn.start', { turn_id: 'turn-open', turn_index: 50 }, T), b.make('agent.text.delta', { content_index: 0, text: 'Hello ' }, T)]);

  it('two builds hold the very same key strings, turn separators and ends included', () => {
    const a = buildRows(t);
    const c = buildRows(t);
    assert.ok(a.some((r) => r.kind === 'turn-start') && a.some((r) => r.kind === 'turn-end'));
    assert.ok(sameKeys(a, c));
    // The same objects, not equal copies (a template string per build would differ here).
    const separators = a.filter((r) => r.kind !== 'block');
    assert.ok(separators.length > 10);
    for (const r of separators) assert.ok(Object.is(r.key, c[a.indexOf(r)].key) && r.key.endsWith(r.kind === 'turn-start' ? ':start' : ':end'), r.key);
  });

  it('text streaming into a row keeps the keys; a new row, a closed turn or a replaced row does not', () => {
    const before = buildRows(t);
    applyFrames(t, [b.make('agent.text.delta', { content_index: 0, text: 'world' }, T)]);
    assert.ok(sameKeys(before, buildRows(t)), 'more text in the same block');
    const grown = buildRows(t);
    applyFrames(t, [b.make('tool.invoke.request', { invocation_id: 'inv-new', tool_name: 'Bash', input: { command: 'ls' } }, T)]);
    const withTool = buildRows(t);
    assert.equal(withTool.length, grown.length + 1);
    assert.ok(!sameKeys(grown, withTool), 'a new row');
    applyFrames(t, [b.make('session.turn.end', { turn_id: 'turn-open', stop_reason: 'end_turn' }, T)]);
    assert.ok(!sameKeys(withTool, buildRows(t)), 'the turn ended: its end row');
    const rows = buildRows(t);
    const replaced = rows.map((r, i) => (i === 5 ? { ...r, key: `${r.key}-other` } : r));
    assert.ok(!sameKeys(rows, replaced), 'same count, one key differs');
  });
});
