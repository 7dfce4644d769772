import { strict as assert } from 'node:assert';
import { releaseStructuredOutput } from '../../../src/protocol/structuredOutput';

const schema = { type: 'object', properties: { count: { type: 'integer' }, name: { type: 'string' } }, required: ['count'] };

describe('protocol: structured output released downstream only when valid (§15.4)', () => {
  it('§15.4 data the agent reports valid is released as it is', () => {
    const r = releaseStructuredOutput({ data: { count: 1 }, validation_status: 'valid' });
    assert.deepEqual(r, { released: true, data: { count: 1 }, revalidated: false });
  });

  it('§15.4 failed data without a schema to check it against is withheld, with the reason', () => {
    const r = releaseStructuredOutput({ data: { count: 'x' }, validation_status: 'failed' });
    assert.equal(r.released, false);
    assert.match(r.released ? '' : r.reason, /validation failed .*no schema/);
  });

  it('§15.4 failed data is re-validated against the requested schema: released when it passes', () => {
    const r = releaseStructuredOutput({ data: { count: 3, name: 'n' }, validation_status: 'failed' }, schema);
    assert.deepEqual(r, { released: true, data: { count: 3, name: 'n' }, revalidated: true });
  });

  it('§15.4 failed data that does not pass the re-validation is withheld, naming the bad field', () => {
    const r = releaseStructuredOutput({ data: { count: 'three' }, validation_status: 'failed' }, schema);
    assert.equal(r.released, false);
    assert.match(r.released ? '' : r.reason, /count/);
  });

  it('§15.4 partial data is held to the same rule as failed', () => {
    assert.equal(releaseStructuredOutput({ data: {}, validation_status: 'partial' }).released, false);
    assert.equal(releaseStructuredOutput({ data: {}, validation_status: 'partial' }, schema).released, false);
    assert.equal(releaseStructuredOutput({ data: { count: 0 }, validation_status: 'partial' }, schema).released, true);
  });
});
