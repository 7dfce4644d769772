// Client clauses that need an agent misbehaving or announcing less than ours do: the engine on a
// scripted adapter (no real agent CLI does these things on purpose). Each test cites its clause id.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltinAgent } from '../../../src/agents/builtin/agent';
import type { Frame, FrameOf } from '../../../src/protocol/frameTypes';
import { AgentSession } from '../../../src/session/engine';
import { until } from '../../support/settle';
import { claudeCapabilities } from '../../../src/agents/claudeCode/capabilities';
import { codexCapabilities } from '../../../src/agents/codex/capabilities';
import { validateText } from '../../../src/protocol/conformance';
import { EngineHarness } from '../../support/engineHarness';

function assertValid(h: EngineHarness): void {
  const r = validateText(h.frames.map((f) => JSON.stringify(f)).join('\n'));
  assert.deepEqual(r.problems.filter((p) => p.severity === 'error'), []);
}

describe('conformance: engine clauses on a scripted adapter', () => {
  it('§10.3.2-1 an adapter\'s early agent.subagent.ended is held until right before the result; frames after it stay inside the subagent', async () => {
    const h = await EngineHarness.start({
      features: { subagent: true, subagent_context: true },
      turns: [
        {
          steps: [
            {
              kind: 'subagent',
              id: 'task-1',
              steps: [
                { kind: 'emit', event: { type: 'agent.subagent.ended', payload: { parent_invocation_id: 'task-1', status: 'completed', duration_ms: 7 } } },
                { kind: 'text', chunks: ['late words'], metadata: { subagent_context: { parent_invocation_id: 'task-1', depth: 1 } } },
              ],
            },
          ],
        },
      ],
    });
    const from = await h.runTurn();
    const types = h.types(from).filter((t) => t !== 'agent.state.changed');
    const ended = types.indexOf('agent.subagent.ended');
    assert.equal(types.filter((t) => t === 'agent.subagent.ended').length, 1);
    assert.equal(types[ended + 1], 'tool.invoke.result', 'ended is right before the result');
    assert.ok(types.indexOf('agent.text.done') < ended, 'the late text lands before ended');
    const payload = h.ofType('agent.subagent.ended', from)[0].payload;
    assert.deepEqual([payload.status, payload.duration_ms], ['completed', 7], 'the adapter\'s own status and duration are kept');
    assertValid(h);
  });

  it('§17.3.1-2 a PERMISSION question an adapter sends without context.tool_name names the call it is about', async () => {
    const h = await EngineHarness.start({
      // The adapter's question carries a context without tool_name.
      turns: [{ steps: [{ kind: 'tool', name: 'Bash', id: 'b1', input: { command: 'ls' }, ask: { context: { affected_paths: ['x'] } } }] }],
    });
    const from = h.frames.length;
    h.prompt();
    await until(() => h.ofType('agent.interaction.request', from).length > 0, 'the question');
    const ask = h.ofType('agent.interaction.request', from)[0];
    assert.equal(ask.payload.context?.tool_name, 'Bash');
    h.control('control.interaction.response', { interaction_id: ask.payload.interaction_id, selected_value: 'allow' });
    await h.turnEnded();
    assertValid(h);
  });

  it('§12.2.1-2 §12.2.1-4 §16.3-2 an agent that did not announce file_reference gets each token as its display_path, escapes undone, and no file_references', async () => {
    const h = await EngineHarness.start({ features: { thinking_stream: true } });
    await h.runTurn('look at <@file:ref_0|src/a.ts> and \\<@file:fake|x> \\\\ done', {
      file_references: [{ ref_id: 'ref_0', path: 'src/a.ts', name: 'a.ts', workspace_relative_path: 'src/a.ts' }],
    });
    const got = h.adapter.prompts[0];
    assert.equal(got.text, 'look at src/a.ts and <@file:fake|x> \\ done');
    assert.deepEqual(got.file_references, []);
  });

  it('§12.2.1-4 an agent that announced file_reference gets the tokens and file_references as sent', async () => {
    const h = await EngineHarness.start({ features: { file_reference: true } });
    const text = 'look at <@file:ref_0|src/a.ts>';
    const refs = [{ ref_id: 'ref_0', path: 'src/a.ts', name: 'a.ts', workspace_relative_path: 'src/a.ts' }];
    await h.runTurn(text, { file_references: refs });
    assert.equal(h.adapter.prompts[0].text, text);
    assert.deepEqual(h.adapter.prompts[0].file_references, refs);
  });
});

describe('conformance: engine clauses with the built-in agent', () => {
  it('§5.4.1-2 §5.4.1-5 a tool whose status changes while the session is idle is republished without waiting for a prompt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rawp-recheck-'));
    const shell = join(dir, 'sh');
    const frames: Frame[] = [];
    const session = new AgentSession({
      adapter: new BuiltinAgent({ settings: { shell } }),
      out: (f) => void frames.push(f),
      workspacePath: dir,
      toolRecheckMs: 20,
    });
    try {
      await session.start();
      const bash = (f: Frame) => (f as FrameOf<'tool.catalog.publish'>).payload.tools.find((t) => t.name === 'Bash');
      const first = frames.find((f) => f.type === 'tool.catalog.publish');
      assert.equal(first && bash(first)?.status, 'unavailable', 'no shell yet');
      assert.ok(first && bash(first)?.status_description, '§5.4.1-5 the reason is given');
      writeFileSync(shell, '#!/bin/sh\nexec /bin/sh "$@"\n');
      chmodSync(shell, 0o755);
      await until(() => frames.filter((f) => f.type === 'tool.catalog.publish').length >= 2, 'the catalog to be republished', 20_000);
      const again = frames.filter((f) => f.type === 'tool.catalog.publish')[1];
      assert.equal(bash(again)?.status, 'available');
      assert.equal(frames.filter((f) => f.type === 'session.turn.start').length, 0, 'no prompt was needed');
    } finally {
      await session.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('conformance: what the adapters announce is what they do', () => {
  it('§12.2.1-4 Claude Code and Codex convert tokens themselves (@path mentions, workspace paths), so they announce file_reference: true', () => {
    assert.equal(claudeCapabilities(undefined).features.file_reference, true);
    assert.equal(claudeCapabilities(undefined, true).features.file_reference, true);
    assert.equal(codexCapabilities().features.file_reference, true);
  });
});
