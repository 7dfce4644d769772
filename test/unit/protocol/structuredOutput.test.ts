import { strict as assert } from 'node:assert';
import { releaseStructuredOutput, type Revalidate } from '../../../src/protocol/structuredOutput';
import { AjvSchemaValidator } from '../../../src/host/jsonSchemaValidator';
import { viewRevalidate } from '../../../src/protocol/viewRevalidate';

const schema = { type: 'object', properties: { count: { type: 'integer' }, name: { type: 'string' } }, required: ['count'] };
const against = (s: Record<string, unknown>): Revalidate => (data) => new AjvSchemaValidator().compile(s).validate(data);
const reasonOf = (r: ReturnType<typeof releaseStructuredOutput>): string => (r.released ? '' : r.reason);

describe('protocol: structured output released downstream only when valid (§15.4)', () => {
  it('§15.4 data the agent reports valid is released as it is', () => {
    const r = releaseStructuredOutput({ data: { count: 1 }, validation_status: 'valid' });
    assert.deepEqual(r, { released: true, data: { count: 1 }, revalidated: false });
  });

  it('§15.4 failed data without a schema to check it against is withheld, with the reason', () => {
    const r = releaseStructuredOutput({ data: { count: 'x' }, validation_status: 'failed' });
    assert.equal(r.released, false);
    assert.match(reasonOf(r), /validation failed .*no schema/);
  });

  it('§15.4 failed data is re-validated against the requested schema: released when it passes', () => {
    const r = releaseStructuredOutput({ data: { count: 3, name: 'n' }, validation_status: 'failed' }, against(schema));
    assert.deepEqual(r, { released: true, data: { count: 3, name: 'n' }, revalidated: true });
  });

  it('§15.4 failed data that does not pass the re-validation is withheld, naming the bad field and the type the schema asks for (integer, not "number")', () => {
    const wrong = releaseStructuredOutput({ data: { count: 'three' }, validation_status: 'failed' }, against(schema));
    assert.equal(reasonOf(wrong), 're-validation against the requested schema failed: /count: must be integer');
    const fraction = releaseStructuredOutput({ data: { count: 1.5 }, validation_status: 'failed' }, against(schema));
    assert.equal(reasonOf(fraction), 're-validation against the requested schema failed: /count: must be integer');
  });

  it('§15.4 partial data is held to the same rule as failed; a missing property is named as missing, at its own path (decision 621)', () => {
    assert.equal(releaseStructuredOutput({ data: {}, validation_status: 'partial' }).released, false);
    const missing = releaseStructuredOutput({ data: {}, validation_status: 'partial' }, against(schema));
    assert.equal(reasonOf(missing), "re-validation against the requested schema failed: /count: must have required property 'count'");
    assert.equal(releaseStructuredOutput({ data: { count: 0 }, validation_status: 'partial' }, against(schema)).released, true);
  });

  it('§15.4 more than three issues: the first three and how many more', () => {
    const wide = { type: 'object', properties: Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((k) => [k, { type: 'integer' }])) };
    const r = releaseStructuredOutput({ data: { a: 'x', b: 'x', c: 'x', d: 'x', e: 'x' }, validation_status: 'failed' }, against(wide));
    assert.match(reasonOf(r), /\/a: must be integer; \/b: must be integer; \/c: must be integer; and 2 more$/);
  });

  it('§15.4 a validator that throws withholds the data and says why', () => {
    const r = releaseStructuredOutput({ data: { count: 1 }, validation_status: 'failed' }, () => {
      throw new Error('schema broken');
    });
    assert.equal(reasonOf(r), 'the requested schema cannot be used to re-validate: schema broken');
  });
});

describe('protocol: the view re-validates in the host validator\'s words, and never runs a schema\'s regex (§15.4, decision 621)', () => {
  const city = { type: 'object', properties: { city: { type: 'string' }, population: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { type: 'string' } } }, required: ['city', 'population'], additionalProperties: false };
  const cases: Array<[string, Record<string, unknown>]> = [
    ['a string for an integer', { city: 'Seoul', population: 'many' }],
    ['a fraction for an integer', { city: 'Seoul', population: 1.5 }],
    ['a missing required property', { city: 'Seoul' }],
    ['an extra property', { city: 'Seoul', population: 1, extra: true }],
    ['below the minimum', { city: 'Seoul', population: -1 }],
    ['a wrong array item', { city: 'Seoul', population: 1, tags: ['a', 2] }],
  ];
  for (const [what, data] of cases) {
    it(`§15.4 ${what}: the view says what the host's validator says`, () => {
      const host = releaseStructuredOutput({ data, validation_status: 'failed' }, against(city));
      const view = releaseStructuredOutput({ data, validation_status: 'failed' }, viewRevalidate(city));
      assert.equal(view.released, false);
      assert.equal(reasonOf(view), reasonOf(host));
    });
  }

  it('§15.4 security: a schema with a pattern is not re-validated in the view (a backtracking regex over an agent\'s string would freeze it); the data stays withheld, at once', () => {
    const hostile = { type: 'object', properties: { id: { type: 'string', pattern: '^(a+)+$' } } };
    const t0 = performance.now();
    const r = releaseStructuredOutput({ data: { id: `${'a'.repeat(40)}!` }, validation_status: 'failed' }, viewRevalidate(hostile));
    assert.ok(performance.now() - t0 < 1000, 'no backtracking ran');
    assert.equal(r.released, false);
    assert.match(reasonOf(r), /regular-expression patterns are not run/);
    const nested = { type: 'object', properties: { list: { type: 'array', items: { type: 'object', patternProperties: { '^x': { type: 'string' } } } } } };
    assert.match(reasonOf(releaseStructuredOutput({ data: { list: [] }, validation_status: 'partial' }, viewRevalidate(nested))), /patterns are not run/);
  });

  it('§15.4 the view releases data that passes its re-validation', () => {
    assert.deepEqual(releaseStructuredOutput({ data: { city: 'Seoul', population: 3 }, validation_status: 'failed' }, viewRevalidate(city)), { released: true, data: { city: 'Seoul', population: 3 }, revalidated: true });
  });
});
