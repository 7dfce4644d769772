// Which ACP `env_var` auth method the adapter may pick by itself (decision 440): only one whose
// every variable we put in the agent's environment; anything malformed is ignored, never thrown.
import { strict as assert } from 'node:assert';
import { envVarAuthMethod } from '../../../src/agents/acp/envAuth';

// codex-acp 0.16's authMethods, as its initialize answered.
const CODEX_ACP = [
  { id: 'chatgpt', name: 'Login with ChatGPT' },
  { type: 'env_var', id: 'codex-api-key', name: 'Use CODEX_API_KEY', vars: [{ name: 'CODEX_API_KEY' }] },
  { type: 'env_var', id: 'openai-api-key', name: 'Use OPENAI_API_KEY', vars: [{ name: 'OPENAI_API_KEY' }] },
];

describe('ACP env_var auth methods (decision 440)', () => {
  it('§4.4.1 picks the method whose variable is set, the first one first', () => {
    assert.deepEqual(envVarAuthMethod(CODEX_ACP, { CODEX_API_KEY: 'k' }), { id: 'codex-api-key', vars: ['CODEX_API_KEY'] });
    assert.deepEqual(envVarAuthMethod(CODEX_ACP, { OPENAI_API_KEY: 'k' }), { id: 'openai-api-key', vars: ['OPENAI_API_KEY'] });
    assert.equal(envVarAuthMethod(CODEX_ACP, { CODEX_API_KEY: 'k', OPENAI_API_KEY: 'k' })?.id, 'codex-api-key');
  });
  it('§4.4.1 no method without its variables (unset or empty), and none that needs a variable we lack', () => {
    assert.equal(envVarAuthMethod(CODEX_ACP, {}), undefined);
    assert.equal(envVarAuthMethod(CODEX_ACP, { CODEX_API_KEY: '' }), undefined);
    assert.equal(envVarAuthMethod([{ type: 'env_var', id: 'two', vars: [{ name: 'A' }, { name: 'B' }] }], { A: '1' }), undefined);
    assert.equal(envVarAuthMethod([{ type: 'env_var', id: 'two', vars: [{ name: 'A' }, { name: 'B' }] }], { A: '1', B: '2' })?.id, 'two');
  });
  it('§4.4.1 malformed authMethods are ignored', () => {
    for (const bad of [undefined, null, 'x', 3, {}, [null], [{ type: 'env_var' }], [{ type: 'env_var', id: 'x', vars: [] }], [{ type: 'env_var', id: 'x', vars: [{ name: 5 }] }], [{ type: 'agent', id: 'x', vars: [{ name: 'A' }] }]]) {
      assert.equal(envVarAuthMethod(bad, { A: '1', CODEX_API_KEY: 'k' }), undefined, JSON.stringify(bad));
    }
  });
});
