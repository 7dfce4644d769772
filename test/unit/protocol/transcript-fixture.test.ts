// test/fixtures/frames/all-types.jsonl: a valid session stream with all 33 frame types, and the
// view the reducer builds from it. Other tests reuse the file; this one keeps it honest.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import {
  applyFrames,
  createTranscript,
  FRAME_TYPE_NAMES,
  parseFrame,
  type Frame,
  type ParallelGroupBlock,
  type TextBlock,
  type ThinkingBlock,
  type ToolBlock,
} from '../../../src/protocol';
import { ALL_TYPES_PATH, allTypesJsonl, ID, SESSION_NAME } from '../../fixtures/frames/make-all-types';

function loadFrames(): Frame[] {
  return readFileSync(ALL_TYPES_PATH, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line, i) => {
      const outcome = parseFrame(line);
      assert.equal(outcome.kind, 'accepted', `line ${i + 1}: ${JSON.stringify(outcome)}`);
      assert.ok(outcome.kind === 'accepted' && !outcome.vendor);
      return outcome.frame as Frame;
    });
}

describe('fixture all-types.jsonl', () => {
  it('is current: regenerating it gives the same bytes (npx tsx test/fixtures/frames/make-all-types.ts)', () => {
    assert.equal(readFileSync(ALL_TYPES_PATH, 'utf8'), allTypesJsonl());
  });

  it('§2.1 §13 every line is a valid frame of one session and all 33 frame types appear', () => {
    const frames = loadFrames();
    assert.equal(FRAME_TYPE_NAMES.length, 33);
    assert.deepEqual(
      FRAME_TYPE_NAMES.filter((type) => !frames.some((f) => f.type === type)),
      [],
    );
    assert.ok(frames.every((f) => f.session_id === ID.session));
    assert.equal(new Set(frames.map((f) => f.message_id)).size, frames.length, 'message ids are unique');
    const times = frames.map((f) => Date.parse(f.timestamp));
    assert.ok(times.every((x, i) => i === 0 || x > times[i - 1]), 'timestamps increase');
  });

  it('§13.1 the stream opens with capabilities both ways, then catalog, commands and idle', () => {
    const types = loadFrames()
      .slice(0, 5)
      .map((f) => f.type);
    assert.deepEqual(types, ['session.capabilities', 'session.capabilities', 'tool.catalog.publish', 'agent.commands.publish', 'agent.state.changed']);
  });

  it('§13 the reducer builds the expected view: turns, plan, thinking, todos, parallel tools, subagent, interactions', () => {
    const t = createTranscript({ sessionId: ID.session });
    applyFrames(t, loadFrames());

    assert.deepEqual(
      t.turns.map((x) => [x.turnId, x.index, x.mode, x.stopReason, x.synthetic]),
      [
        [ID.turn0, 0, 'default', 'end_turn', false],
        [ID.turn1, 1, 'plan', 'end_turn', false],
        [ID.turn2, 2, 'default', 'cancelled', false],
        [ID.turn3, 3, 'default', 'end_turn', false],
      ],
    );
    assert.deepEqual(t.timeline.filter((x) => x.kind === 'prompt').length, 4);

    const turn0 = t.turns[0];
    const thinking = turn0.blocks[0] as ThinkingBlock;
    assert.deepEqual([thinking.kind, thinking.redacted], ['thinking', true]);
    assert.ok(!JSON.stringify(t, (k, v) => (k === 'idx' ? undefined : v)).includes('SECRET-REASONING'), '§15.3 no raw redacted text');

    const group = turn0.blocks.find((x) => x.kind === 'parallel') as ParallelGroupBlock;
    assert.deepEqual(group.invocations.map((x) => x.invocationId), [ID.bashStatus, ID.bashDiff]);
    assert.equal(group.invocations[1].chunks.length, 2);

    const task = turn0.blocks.find((x) => x.kind === 'tool' && x.invocationId === ID.task) as ToolBlock;
    const run = task.subagent!;
    assert.deepEqual([run.agentType, run.depth, run.status, run.started], ['Explore', 1, 'completed', true]);
    assert.deepEqual(run.blocks.map((x) => x.kind), ['text', 'tool']);
    assert.equal(task.result?.outputType, 'agent_result');
    assert.equal(t.usage.subagentCumulative.input_tokens, 300, '§10.5 subagent usage kept apart');

    assert.deepEqual(t.todos?.items.map((x) => x.status), ['completed', 'in_progress', 'pending']);
    assert.equal(t.idx.interactions.get(ID.permission)?.status, 'answered');
    assert.equal(t.idx.interactions.get(ID.planApproval)?.status, 'timed_out');

    const plan = t.plans[0];
    assert.deepEqual([plan.kind, plan.planId, plan.done], ['plan', ID.plan, true]);
    assert.deepEqual(t.turns[1].structuredOutput?.data, { steps: 2, approved: false });

    assert.equal((t.turns[2].blocks[0] as TextBlock).cancelled, true);
    assert.equal(t.turns[2].cancelRequested, true);
    assert.equal((t.turns[3].blocks[0] as TextBlock).text, 'Changed: src/auth.ts rejects invalid tokens.', '§13.7 history completes turn 3');

    assert.equal(t.compactions.length, 1);
    assert.equal(t.name, SESSION_NAME);
    assert.equal(t.deleted?.reason, 'user_request');
    assert.deepEqual(t.errorCounts, { fatal: 0, error: 1, warning: 1 });
    assert.deepEqual(t.toolCatalog?.tools.map((x) => x.name), ['Read'], 'the catalog re-announced after reattach is the latest');
    assert.equal(t.agentState?.current, 'idle');
    assert.equal(t.historyTruncated, undefined);
    assert.deepEqual(t.historyIssues, []);
    assert.deepEqual([t.idx.openTools.size, t.idx.openTurns.size, t.idx.pendingInteractions.size, t.idx.streaming.size], [0, 0, 0, 0]);
    // Turn totals: turn0 2400, turn1 2600, turn2 1000, turn3 1100 (each turn's latest report).
    assert.equal(t.usage.cumulative.input_tokens, 2400 + 2600 + 1000 + 1100);
  });

  it('§2.1 applying the whole stream a second time changes nothing', () => {
    const frames = loadFrames();
    const t = createTranscript();
    applyFrames(t, frames);
    const version = t.version;
    assert.equal(applyFrames(t, frames), 0);
    assert.equal(t.version, version);
  });
});
