// What `rawp run` prints for an agent without a model (decision 697): the main agent's successful
// tool results, as a terminal reads them, bounded in size.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltinAgent } from '../../../src/agents/builtin';
import { ToolOutputs } from '../../../src/host/toolOutputs';
import { FakeHost } from '../../support/fakeHost';

const result = (output: unknown, extra: Record<string, unknown> = {}) => ({ type: 'tool.invoke.result', payload: { invocation_id: 'i', tool_name: 'T', status: 'success', output, ...extra } });

describe('host: the tool outputs a headless run prints for an agent without a model (decision 697)', () => {
  it('text as it is, a diff as its unified diff, a list one entry a line, anything else as JSON; failures, subagents\' results and other frames left out', () => {
    const t = new ToolOutputs();
    t.observe(result('     1\thello\n'));
    t.observe(result({ file_path: 'a', unified_diff: '--- a/a\n+++ b/a\n' }, { output_type: 'diff' }));
    t.observe(result(['a.txt', 'b.txt']));
    t.observe(result({ todos: 1 }));
    t.observe(result('failed', { status: 'error' }));
    t.observe({ ...result('inner'), metadata: { subagent_context: { parent_invocation_id: 'p', depth: 1 } } } as never);
    t.observe({ type: 'agent.text.delta', payload: { text: 'words' } });
    assert.deepEqual(t.list(), { outputs: ['     1\thello\n', '--- a/a\n+++ b/a\n', 'a.txt\nb.txt', '{\n  "todos": 1\n}'], cut: false });
  });

  it('decision 702: a one-line Read right before an edit of the same file is the edit\'s first step, not an answer; any other read stays', () => {
    const t = new ToolOutputs();
    const req = (id: string, tool_name: string, input: Record<string, unknown>) => ({ type: 'tool.invoke.request', payload: { invocation_id: id, tool_name, input } });
    const res = (id: string, output: unknown) => ({ type: 'tool.invoke.result', payload: { invocation_id: id, tool_name: 'T', status: 'success', output } });
    // Read one line of a.txt, then edit a.txt: only the diff.
    t.observe(req('r1', 'Read', { file_path: 'a.txt', limit: 1 }));
    t.observe(res('r1', '     1\thello'));
    t.observe(req('e1', 'Edit', { file_path: 'a.txt' }));
    t.observe(res('e1', 'diff of a'));
    // A whole read before an edit stays (it was asked for); so does a one-line read of another file.
    t.observe(req('r2', 'Read', { file_path: 'b.txt' }));
    t.observe(res('r2', 'all of b'));
    t.observe(req('e2', 'Edit', { file_path: 'b.txt' }));
    t.observe(req('r3', 'Read', { file_path: 'c.txt', limit: 1 }));
    t.observe(res('r3', 'line of c'));
    t.observe(req('w3', 'Write', { file_path: 'd.txt' }));
    assert.deepEqual(t.list().outputs, ['diff of a', 'all of b', 'line of c']);
  });

  it('at most 4 MiB of characters in all: the rest is left out and said', () => {
    const t = new ToolOutputs();
    t.observe(result('x'.repeat(3 * 1024 * 1024)));
    t.observe(result('y'.repeat(3 * 1024 * 1024)));
    t.observe(result('z'));
    const { outputs, cut } = t.list();
    assert.equal(cut, true);
    assert.equal(outputs.reduce((n, o) => n + o.length, 0), 4 * 1024 * 1024);
    assert.ok(!outputs.join('').includes('z'));
  });

  it('decision 705: a listing prints one line a name; a name with a line break (or another control character) is JSON-quoted as Grep shows it, so it cannot print as two entries (real Glob and LS on a real folder)', async function () {
    this.timeout(30_000);
    const dir = mkdtempSync(join(tmpdir(), 'rawp-tool-outputs-'));
    const host = new FakeHost(dir);
    const agent = new BuiltinAgent({ settings: { killGraceMs: 200 } });
    try {
      writeFileSync(join(dir, 'nl\nfake.txt:1:needle'), 'needle\n');
      writeFileSync(join(dir, 'tab\there.txt'), 'x\n');
      writeFileSync(join(dir, 'plain.txt'), 'x\n');
      mkdirSync(join(dir, 'd\ne'));
      await agent.start(host);
      const t = new ToolOutputs();
      for (const text of ['files *.txt*', 'ls']) {
        await agent.prompt({ turn_id: globalThis.crypto.randomUUID(), turn_index: 0, text, input_type: 'text', mode: 'default', file_references: [], context_files: [] }, new AbortController().signal);
      }
      for (const e of host.events) t.observe(e);
      const [glob, ls] = t.list().outputs;
      assert.deepEqual(glob.split('\n').sort(), ['"nl\\nfake.txt:1:needle"', '"tab\\there.txt"', 'plain.txt'], glob);
      assert.deepEqual(ls.split('\n').sort(), ['"d\\ne/"', '"nl\\nfake.txt:1:needle"', '"tab\\there.txt"', 'plain.txt'], ls);
    } finally {
      host.assertAllFramesAccepted();
      await agent.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
