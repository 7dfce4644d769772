import { strict as assert } from 'node:assert';
import { EngineHarness } from '../../support/engineHarness';
import { DEFAULT_TOOLS } from '../../support/scriptedAdapter';

describe('session/engine: the tool whitelist (§15.1, §5.4.1)', () => {
  it('§15.1 a call to a tool that is not in the published catalog is refused (error result + session.error)', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'tool', name: 'Teleport', input: {}, skipCheck: true, output: 'should not appear' }] }] });
    const from = await h.runTurn();
    const result = h.ofType('tool.invoke.result', from);
    assert.equal(result.length, 1);
    assert.equal(result[0].payload.status, 'error');
    assert.match(String(result[0].payload.output), /not in the published tool catalog/);
    assert.deepEqual(h.errors(from), ['TOOL_NOT_IN_CATALOG']);
    assert.equal(h.ofType('session.error', from)[0].payload.fatal, false);
  });

  it('§15.1 checkTool tells the adapter the same before it runs anything', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'tool', name: 'Teleport', input: {} }] }] });
    await h.runTurn();
    assert.equal(h.adapter.checks[0].verdict.allowed, false);
  });

  it('§15.1 the whitelist follows the LAST published catalog: a re-publish adds and removes tools', async () => {
    const h = await EngineHarness.start({
      turns: [
        {
          steps: [
            { kind: 'emit', event: { type: 'tool.catalog.publish', payload: { tools: [{ name: 'Teleport', description: 'new' }] } } },
            { kind: 'tool', name: 'Teleport', input: {}, output: 'beamed' },
            { kind: 'tool', name: 'Read', input: {}, skipCheck: true, output: 'gone' },
          ],
        },
      ],
    });
    const from = await h.runTurn();
    assert.equal(h.ofType('tool.catalog.publish', from).length, 1, 're-publish goes out (§5.4.1)');
    assert.deepEqual(h.ofType('tool.invoke.result', from).map((f) => [f.payload.tool_name, f.payload.status]), [['Teleport', 'success'], ['Read', 'error']]);
    assert.deepEqual(h.session.catalog().tools.map((t) => t.name), ['Teleport']);
  });

  it('§5.4.1 a tool with status "unavailable" is blocked with a session.error', async () => {
    const tools = [...DEFAULT_TOOLS.filter((t) => t.name !== 'Bash'), { name: 'Bash', description: 'sh', category: 'shell' as const, status: 'unavailable' as const, status_description: 'no /bin/sh' }];
    const h = await EngineHarness.start({ tools, turns: [{ steps: [{ kind: 'tool', name: 'Bash', input: {}, skipCheck: true }] }] });
    const from = await h.runTurn();
    assert.equal(h.ofType('tool.invoke.result', from)[0].payload.status, 'error');
    assert.match(String(h.ofType('tool.invoke.result', from)[0].payload.output), /unavailable: no \/bin\/sh/);
    assert.deepEqual(h.errors(from), ['TOOL_UNAVAILABLE']);
  });

  it('§5.4.1 a tool with a fatal diagnostic is blocked with a session.error; an error diagnostic does not block', async () => {
    const h = await EngineHarness.start({
      diagnostics: [
        { severity: 'fatal', tool_name: 'Bash', code: 'DEPENDENCY_MISSING', message: 'no shell' },
        { severity: 'error', tool_name: 'Read', code: 'VERSION_MISMATCH', message: 'old' },
      ],
      turns: [{ steps: [{ kind: 'tool', name: 'Bash', input: {}, skipCheck: true }, { kind: 'tool', name: 'Read', input: {}, output: 'ok' }] }],
    });
    const from = await h.runTurn();
    assert.deepEqual(h.ofType('tool.invoke.result', from).map((f) => [f.payload.tool_name, f.payload.status]), [['Bash', 'error'], ['Read', 'success']]);
    assert.deepEqual(h.errors(from), ['TOOL_FATAL_DIAGNOSTIC']);
  });

  it('§6.1.1 config_overrides.allowed_tools / denied_tools limit the tools of that prompt only', async () => {
    const h = await EngineHarness.start({
      turns: [{ steps: [{ kind: 'tool', name: 'Bash', input: {} }, { kind: 'tool', name: 'Read', input: {} }] }, { steps: [{ kind: 'tool', name: 'Bash', input: {} }] }],
    });
    const first = await h.runTurn('limited', { config_overrides: { denied_tools: ['Bash'] } });
    assert.deepEqual(h.ofType('tool.invoke.result', first).map((f) => f.payload.status), ['error', 'success']);
    assert.deepEqual(h.adapter.prompts[0].denied_tools, ['Bash']);
    const second = await h.runTurn('free');
    assert.deepEqual(h.ofType('tool.invoke.result', second).map((f) => f.payload.status), ['success']);
  });

  it('§5.2.1 a duplicate invocation_id is not opened twice', async () => {
    const h = await EngineHarness.start({ turns: [{ steps: [{ kind: 'tool', name: 'Read', id: 'same', input: {} }, { kind: 'tool', name: 'Read', id: 'same', input: {} }] }] });
    const from = await h.runTurn();
    assert.equal(h.ofType('tool.invoke.request', from).length, 1);
    assert.equal(h.ofType('tool.invoke.result', from).length, 1);
  });

  it('§13.4 parallel calls keep their parallel_group_id and each gets its own result', async () => {
    const h = await EngineHarness.start({
      turns: [{ steps: [{ kind: 'tool', name: 'Read', input: { p: 1 }, parallel_group_id: 'pg1' }, { kind: 'tool', name: 'Grep', input: { p: 2 }, parallel_group_id: 'pg1' }] }],
    });
    const from = await h.runTurn();
    assert.deepEqual(h.ofType('tool.invoke.request', from).map((f) => f.payload.parallel_group_id), ['pg1', 'pg1']);
    assert.equal(h.ofType('tool.invoke.result', from).length, 2);
  });
});
