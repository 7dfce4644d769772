// §7.8 Finalization (close what is open on disconnect / app restart) and Unfinalization (undo it
// exactly when a complete session.history arrives).
import { strict as assert } from 'node:assert';
import {
  applyFrame,
  applyFrames,
  CONNECTION_LOST,
  createTranscript,
  finalize,
  parseFrame,
  type Frame,
  type InteractionBlock,
  type TextBlock,
  type ThinkingBlock,
  type ToolBlock,
  type Transcript,
} from '../../../src/protocol';
import { clientCapabilities, streamBuilder, TEST_SESSION, type StreamBuilder } from '../../fixtures/frames/streamBuilder';

const T0 = '44444444-4444-4444-8444-000000000000';
const tt = { turn_id: T0 };

/** The view without indexes, keys, revisions and counters: what a user sees. */
function view(t: Transcript): unknown {
  return JSON.parse(
    JSON.stringify(t, (k, v) => (['idx', 'key', 'rev', 'version', 'stats', 'options', 'parentOf'].includes(k) ? undefined : v)),
  );
}

/** A turn in flight: thinking and text streaming, a tool running, a subagent running, a question pending. */
function inFlight(b: StreamBuilder): Frame[] {
  const sub = { subagent_context: { parent_invocation_id: 'task', depth: 1 } };
  return [
    b.make('session.capabilities', clientCapabilities(true)),
    b.make('agent.state.changed', { previous_state: 'idle', current_state: 'thinking' }),
    b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, tt),
    b.make('agent.thinking.delta', { content_index: 0, text: 'hmm' }, tt),
    b.make('agent.text.delta', { content_index: 1, text: 'Part' }, tt),
    b.make('tool.invoke.request', { invocation_id: 'bash', tool_name: 'Bash', input: { command: 'sleep 9' } }, tt),
    b.make('tool.invoke.stream', { invocation_id: 'bash', tool_name: 'Bash', stream_type: 'stdout', chunk: 'z', sequence: 0 }, tt),
    b.make('tool.invoke.request', { invocation_id: 'task', tool_name: 'Task', input: {}, subagent: {} }, tt),
    b.make('agent.subagent.started', { parent_invocation_id: 'task', depth: 1 }, tt),
    b.make('tool.invoke.request', { invocation_id: 'inner', tool_name: 'Read', input: {} }, { ...tt, metadata: sub }),
    b.make('agent.interaction.request', { interaction_id: 'q', interaction_type: 'YN', question_text: 'go?', timeout_sec: 60 }, tt),
  ];
}

/** What the server sent while we were away: everything completes. */
function rest(b: StreamBuilder): Frame[] {
  const sub = { subagent_context: { parent_invocation_id: 'task', depth: 1 } };
  return [
    b.make('agent.thinking.delta', { content_index: 0, text: '…ok' }, tt),
    b.make('agent.thinking.done', { content_index: 0 }, tt),
    b.make('agent.text.delta', { content_index: 1, text: 'ial' }, tt),
    b.make('agent.text.done', { content_index: 1 }, tt),
    b.make('control.interaction.response', { interaction_id: 'q', selected_value: 'yes' }),
    b.make('tool.invoke.result', { invocation_id: 'bash', tool_name: 'Bash', status: 'success', output: 'z', output_type: 'text' }, tt),
    b.make('tool.invoke.result', { invocation_id: 'inner', tool_name: 'Read', status: 'success', output: 'x', output_type: 'file_content' }, { ...tt, metadata: sub }),
    b.make('agent.subagent.ended', { parent_invocation_id: 'task', status: 'completed' }, tt),
    b.make('tool.invoke.result', { invocation_id: 'task', tool_name: 'Task', status: 'success', output: 'found', output_type: 'agent_result' }, tt),
    b.make('session.turn.end', { turn_id: T0, stop_reason: 'end_turn' }, tt),
    b.make('agent.state.changed', { previous_state: 'thinking', current_state: 'idle' }),
  ];
}

function history(b: StreamBuilder, frames: Frame[], status: { truncated: boolean; lost_frame_count?: number } = { truncated: false }): Frame {
  const last = frames[frames.length - 1];
  return b.make('session.history', {
    frames: frames as unknown as Array<Record<string, unknown>>,
    buffer_status: { policy_applied: 'RING', ...status },
    last_sync_timestamp: last?.timestamp ?? '2026-03-16T10:00:00.000Z',
    last_message_id: last?.message_id ?? '',
  });
}

function tool(t: Transcript, id: string): ToolBlock {
  const found = t.idx.tools.get(id);
  assert.ok(found, `tool ${id}`);
  return found;
}

describe('transcript finalization (§7.8)', () => {
  it('§7.8.1 streaming text and thinking blocks are closed with what arrived', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, inFlight(b));
    finalize(t, { reason: 'connection_closed', clock: b.clock });
    const [thinking, text] = t.turns[0].blocks as [ThinkingBlock, TextBlock];
    assert.deepEqual([thinking.text, thinking.done, thinking.finalized], ['hmm', true, true]);
    assert.deepEqual([text.text, text.done, text.finalized], ['Part', true, true]);
  });

  it('§7.8.1-1 §7.8.1-2 §7.8.1-3 open tool calls get a synthesized cancelled "Connection lost" result: a real frame with metadata.synthetic true', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, inFlight(b));
    const frames = finalize(t, { reason: 'connection_error', clock: b.clock });
    assert.deepEqual(frames.map((f) => f.payload.invocation_id).sort(), ['bash', 'inner', 'task']);
    for (const f of frames) {
      assert.equal(f.metadata?.synthetic, true);
      assert.deepEqual([f.payload.status, f.payload.output, f.session_id, f.turn_id], ['cancelled', CONNECTION_LOST, TEST_SESSION, T0]);
      const reparsed = parseFrame(JSON.stringify(f));
      assert.equal(reparsed.kind, 'accepted', 'the synthesized frame is a valid frame');
    }
    const inner = frames.find((f) => f.payload.invocation_id === 'inner');
    assert.equal(inner?.metadata?.subagent_context?.parent_invocation_id, 'task', 'a subagent call keeps its context');
    for (const id of ['bash', 'inner', 'task']) {
      assert.deepEqual([tool(t, id).result?.status, tool(t, id).result?.synthetic, tool(t, id).result?.output], ['cancelled', true, CONNECTION_LOST]);
    }
  });

  it('§7.8.1 the open turn ends as "disconnected", marked synthetic; the running subagent is cancelled', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, inFlight(b));
    finalize(t, { reason: 'connection_closed', clock: b.clock });
    const turn = t.turns[0];
    assert.deepEqual([turn.open, turn.stopReason, turn.synthetic], [false, 'disconnected', true]);
    assert.deepEqual([t.subagents[0].status, t.subagents[0].synthetic], ['cancelled', true]);
  });

  it('§7.8.1 a pending interaction is discarded and a non-idle agent state returns to idle', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, inFlight(b));
    finalize(t, { reason: 'connection_closed', clock: b.clock });
    const q = t.idx.interactions.get('q') as InteractionBlock;
    assert.deepEqual([q.status, q.synthetic], ['discarded', true]);
    assert.deepEqual([t.agentState?.current, t.agentState?.synthetic, t.agentState?.previous], ['idle', true, 'thinking']);
    assert.equal(t.finalization?.reason, 'connection_closed');
  });

  it('§7.8.2-1 finalization on app restart (restored state, no connection) closes the same things', () => {
    const b = streamBuilder();
    const restored = createTranscript();
    // The restored state is rebuilt from the persisted frames, then finalized.
    applyFrames(restored, inFlight(b).map((f) => JSON.parse(JSON.stringify(f)) as Frame));
    const frames = finalize(restored, { reason: 'app_restart', clock: b.clock });
    assert.equal(frames.length, 3);
    assert.equal(restored.finalization?.reason, 'app_restart');
    assert.equal(restored.turns[0].stopReason, 'disconnected');
    assert.equal(restored.idx.openTools.size + restored.idx.openTurns.size + restored.idx.streaming.size + restored.idx.pendingInteractions.size, 0);
  });

  it('§7.8.2 after the §7.5.3 clean-up frames finalization has nothing to synthesize', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, [
      b.make('session.turn.start', { turn_id: T0, turn_index: 0 }, tt),
      b.make('tool.invoke.request', { invocation_id: 'a', tool_name: 'Bash', input: {} }, tt),
      b.make('tool.invoke.result', { invocation_id: 'a', tool_name: 'Bash', status: 'cancelled', output: '', output_type: 'text' }, tt),
      b.make('session.turn.end', { turn_id: T0, stop_reason: 'error' }, tt),
      b.make('session.deleted', { session_id: TEST_SESSION, reason: 'user_request', deleted_by: 'client' }),
    ]);
    const version = t.version;
    assert.deepEqual(finalize(t, { reason: 'connection_closed', clock: b.clock }), []);
    assert.equal(t.version, version);
    assert.deepEqual([t.turns[0].stopReason, t.turns[0].synthetic], ['error', false]);
  });

  it('§7.8.1 finalizing twice changes nothing the second time', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, inFlight(b));
    finalize(t, { reason: 'connection_closed', clock: b.clock });
    const before = JSON.stringify(view(t));
    const version = t.version;
    assert.deepEqual(finalize(t, { reason: 'connection_error', clock: b.clock }), []);
    assert.equal(JSON.stringify(view(t)), before);
    assert.equal(t.version, version);
  });

  it('§7.8.3-1 a complete session.history removes the synthetic blocks and replays: the result equals never having disconnected', () => {
    const live = streamBuilder();
    const first = inFlight(live);
    const second = rest(live);
    const reference = createTranscript();
    applyFrames(reference, [...first, ...second]);

    const t = createTranscript();
    applyFrames(t, first);
    const synthetic = finalize(t, { reason: 'connection_closed', clock: live.clock });
    assert.equal(synthetic.length, 3);
    applyFrame(t, history(live, second));

    assert.equal(t.finalization, undefined);
    const { historyIssues, ...seen } = view(t) as Record<string, unknown>;
    const { historyIssues: refIssues, ...expected } = view(reference) as Record<string, unknown>;
    assert.deepEqual(historyIssues, refIssues);
    assert.deepEqual(seen, expected);
    for (const id of ['bash', 'inner', 'task']) assert.equal(tool(t, id).result?.synthetic, false);
    assert.equal((t.turns[0].blocks[1] as TextBlock).text, 'Partial');
    assert.deepEqual([t.turns[0].stopReason, t.turns[0].synthetic], ['end_turn', false]);
  });

  it('§7.8.3 after unfinalization live frames resume: a history with nothing new reopens the turn for them', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, inFlight(b));
    finalize(t, { reason: 'connection_closed', clock: b.clock });
    applyFrame(t, history(b, []));
    assert.deepEqual([t.turns[0].open, t.turns[0].stopReason, t.agentState?.current], [true, undefined, 'thinking']);
    assert.equal((t.idx.interactions.get('q') as InteractionBlock).status, 'pending');
    assert.equal(t.subagents[0].status, 'running');
    applyFrames(t, rest(b));
    assert.deepEqual([t.turns[0].open, t.turns[0].stopReason], [false, 'end_turn']);
    assert.equal((t.turns[0].blocks[1] as TextBlock).text, 'Partial');
  });

  it('§7.8.3 no unfinalization when buffer_status.truncated is true: synthetic blocks stay, history is still shown', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, inFlight(b));
    finalize(t, { reason: 'connection_closed', clock: b.clock });
    const more = b.make('agent.text.delta', { content_index: 5, text: 'after the gap' }, tt);
    applyFrame(t, history(b, [more], { truncated: true, lost_frame_count: 7 }));
    assert.equal(t.finalization?.kept, 'history_truncated');
    assert.ok(t.historyTruncated);
    assert.deepEqual([t.turns[0].stopReason, t.turns[0].synthetic], ['disconnected', true]);
    assert.deepEqual([tool(t, 'bash').result?.synthetic, (t.idx.interactions.get('q') as InteractionBlock).status], [true, 'discarded']);
    assert.ok(t.turns[0].blocks.some((x) => x.kind === 'text' && x.text === 'after the gap'), 'frames of a truncated history are not lost');
    // A later complete history does not undo a finalization made permanent.
    applyFrame(t, history(b, []));
    assert.deepEqual([t.turns[0].stopReason, tool(t, 'bash').result?.synthetic], ['disconnected', true]);
  });

  it('§7.8.3 no unfinalization when the history contains session.deleted', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, inFlight(b));
    finalize(t, { reason: 'connection_closed', clock: b.clock });
    applyFrame(t, history(b, [b.make('session.deleted', { session_id: TEST_SESSION, reason: 'timeout', deleted_by: 'system' })]));
    assert.equal(t.finalization?.kept, 'session_deleted');
    assert.equal(t.deleted?.reason, 'timeout');
    assert.deepEqual([t.turns[0].stopReason, tool(t, 'task').result?.synthetic, t.subagents[0].status], ['disconnected', true, 'cancelled']);
  });

  it('§7.8.1 a real result that arrives while finalized replaces the synthetic one, and unfinalization keeps it', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, inFlight(b));
    finalize(t, { reason: 'connection_closed', clock: b.clock });
    applyFrame(t, b.make('tool.invoke.result', { invocation_id: 'bash', tool_name: 'Bash', status: 'success', output: 'real', output_type: 'text' }, tt));
    assert.deepEqual([tool(t, 'bash').result?.output, tool(t, 'bash').result?.synthetic], ['real', false]);
    applyFrame(t, history(b, []));
    assert.deepEqual([tool(t, 'bash').result?.output, tool(t, 'bash').result?.synthetic], ['real', false]);
    assert.equal(tool(t, 'task').result, undefined, 'the other synthetic results are gone');
  });

  it('§7.8.1 a second disconnect after unfinalization finalizes again', () => {
    const b = streamBuilder();
    const t = createTranscript();
    applyFrames(t, inFlight(b));
    finalize(t, { reason: 'connection_closed', clock: b.clock });
    applyFrame(t, history(b, []));
    const again = finalize(t, { reason: 'connection_error', clock: b.clock });
    assert.equal(again.length, 3);
    assert.equal(t.finalization?.reason, 'connection_error');
    assert.equal(t.turns[0].stopReason, 'disconnected');
  });
});
