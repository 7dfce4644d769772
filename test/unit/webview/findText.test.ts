// Find in chat (decision 524) in Node: what each row's searchable text holds (the words its view
// shows, bounded as the view bounds them), that it is kept per block and rev, and that the sliced
// search finds every occurrence in row order, yields between slices and can be cancelled.
import { strict as assert } from 'node:assert';
import { applyFrames, createTranscript, type Transcript } from '../../../src/protocol/transcript';
import { blockText, countIn, rowText } from '../../../webview-ui/src/view/findText';
import { entryFrom, entryOf, searchRows, type FindResult } from '../../../webview-ui/src/view/findSearch';
import { MAX_TEXT } from '../../../webview-ui/src/view/outputs';
import { buildRows, type Row } from '../../../webview-ui/src/view/rows';
import { SESSION, TURN, longSession } from '../../browser/streams';
import { streamBuilder } from '../../fixtures/frames/streamBuilder';

const T = { turn_id: TURN };

function oneTurn(): Transcript {
  const b = streamBuilder(SESSION);
  const tx = createTranscript();
  const huge = `HEADWORD ${'x'.repeat(MAX_TEXT + 100)} TAILWORD`;
  applyFrames(tx, [
    b.make('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['agent', 'tool', 'session', 'control'], features: { thinking_stream: true, tool_streaming: true } }),
    b.make('control.prompt.request', { prompt_text: 'Find the Walrus please' }),
    b.make('session.turn.start', { turn_id: TURN, turn_index: 0 }, T),
    b.make('agent.thinking.delta', { content_index: 0, text: 'pondering capybara' }, T),
    b.make('agent.thinking.done', { content_index: 0 }, T),
    b.make('agent.thinking.delta', { content_index: 1, text: 'secret', redacted: true } as never, T),
    b.make('agent.text.delta', { content_index: 2, text: 'The **answer** is here' }, T),
    b.make('tool.invoke.request', { invocation_id: 'bash', tool_name: 'Bash', input: { command: 'npm run narwhal' } }, T),
    b.make('tool.invoke.stream', { invocation_id: 'bash', tool_name: 'Bash', stream_type: 'stdout', chunk: 'streamed okapi\n', sequence: 0 }, T),
    b.make('tool.invoke.request', { invocation_id: 'big', tool_name: 'Bash', input: { command: 'cat big' } }, T),
    b.make('tool.invoke.result', { invocation_id: 'big', tool_name: 'Bash', status: 'success', output: huge, output_type: 'text' }, T),
  ]);
  return tx;
}

const textOf = (rows: Row[], pick: (r: Row) => boolean) => rows.filter(pick).map(rowText);

describe('webview/findText: the searchable text of each row (decision 524)', () => {
  const tx = oneTurn();
  const rows = buildRows(tx);

  it('decision 524: a prompt, thinking, answer text and a tool card give their shown words, lower-cased', () => {
    assert.deepEqual(textOf(rows, (r) => r.kind === 'block' && r.block.kind === 'prompt'), ['find the walrus please']);
    const thinking = textOf(rows, (r) => r.kind === 'block' && r.block.kind === 'thinking');
    assert.ok(thinking.includes('pondering capybara'), JSON.stringify(thinking));
    assert.ok(rows.some((r) => r.kind === 'block' && r.block.kind === 'thinking' && r.block.redacted), 'a redacted thinking block is there');
    assert.ok(thinking.every((t) => !t.includes('secret') && !t.includes('redacted')), 'redacted thinking is not searched');
    assert.ok(textOf(rows, (r) => r.kind === 'block' && r.block.kind === 'text')[0].includes('the **answer** is here'));
    const bash = textOf(rows, (r) => r.kind === 'block' && r.block.kind === 'tool' && r.block.invocationId === 'bash')[0];
    assert.ok(bash.includes('bash') && bash.includes('npm run narwhal') && bash.includes('streamed okapi'), bash);
    assert.deepEqual(textOf(rows, (r) => r.kind !== 'block'), rows.filter((r) => r.kind !== 'block').map(() => ''), 'turn separators and ends are not searched');
  });

  it('decision 524: a huge output is searched as the view shows it: its last MAX_TEXT characters', () => {
    const big = textOf(rows, (r) => r.kind === 'block' && r.block.kind === 'tool' && r.block.invocationId === 'big')[0];
    assert.ok(big.includes('tailword'), 'the shown tail is searched');
    assert.ok(!big.includes('headword'), 'the hidden head is not');
    assert.ok(big.length < MAX_TEXT + 200, `${big.length} characters`);
  });

  it('decision 524: the text is kept per block and rev, and made again when the block changes', () => {
    const row = rows.find((r) => r.kind === 'block' && r.block.kind === 'tool' && r.block.invocationId === 'bash') as Extract<Row, { kind: 'block' }>;
    const first = blockText(row.block);
    assert.equal(blockText(row.block), first);
    const b = streamBuilder(SESSION, Date.parse('2026-03-16T11:00:00.000Z'));
    applyFrames(tx, [b.make('tool.invoke.stream', { invocation_id: 'bash', tool_name: 'Bash', stream_type: 'stdout', chunk: 'then tapir\n', sequence: 1 }, T)]);
    assert.ok(blockText(row.block).includes('then tapir'), 'a new chunk is searched after the block changed');
  });

  it('decision 524: occurrences are counted without overlap', () => {
    assert.equal(countIn('aaaa', 'aa'), 2);
    assert.equal(countIn('the cat and the hat', 'the'), 2);
    assert.equal(countIn('nothing', 'zz'), 0);
  });
});

describe('webview/findSearch: matching in slices (decision 524)', () => {
  const tx = createTranscript();
  applyFrames(tx, longSession(3000));
  const rows = buildRows(tx);
  const run = (query: string, sliceMs: number) => new Promise<FindResult>((ok) => searchRows(rows, query, ok, sliceMs));

  it('decision 524: every occurrence in row order, the same in 0 ms slices (yielding after every 128 rows) as in one', async () => {
    const whole = await run('Tests', 1e9);
    const sliced = await run('tests', 0);
    const expected = rows.map((r) => countIn(rowText(r), 'tests'));
    assert.equal(whole.total, expected.reduce((a, b) => a + b, 0));
    assert.ok(whole.total > 100, `${whole.total} matches`);
    assert.deepEqual(sliced.at, whole.at);
    assert.deepEqual(sliced.counts, whole.counts);
    assert.deepEqual(whole.at, [...whole.at].sort((a, b) => a - b));
    assert.equal(whole.before[whole.before.length - 1] + whole.counts[whole.counts.length - 1], whole.total);
  });

  it('decision 524: a cancelled search never answers; a newer one does', async () => {
    let old = false;
    const cancel = searchRows(rows, 'tests', () => (old = true), 0);
    cancel();
    const newer = await run('agent', 0);
    await new Promise((ok) => setTimeout(ok, 20));
    assert.equal(old, false);
    assert.ok(newer.total > 0);
  });

  it('decision 524: entryFrom starts at a row and wraps; entryOf finds a matching row', async () => {
    const r = await run('please', 5);
    const mid = r.at[Math.floor(r.at.length / 2)];
    assert.equal(r.at[entryFrom(r, mid)], mid);
    assert.equal(r.at[entryFrom(r, mid + 1)], r.at[Math.floor(r.at.length / 2) + 1]);
    assert.equal(entryFrom(r, rows.length + 5), 0, 'past the last match it wraps to the first');
    assert.equal(entryOf(r, mid), Math.floor(r.at.length / 2));
    assert.equal(entryOf(r, mid + 1), -1);
  });
});
