// The root hook that runs `rawp validate` over every stream a test recorded (test/support/streamCheck.ts).
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import { checkRegisteredStreams, expectBroken, registerStream } from '../../support/streamCheck';

const SESSION = '6f1c7a4e-2b1d-4c3e-9a8b-0d1e2f3a4b5c';

describe('conformance: every recorded stream is validated', () => {
  it('a recorded stream that breaks a MUST is reported with its code and clause; an opted-out test is not checked', () => {
    const broken = [buildFrame('session.turn.end', { turn_id: 'nope', stop_reason: 'end_turn' }, { session_id: SESSION })];
    const caps = buildFrame('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: [] }, { session_id: SESSION });
    registerStream('probe', () => [caps, buildFrame('control.prompt.request', { prompt_text: 'x' }, { session_id: SESSION }), ...broken]);
    const problem = checkRegisteredStreams();
    assert.match(problem ?? '', /probe: the recorded stream breaks a MUST/);
    assert.match(problem ?? '', /TURN_END_WITHOUT_START/);
    registerStream('probe', () => broken);
    expectBroken();
    assert.equal(checkRegisteredStreams(), undefined);
    assert.equal(checkRegisteredStreams(), undefined, 'nothing left registered');
  });
});
