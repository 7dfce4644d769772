// Every frame the session engine and hub put on the wire for a busy scripted session must pass
// the protocol's own parser (§2.1, §2.2), with unique UUID v4 message ids and ordered timestamps.
import { strict as assert } from 'node:assert';
import { buildFrame } from '../../../src/protocol/build';
import { UUID_V4 } from '../../../src/protocol/common';
import { parseFrame } from '../../../src/protocol/parse';
import type { Frame } from '../../../src/protocol/frameTypes';
import { Hub } from '../../../src/session/hub';
import { SessionRegistry } from '../../../src/session/registry';
import { ManualTimers } from '../../support/manualTimers';
import { ALL_FEATURES, RecordingConnection } from '../../support/recordingConnection';
import { ScriptedAdapter } from '../../support/scriptedAdapter';
import { settle, until } from '../../support/settle';

describe('session: the emitted stream is valid RAWP-DPS (§2.1, §2.2)', () => {
  it('§2.1 every frame of a scripted session (turns, tools, asks, subagents, compaction, modes, cancel, delete) passes parseFrame', async () => {
    const timers = new ManualTimers();
    const hub = new Hub({ timers });
    const registry = new SessionRegistry(hub, { timers });
    const adapter = new ScriptedAdapter({
      features: { ...ALL_FEATURES, file_search_fuzzy: false },
      supportsCompact: true,
      turns: [
        {
          steps: [
            { kind: 'thinking', chunks: ['Let me', ' look'] },
            { kind: 'thinking', chunks: ['[redacted]'], redacted: true },
            { kind: 'text', chunks: ['I will ', 'edit.'], metadata: { content_role: 'plan' } },
            { kind: 'tool', name: 'Edit', input: { file_path: 'a.ts' }, ask: {}, output: '--- a\n+++ b', output_type: null },
            { kind: 'tool', name: 'Bash', input: { command: 'ls' }, stream: ['a\n', 'b\n'], output: 'a\nb\n' },
            { kind: 'tool', name: 'Nope', input: {}, skipCheck: true },
            { kind: 'subagent', agent_type: 'Explore', allowed_tools: ['Read', 'Grep'], steps: [{ kind: 'text', chunks: ['sub'] }, { kind: 'tool', name: 'Grep', input: {} }] },
            { kind: 'ask', request: { interaction_type: 'MULTI_SELECT', options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] } },
            { kind: 'error', payload: { error_code: 'W', message: 'careful', severity: 'warning', recoverable: true } },
          ],
          outcome: { usage: { input_tokens: 100, output_tokens: 50, thinking_tokens: 20, cost_usd: 0.01, context_capacity: 1000, context_used: 500 } },
        },
        { steps: [{ kind: 'text', chunks: ['cancel me'], done: false }, { kind: 'tool', name: 'Read', input: {}, untilAborted: true }] },
        { steps: [{ kind: 'tool', name: 'Bash', input: {}, untilAborted: true }] },
      ],
    });
    const s = await registry.create({ adapter, origin: 'remote', name: 'conformance' });
    const master = new RecordingConnection('m', 'remote', ALL_FEATURES);
    const other = new RecordingConnection('o', 'remote'); // announces its own capabilities
    hub.attach(s.session_id, master);
    hub.attach(s.session_id, other);
    const send = (frame: Frame) => hub.receive('m', JSON.stringify(frame));
    const make = <T extends Frame['type']>(type: T, payload: Extract<Frame, { type: T }>['payload']) => buildFrame(type, payload as never, { session_id: s.session_id }) as unknown as Frame;
    hub.receive('o', JSON.stringify(make('session.capabilities', { protocol_version: 'rawp-dps-1.0', supported_namespaces: ['control'], features: { tool_streaming: true } })));

    send(make('control.prompt.request', { prompt_text: 'edit a.ts' }));
    for (const type of ['PERMISSION', 'MULTI_SELECT'] as const) {
      await until(() => master.ofType('agent.interaction.request').some((f) => f.payload.interaction_type === type), `the ${type} ask`);
      const ask = master.ofType('agent.interaction.request').find((f) => f.payload.interaction_type === type)!;
      send(make('control.interaction.response', { interaction_id: ask.payload.interaction_id, selected_value: type === 'PERMISSION' ? 'allow' : ['a', 'b'] }));
    }
    await until(() => master.ofType('session.turn.end').length === 1 && !s.turnActive, 'turn 1');
    send(make('control.prompt.request', { prompt_text: 'too soon?' })); // fine: idle now
    await until(() => master.ofType('tool.invoke.request').filter((f) => f.payload.tool_name === 'Read').length === 1, 'turn 2 tool');
    send(make('control.prompt.request', { prompt_text: 'again' })); // PROMPT_IN_PROGRESS
    send(make('control.mode.switch', { mode: 'plan' })); // MODE_SWITCH_DURING_TURN
    send(make('control.prompt.cancel', { target_turn_id: s.currentTurnId as string }));
    await until(() => master.ofType('session.turn.end').length === 2 && !s.turnActive, 'turn 2');
    send(make('control.mode.switch', { mode: 'review' }));
    await until(() => s.mode === 'review', 'mode');
    send(make('control.session.compact', { instruction: 'keep it short' }));
    await until(() => master.ofType('session.compacted').length === 1, 'compaction');
    send(make('control.file.search', { query_id: 'q1', query: 'a' })); // not announced → session.error
    hub.receive('m', '{"v":1,"type":"x-acme.ping","message_id":"11111111-1111-4111-8111-111111111111","timestamp":"2026-01-01T00:00:00.000Z","session_id":"' + s.session_id + '","payload":{}}');
    registry.rename(s.session_id, 'renamed');
    send(make('control.prompt.request', { prompt_text: 'last' }));
    await until(() => master.ofType('tool.invoke.request').filter((f) => f.payload.tool_name === 'Bash').length === 2, 'turn 3 tool');
    await registry.delete(s.session_id, 'user_request', 'client');
    await settle();

    for (const conn of [master, other]) {
      assert.ok(conn.frames.length > 40, `${conn.id} saw a busy session (${conn.frames.length} frames)`);
      const ids = new Set<string>();
      let lastTime = '';
      for (const frame of conn.frames) {
        const outcome = parseFrame(JSON.stringify(frame));
        assert.equal(outcome.kind, 'accepted', `${frame.type}: ${outcome.kind === 'error' ? outcome.error.message : outcome.kind}`);
        assert.ok(outcome.kind === 'accepted' && !outcome.vendor);
        assert.match(frame.message_id, UUID_V4, `${frame.type} message_id`);
        assert.ok(!ids.has(frame.message_id), `duplicate message_id on ${frame.type}`);
        ids.add(frame.message_id);
        // Our own frames are stamped by one strictly increasing clock; relayed control.* frames
        // carry their sender's clock, which owes ours nothing.
        if (!frame.type.startsWith('control.')) {
          assert.ok(frame.timestamp > lastTime, `timestamps strictly increase (${frame.type})`);
          lastTime = frame.timestamp;
        }
        assert.equal(frame.session_id, s.session_id);
      }
      assert.equal(conn.types().at(-1), 'session.deleted');
    }
    // The master saw everything the session did; the plain peer none of what it did not announce.
    const seen = new Set(master.types());
    for (const t of ['agent.thinking.delta', 'agent.subagent.started', 'tool.invoke.stream', 'session.compacted', 'session.renamed', 'session.error', 'agent.interaction.request']) assert.ok(seen.has(t), t);
    assert.ok(!other.types().includes('agent.thinking.delta'));
    assert.ok(!other.types().includes('agent.subagent.started'));
    assert.ok(other.types().includes('tool.invoke.stream'));
    const errors = master.ofType('session.error').map((f) => f.payload.error_code);
    assert.deepEqual(errors, ['TOOL_NOT_IN_CATALOG', 'PROMPT_IN_PROGRESS', 'MODE_SWITCH_DURING_TURN', 'FEATURE_NOT_SUPPORTED']);
  });
});
