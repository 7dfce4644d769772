// The built-in agent inside the real session engine: every frame on the wire is accepted by
// parseFrame, permission prompts are answered with control.interaction.response, and the §13.3
// order holds end to end.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltinAgent } from '../../../src/agents/builtin';
import { AgentSession } from '../../../src/session';
import { buildFrame, parseFrame, type Frame, type PayloadOf } from '../../../src/protocol';

describe('agents/builtin: inside the session engine', () => {
  let dir: string;
  let conf: string;
  let frames: Frame[];
  let session: AgentSession;
  let waiters: (() => void)[];

  const until = async (pred: () => boolean) => {
    while (!pred()) await new Promise<void>((r) => waiters.push(r));
  };
  const local = { connection_id: 'local-1', kind: 'local' as const };
  const send = <T extends 'control.prompt.request' | 'control.interaction.response' | 'control.mode.switch'>(type: T, payload: PayloadOf<T>) => {
    session.handle(buildFrame(type, payload, { session_id: session.session_id }) as Frame, local);
  };
  const turnEnds = () => frames.filter((f) => f.type === 'session.turn.end').length;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rawp-builtin-engine-'));
    conf = mkdtempSync(join(tmpdir(), 'rawp-builtin-engine-conf-'));
    writeFileSync(join(dir, 'a.ts'), 'export const answer = 41;\n');
    frames = [];
    waiters = [];
    session = new AgentSession({
      adapter: new BuiltinAgent({}),
      workspacePath: dir,
      out: (f) => {
        frames.push(f);
        for (const w of waiters.splice(0)) w();
      },
    });
    await session.start();
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(conf, { recursive: true, force: true });
  });

  it('§13.1 §13.3 a replace runs through the engine: permission answered by control.interaction.response, diff result, every frame valid', async () => {
    assert.deepEqual(frames.slice(0, 3).map((f) => f.type), ['session.capabilities', 'tool.catalog.publish', 'agent.commands.publish']);
    send('control.prompt.request', { prompt_text: 'replace `41` with `42` in a.ts' });
    await until(() => frames.some((f) => f.type === 'agent.interaction.request'));
    const ask = frames.find((f): f is Extract<Frame, { type: 'agent.interaction.request' }> => f.type === 'agent.interaction.request')!;
    assert.equal(ask.payload.interaction_type, 'PERMISSION');
    assert.equal(ask.payload.context?.tool_name, 'Edit');
    send('control.interaction.response', { interaction_id: ask.payload.interaction_id, selected_value: 'allow_once' });
    await until(() => turnEnds() === 1);
    assert.equal(readFileSync(join(dir, 'a.ts'), 'utf8'), 'export const answer = 42;\n');
    for (const f of frames) assert.equal(parseFrame(JSON.stringify(f)).kind, 'accepted', `${f.type} accepted`);
    const turnTypes = frames
      .slice(frames.findIndex((f) => f.type === 'session.turn.start'))
      .map((f) => f.type)
      .filter((t) => t !== 'agent.state.changed');
    const iEdit = turnTypes.lastIndexOf('tool.invoke.request');
    assert.deepEqual(turnTypes.slice(iEdit, iEdit + 3), ['tool.invoke.request', 'agent.interaction.request', 'tool.invoke.result']);
    const results = frames.filter((f): f is Extract<Frame, { type: 'tool.invoke.result' }> => f.type === 'tool.invoke.result');
    // The built-in agent reads a file before its first edit (decision 372): no refused Edit first.
    assert.deepEqual(results.map((r) => [r.payload.tool_name, r.payload.status]), [
      ['Read', 'success'],
      ['Edit', 'success'],
    ]);
    assert.equal(results[1].payload.output_type, 'diff');
    const end = frames.find((f): f is Extract<Frame, { type: 'session.turn.end' }> => f.type === 'session.turn.end')!;
    assert.equal(end.payload.stop_reason, 'end_turn');
    assert.equal(end.payload.tool_invocation_count, 2);
    const usage = frames.filter((f): f is Extract<Frame, { type: 'session.usage' }> => f.type === 'session.usage').at(-1)!;
    assert.deepEqual([usage.payload.token_usage.input_tokens, usage.payload.token_usage.output_tokens], [0, 0]);
  });

  it('§6.3.2 after control.mode.switch to plan, the engine and the runner both keep writes out, with TOOL_NOT_ALLOWED_IN_MODE', async () => {
    send('control.mode.switch', { mode: 'plan' });
    await until(() => frames.some((f) => f.type === 'agent.state.changed' && f.payload.reason === 'mode_switch'));
    send('control.prompt.request', { prompt_text: 'write new.txt: hello' });
    await until(() => turnEnds() === 1);
    const result = frames.find((f): f is Extract<Frame, { type: 'tool.invoke.result' }> => f.type === 'tool.invoke.result')!;
    assert.equal(result.payload.status, 'error');
    assert.equal(result.payload.output, 'Tool not allowed in current mode');
    assert.equal(result.payload.error_code, 'TOOL_NOT_ALLOWED_IN_MODE', 'the mode is named as the cause, as for ACP agents (it read TOOL_NOT_ALLOWED, said in Korean as "not allowed for this subagent")');
    assert.equal(frames.filter((f) => f.type === 'agent.interaction.request').length, 0);
    const text = frames.filter((f): f is Extract<Frame, { type: 'agent.text.done' }> => f.type === 'agent.text.done').at(-1)!;
    assert.match(text.payload.full_text ?? '', /Tool not allowed in current mode/);
  });

  it('§10 a delegated subagent in the engine: started/ended around inner frames with subagent_context', async () => {
    send('control.prompt.request', { prompt_text: 'delegate: find answer' });
    await until(() => turnEnds() === 1);
    const types = frames.map((f) => f.type);
    const iStart = types.indexOf('agent.subagent.started');
    const iEnd = types.indexOf('agent.subagent.ended');
    assert.ok(iStart > 0 && iEnd > iStart);
    assert.equal(types[iStart - 1], 'tool.invoke.request');
    assert.equal(types[iEnd + 1], 'tool.invoke.result');
    assert.equal(frames.filter((f) => f.type === 'agent.subagent.started').length, 1, 'one started frame, not two');
    const inner = frames.slice(iStart + 1, iEnd);
    assert.ok(inner.some((f) => f.type === 'tool.invoke.request'));
    assert.ok(inner.filter((f) => f.type !== 'session.usage').every((f) => f.metadata?.subagent_context?.depth === 1));
    for (const f of frames) assert.equal(parseFrame(JSON.stringify(f)).kind, 'accepted');
  });
});
