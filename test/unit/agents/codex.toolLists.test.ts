// Decision 614: a turn's tool lists kept by Codex itself, since its tools run before the engine
// sees them. Each denied tool maps to the setting that takes it away; nothing else changes.
import { strict as assert } from 'node:assert';
import { codexArgs, toolListConfig } from '../../../src/agents/codex/args';

const sandbox = (args: string[]) => args[args.indexOf('-c') + 1];

describe('Codex: --allowed-tools / --denied-tools at the source (decision 614)', () => {
  it('§5.4.1 a denied Bash takes the shell tools away; a denied apply_patch makes the sandbox read-only; a denied WebSearch turns search off', () => {
    assert.deepEqual(toolListConfig({ denied_tools: ['Bash'] }), { config: ['-c', 'features.shell_tool=false', '-c', 'features.unified_exec=false'], readOnly: false });
    assert.deepEqual(toolListConfig({ denied_tools: ['apply_patch'] }), { config: [], readOnly: true });
    assert.deepEqual(toolListConfig({ denied_tools: ['WebSearch'] }), { config: ['-c', 'tools.web_search=false'], readOnly: false });
    assert.deepEqual(toolListConfig({ allowed_tools: ['Bash', 'apply_patch', 'WebSearch'] }), { config: [], readOnly: false });
    assert.deepEqual(toolListConfig({ allowed_tools: ['TodoWrite'] }).readOnly, true, 'an allow list without apply_patch denies it');
    assert.deepEqual(toolListConfig({}), { config: [], readOnly: false });
    assert.deepEqual(toolListConfig(undefined), { config: [], readOnly: false });
  });

  it('§5.4.1 the lists reach the command line; with none it is as before', () => {
    assert.equal(sandbox(codexArgs({ mode: 'default', resumeArgs: [] })), 'sandbox_mode="workspace-write"');
    assert.equal(sandbox(codexArgs({ mode: 'default', resumeArgs: [], tools: { denied_tools: ['apply_patch'] } })), 'sandbox_mode="read-only"');
    const args = codexArgs({ mode: 'default', resumeArgs: [], tools: { denied_tools: ['Bash'] } });
    assert.ok(args.includes('features.shell_tool=false'));
    assert.deepEqual(codexArgs({ mode: 'default', resumeArgs: [], tools: {} }), codexArgs({ mode: 'default', resumeArgs: [] }));
  });
});
