// §11 structured output and §6.1.1 config_overrides (json_schema, max_turns) as engine policy for
// every agent: the schema is checked with the prompt, the answer validated at the turn's end with
// an honest validation_status (decision 320), and max_turns enforced by the engine for agents
// without a cap of their own (decision 321). Scripted adapter; the host's real ajv validator.
import { strict as assert } from 'node:assert';
import { EngineHarness } from '../../support/engineHarness';
import { AjvSchemaValidator } from '../../../src/host/jsonSchemaValidator';
import type { TurnScript } from '../../support/scriptedAdapter';

const SCHEMA = { $id: 'person-v1', type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } }, required: ['name', 'age'] };
const validator = new AjvSchemaValidator();

function answer(text: string): TurnScript {
  return { steps: [{ kind: 'text', chunks: [text] }] };
}

async function harness(turns: TurnScript[], native?: { json_schema?: boolean; max_turns?: boolean }): Promise<EngineHarness> {
  return EngineHarness.start({ turns, ...(native ? { nativeOverrides: native } : {}) }, { schemaValidator: validator });
}

describe('engine: structured output (§11) and config_overrides (§6.1.1)', () => {
  it('§11.1 a conforming JSON answer in a fenced block is `valid`, with data and the schema $id as schema_id', async () => {
    const h = await harness([answer('Here it is:\n```json\n{"name":"Ada","age":36}\n```')]);
    const from = await h.runTurn('who?', { config_overrides: { json_schema: SCHEMA } });
    const end = h.ofType('session.turn.end', from)[0].payload;
    assert.equal(end.stop_reason, 'end_turn');
    assert.deepEqual(end.structured_output, { schema_id: 'person-v1', data: { name: 'Ada', age: 36 }, validation_status: 'valid' });
    assert.deepEqual(h.ofType('agent.error', from), []);
  });

  it('§11.1 an object that misses only required properties is `partial`; a wrong value is `failed`; each with a STRUCTURED_OUTPUT_INVALID warning', async () => {
    const h = await harness([answer('{"name":"Ada"}'), answer('{"name":"Ada","age":-1}')]);
    let from = await h.runTurn('who?', { config_overrides: { json_schema: SCHEMA } });
    let end = h.ofType('session.turn.end', from)[0].payload;
    assert.deepEqual(end.structured_output, { schema_id: 'person-v1', data: { name: 'Ada' }, validation_status: 'partial' });
    let warning = h.ofType('agent.error', from)[0].payload;
    assert.equal(warning.error_code, 'STRUCTURED_OUTPUT_INVALID');
    assert.equal(warning.severity, 'warning');
    assert.match(warning.message, /\/age: must have required property 'age'/);
    from = await h.runTurn('again', { config_overrides: { json_schema: SCHEMA } });
    end = h.ofType('session.turn.end', from)[0].payload;
    assert.equal(end.structured_output?.validation_status, 'failed');
    assert.deepEqual(end.structured_output?.data, { name: 'Ada', age: -1 });
    warning = h.ofType('agent.error', from)[0].payload;
    assert.match(warning.message, /\/age: must be >= 0/);
  });

  it('§11.1 an answer without any JSON object is `failed` with empty data; the turn itself still ends as end_turn', async () => {
    const h = await harness([answer('I would rather not say.')]);
    const from = await h.runTurn('who?', { config_overrides: { json_schema: SCHEMA } });
    const end = h.ofType('session.turn.end', from)[0].payload;
    assert.equal(end.stop_reason, 'end_turn');
    assert.deepEqual(end.structured_output, { schema_id: 'person-v1', data: {}, validation_status: 'failed' });
    assert.match(h.ofType('agent.error', from)[0].payload.message, /no JSON object/);
  });

  it('§11 an agent without a native option gets the schema as an instruction after its prompt; a native one gets json_schema itself', async () => {
    const plain = await harness([answer('{"name":"A","age":1}')]);
    await plain.runTurn('who?', { config_overrides: { json_schema: SCHEMA } });
    assert.match(plain.adapter.prompts[0].text, /^who\?\n\nGive your final answer as one JSON object/);
    assert.ok(plain.adapter.prompts[0].text.includes('"person-v1"'));
    assert.equal(plain.adapter.prompts[0].json_schema, undefined);

    const native = await harness([{ steps: [{ kind: 'text', chunks: ['done'] }], outcome: { structured_data: { name: 'B', age: 2 } } }], { json_schema: true });
    const from = await native.runTurn('who?', { config_overrides: { json_schema: SCHEMA } });
    assert.equal(native.adapter.prompts[0].text, 'who?');
    assert.deepEqual(native.adapter.prompts[0].json_schema, SCHEMA);
    // The native data is what is judged, not the text.
    assert.deepEqual(native.ofType('session.turn.end', from)[0].payload.structured_output, { schema_id: 'person-v1', data: { name: 'B', age: 2 }, validation_status: 'valid' });
  });

  it('§6.1.1 a json_schema that is not a usable schema, or not of an object, is refused before a turn starts (INVALID_JSON_SCHEMA)', async () => {
    const h = await harness([]);
    let from = h.frames.length;
    h.prompt('x', { config_overrides: { json_schema: { type: 'object', properties: { a: { type: 'strin' } } } } });
    assert.deepEqual(h.errors(from), ['INVALID_JSON_SCHEMA']);
    from = h.frames.length;
    h.prompt('x', { config_overrides: { json_schema: { type: 'array' } } });
    assert.deepEqual(h.errors(from), ['INVALID_JSON_SCHEMA']);
    assert.match(h.ofType('session.error', from)[0].payload.message, /must describe an object/);
    from = h.frames.length;
    h.prompt('x', { config_overrides: { json_schema: { type: 'object', properties: { a: { type: 'string', pattern: '(?=a)b' } } } } });
    assert.match(h.ofType('session.error', from)[0].payload.message, /linear-time/);
    assert.deepEqual(h.ofType('session.turn.start'), []);
    assert.equal(h.adapter.prompts.length, 0);
  });

  it('§11 a ReDoS-shaped pattern is matched in linear time (re2js): a long non-matching value is judged at once', async () => {
    const schema = { type: 'object', properties: { v: { type: 'string', pattern: '^(a+)+$' } }, required: ['v'] };
    const h = await harness([answer(JSON.stringify({ v: `${'a'.repeat(5000)}b` }))]);
    const started = Date.now();
    const from = await h.runTurn('x', { config_overrides: { json_schema: schema } });
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
    assert.equal(h.ofType('session.turn.end', from)[0].payload.structured_output?.validation_status, 'failed');
  });

  it('§12.2.1 with a validator every agent announces structured_output; without one the feature is not claimed and json_schema is refused', async () => {
    const h = await harness([]);
    assert.equal(h.ofType('session.capabilities')[0].payload.features?.structured_output, true);
    const bare = await EngineHarness.start({ turns: [] });
    assert.notEqual(bare.ofType('session.capabilities')[0].payload.features?.structured_output, true);
    bare.prompt('x', { config_overrides: { json_schema: SCHEMA } });
    assert.deepEqual(bare.errors(), ['INVALID_JSON_SCHEMA']);
  });

  it('§6.1.1 max_turns 1 stops a two-step agent (tool call, then answer) as it begins its second step: agent.error MAX_TURNS, stop_reason error, the second step never shown', async () => {
    const twoSteps: TurnScript = { steps: [{ kind: 'tool', name: 'Read', input: { file_path: 'a.txt' }, output: 'hello' }, { kind: 'text', chunks: ['the file says hello'] }] };
    const h = await harness([twoSteps]);
    const from = await h.runTurn('read it', { config_overrides: { max_turns: 1 } });
    const end = h.ofType('session.turn.end', from)[0].payload;
    assert.equal(end.stop_reason, 'error');
    const errors = h.ofType('agent.error', from);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].payload.error_code, 'MAX_TURNS');
    assert.match(errors[0].payload.message, /maximum of 1 step \(config_overrides\.max_turns\)/);
    assert.equal(h.ofType('tool.invoke.result', from).length, 1, 'step 1 ran to its end');
    assert.deepEqual(h.ofType('agent.text.delta', from), [], 'step 2 never reached the wire');
    assert.equal(h.adapter.signals[0].aborted, true, 'the agent was stopped');
    assert.equal(h.adapter.prompts[0].max_turns, undefined, 'an agent without a native cap is not told');
  });

  it('§6.1.1 max_turns 2 lets the same agent finish; calls of one parallel group are one step; a native cap is passed on and not counted by the engine', async () => {
    const twoSteps: TurnScript = {
      steps: [
        { kind: 'tool', name: 'Read', input: { file_path: 'a.txt' }, output: 'a', parallel_group_id: 'g1' },
        { kind: 'tool', name: 'Read', input: { file_path: 'b.txt' }, output: 'b', parallel_group_id: 'g1' },
        { kind: 'text', chunks: ['both read'] },
      ],
    };
    const h = await harness([twoSteps]);
    const from = await h.runTurn('read', { config_overrides: { max_turns: 2 } });
    assert.equal(h.ofType('session.turn.end', from)[0].payload.stop_reason, 'end_turn');
    assert.deepEqual(h.ofType('agent.error', from), []);

    const native = await harness([{ steps: [{ kind: 'tool', name: 'Read', input: { file_path: 'a.txt' }, output: 'a' }, { kind: 'text', chunks: ['x'] }] }], { max_turns: true });
    const f2 = await native.runTurn('read', { config_overrides: { max_turns: 1 } });
    assert.equal(native.adapter.prompts[0].max_turns, 1);
    assert.equal(native.ofType('session.turn.end', f2)[0].payload.stop_reason, 'end_turn');
  });
});
