import { strict as assert } from 'node:assert';
import { ToolCatalog, builtinProbe } from '../../../src/tools/catalog';
import { ALL_TOOLS } from '../../../src/tools/registry';
import { payloads } from '../../../src/protocol';
import { makeEnv } from './_env';
import { FakeHost } from '../../support/fakeHost';

describe('tools: catalog (§5.4.1)', () => {
  it('§5.4.1 publishes every tool with category, output_type, requires_approval, status and a JSON Schema input', () => {
    const payload = new ToolCatalog(ALL_TOOLS, builtinProbe({ shell: '/bin/sh' }, { hasSubagents: true })).build();
    assert.ok(payloads.ToolCatalogPublish.safeParse(payload).success);
    const by = Object.fromEntries(payload.tools.map((t) => [t.name, t]));
    assert.deepEqual(Object.keys(by), ['Read', 'Write', 'Edit', 'MultiEdit', 'Glob', 'Grep', 'LS', 'Bash', 'TodoRead', 'TodoWrite', 'Task']);
    assert.deepEqual(
      payload.tools.map((t) => [t.name, t.category, t.output_type ?? '(by §5.3.3 category rule)', t.requires_approval]),
      [
        ['Read', 'filesystem', 'file_content', false],
        ['Write', 'filesystem', '(by §5.3.3 category rule)', true],
        ['Edit', 'filesystem', '(by §5.3.3 category rule)', true],
        ['MultiEdit', 'filesystem', '(by §5.3.3 category rule)', true],
        ['Glob', 'filesystem', 'file_list', false],
        ['Grep', 'search', '(by §5.3.3 category rule)', false],
        ['LS', 'filesystem', 'file_list', false],
        ['Bash', 'shell', 'text', true],
        ['TodoRead', 'task_management', 'structured', false],
        ['TodoWrite', 'task_management', 'structured', false],
        ['Task', 'agent', 'agent_result', false],
      ],
    );
    assert.ok(payload.tools.every((t) => t.status === 'available'));
    assert.equal(payload.diagnostics, undefined);
    const edit = by.Edit.input_schema as { properties: Record<string, unknown>; required: string[] };
    assert.deepEqual(Object.keys(edit.properties), ['file_path', 'old_string', 'new_string', 'replace_all']);
    assert.deepEqual(edit.required, ['file_path', 'old_string', 'new_string']);
    const read = by.Read.input_schema as { properties: Record<string, unknown> };
    assert.deepEqual(Object.keys(read.properties), ['file_path', 'offset', 'limit']);
  });

  it('§5.4.1 Bash is unavailable with a reason and a diagnostic when there is no shell, and the catalog is republished when that changes', () => {
    let shell = '/nonexistent/sh';
    const catalog = new ToolCatalog(ALL_TOOLS, (t) => builtinProbe({ shell }, { hasSubagents: true })(t));
    const host = new FakeHost('/tmp');
    assert.equal(catalog.refresh(host), true, 'first publish');
    const first = host.ofType('tool.catalog.publish')[0].payload;
    const bash = first.tools.find((t) => t.name === 'Bash')!;
    assert.equal(bash.status, 'unavailable');
    assert.match(bash.status_description ?? '', /no shell/);
    assert.deepEqual(first.diagnostics?.map((d) => [d.tool_name, d.code, d.severity]), [['Bash', 'TOOL_UNAVAILABLE', 'warning']]);
    assert.equal(catalog.refresh(host), false, 'nothing changed: no republish');
    shell = '/bin/sh';
    assert.equal(catalog.refresh(host), true);
    const second = host.ofType('tool.catalog.publish');
    assert.equal(second.length, 2);
    assert.equal(second[1].payload.tools.find((t) => t.name === 'Bash')!.status, 'available');
    host.assertAllFramesAccepted();
  });

  it('§5.4.1 an unavailable tool is refused by the runner with its reason', async () => {
    const env = makeEnv({ settings: { shell: '/nonexistent/sh' } });
    try {
      const r = await env.call('Bash', { command: 'echo hi' });
      assert.equal(r.error_code, 'TOOL_UNAVAILABLE');
      assert.match(String(r.output), /no shell/);
      const task = await env.call('Task', { description: 'x', prompt: 'y' });
      assert.equal(task.error_code, 'TOOL_UNAVAILABLE', 'no subagent runner, no Task');
    } finally {
      env.cleanup();
    }
  });
});
