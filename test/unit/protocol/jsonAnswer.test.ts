// §11: the JSON object of an answer given as text (agents without a native JSON-Schema option),
// and the answer of a turn (the main agent's last step), as the engine and `rawp run` read them.
import { strict as assert } from 'node:assert';
import { extractJsonObject, MAX_ANSWER_CHARS } from '../../../src/protocol/jsonAnswer';
import { FinalAnswer } from '../../../src/protocol/finalAnswer';

describe('§11 the JSON object of a text answer', () => {
  it('§11.1 a fenced block wins (the last one that parses), then the bare text, then the span from the first { to the last }', () => {
    assert.deepEqual(extractJsonObject('draft:\n```json\n{"a":1}\n```\nfinal:\n```json\n{"a":2}\n```'), { found: true, value: { a: 2 }, how: 'fenced' });
    assert.deepEqual(extractJsonObject('```\n{"a":1}\n```\n```json\nnot json\n```'), { found: true, value: { a: 1 }, how: 'fenced' });
    assert.deepEqual(extractJsonObject('  {"a": [1, {"b": null}]}\n'), { found: true, value: { a: [1, { b: null }] }, how: 'bare' });
    assert.deepEqual(extractJsonObject('The result is {"ok": true} as asked.'), { found: true, value: { ok: true }, how: 'embedded' });
  });

  it('§11.1 no object: plain prose, a JSON array or string (data must be an object), an empty answer — each says why', () => {
    assert.deepEqual(extractJsonObject('no json here'), { found: false, reason: 'the answer contains no JSON object' });
    assert.equal(extractJsonObject('[1,2]').found, false);
    assert.match((extractJsonObject('[1,2]') as { reason: string }).reason, /not an object/);
    assert.match((extractJsonObject('') as { reason: string }).reason, /no text answer/);
  });

  it('§11 bounded: an answer over the size limit or nested too deep is refused before JSON.parse', () => {
    assert.match((extractJsonObject('x'.repeat(MAX_ANSWER_CHARS + 1)) as { reason: string }).reason, /longer than/);
    const deep = `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`;
    assert.match((extractJsonObject(deep) as { reason: string }).reason, /deeper than 64/);
  });
});

describe('§11 the answer of a turn', () => {
  it('§10.2 the main agent\'s text after its last tool call; subagent text and earlier steps are not the answer', () => {
    const a = new FinalAnswer();
    a.observe({ type: 'agent.text.done', payload: { content_index: 0, full_text: 'Let me look.' } });
    a.observe({ type: 'tool.invoke.request', payload: { invocation_id: 't1', tool_name: 'Read', input: {} } });
    a.observe({ type: 'agent.text.done', payload: { content_index: 1, full_text: 'sub says hi' }, metadata: { subagent_context: { parent_invocation_id: 't1', depth: 1 } } });
    a.observe({ type: 'agent.text.delta', payload: { content_index: 2, text: 'It is ' } });
    a.observe({ type: 'agent.text.delta', payload: { content_index: 2, text: 'fine.' } });
    assert.equal(a.text(), 'It is fine.');
    a.observe({ type: 'agent.text.done', payload: { content_index: 3, full_text: 'Done.' } });
    assert.equal(a.text(), 'It is fine.\n\nDone.');
    a.observe({ type: 'tool.invoke.request', payload: { invocation_id: 't2', tool_name: 'Bash', input: {} } });
    assert.equal(a.text(), '', 'a turn that ends on a tool call has no answer');
  });
});
