// §10: a tool.invoke.request carrying `subagent` is followed right away by agent.subagent.started;
// agent.subagent.ended comes right before the invocation's tool.invoke.result; frames that carry
// metadata.subagent_context name a running subagent at its depth (§10.2). "Right after/before"
// counts client frames only: master frames cross them on the wire.
import type { FrameOf } from '../../frameTypes';
import { fromMaster, inheritedTurn, sideAnnounced, where, type Located, type SessionContext, type SessionRule } from '../context';
import type { Report } from '../problem';

interface Running {
  depth: number;
  started: Located;
}

export function subagentRule(): SessionRule {
  /** invocation_id -> depth of the agent that made the subagent request (0 = main). */
  const requests = new Map<string, number>();
  const running = new Map<string, Running>();
  /** Subagent-spawning invocations still waiting for their result. */
  const spawning = new Set<string>();
  const late = new Set<string>();
  let awaitingStart: Located<FrameOf<'tool.invoke.request'>> | undefined;
  let awaitingResult: Located<FrameOf<'agent.subagent.ended'>> | undefined;

  return {
    frame(at, ctx, report) {
      const f = at.frame;
      if (fromMaster(f.type)) return;

      if (awaitingStart) {
        const id = awaitingStart.frame.payload.invocation_id;
        if (f.type !== 'agent.subagent.started' || f.payload.parent_invocation_id !== id) {
          late.add(id); // its late agent.subagent.started is the same break: not reported again
          report('SUBAGENT_STARTED_ORDER', where(awaitingStart), `tool.invoke.request ${id} starts a subagent, but the next frame (line ${at.line}) is ${f.type}, not its agent.subagent.started`);
        }
      }
      const expectedStart = awaitingStart?.frame.payload.invocation_id;
      awaitingStart = undefined;

      if (awaitingResult) {
        const id = awaitingResult.frame.payload.parent_invocation_id;
        if (f.type !== 'tool.invoke.result' || f.payload.invocation_id !== id) {
          report('SUBAGENT_ENDED_ORDER', where(awaitingResult), `agent.subagent.ended for ${id} is followed by ${f.type} (line ${at.line}), not its tool.invoke.result`);
        }
        awaitingResult = undefined;
      }

      // Open a subagent before checking contexts, so a started frame may carry its own context.
      if (f.type === 'agent.subagent.started') {
        const id = f.payload.parent_invocation_id;
        const parentDepth = requests.get(id);
        if (parentDepth === undefined && inheritedTurn(at, ctx)) {
          // Its request came before the log began: nothing to compare with.
        } else if (parentDepth === undefined) {
          report('SUBAGENT_STARTED_ORDER', where(at), `agent.subagent.started for ${id}, but no tool.invoke.request with \`subagent\` carried that invocation_id`);
        } else if (expectedStart === undefined && !late.has(id)) {
          report('SUBAGENT_STARTED_ORDER', where(at), `agent.subagent.started for ${id} is not right after its tool.invoke.request`);
        }
        if (parentDepth !== undefined) {
          if (f.payload.depth !== parentDepth + 1) {
            report('SUBAGENT_CONTEXT_INVALID', where(at), `agent.subagent.started depth ${f.payload.depth}, expected ${parentDepth + 1} (one below the agent that asked for it)`);
          }
          running.set(id, { depth: f.payload.depth, started: at });
        }
      }

      checkContext(at, running, ctx, report);

      if (f.type === 'tool.invoke.request' && f.payload.subagent) {
        requests.set(f.payload.invocation_id, f.metadata?.subagent_context?.depth ?? 0);
        spawning.add(f.payload.invocation_id);
        awaitingStart = { frame: f, line: at.line };
      } else if (f.type === 'agent.subagent.ended') {
        const id = f.payload.parent_invocation_id;
        if (!running.delete(id)) {
          if (!(inheritedTurn(at, ctx) && !requests.has(id))) report('SUBAGENT_ENDED_ORDER', where(at), `agent.subagent.ended for ${id}, which is not a running subagent`);
          else awaitingResult = { frame: f, line: at.line };
        } else awaitingResult = { frame: f, line: at.line };
      } else if (f.type === 'tool.invoke.result') {
        const id = f.payload.invocation_id;
        if (running.has(id)) {
          running.delete(id);
          report('SUBAGENT_ENDED_ORDER', where(at), `tool.invoke.result for ${id} while its subagent has not sent agent.subagent.ended`);
        }
        // §10.3.2-1 / §10.4: a subagent's result is reported as agent_result.
        if (spawning.delete(id) && f.payload.output_type !== 'agent_result') {
          report('SUBAGENT_RESULT_TYPE', where(at), `the result of subagent call ${id} is output_type ${f.payload.output_type}, not agent_result`);
        }
      }
    },
    end(ctx, report) {
      // A stream cut mid-turn may have lost the next frame (TURN_OPEN_AT_END says so once).
      if (ctx.openTurns.size > 0) return;
      if (awaitingStart) {
        report('SUBAGENT_STARTED_ORDER', where(awaitingStart), `tool.invoke.request ${awaitingStart.frame.payload.invocation_id} starts a subagent, but the stream ends before agent.subagent.started`);
      }
      if (awaitingResult) {
        report('SUBAGENT_ENDED_ORDER', where(awaitingResult), `the stream ends right after agent.subagent.ended, before its tool.invoke.result`);
      }
    },
  };
}

const INSIDE_ONLY = new Set<string>(['agent.text.delta', 'agent.text.done', 'agent.thinking.delta', 'agent.thinking.done', 'session.turn.start', 'session.turn.end']);

/** §10.2: a context names a running subagent at its depth; a missing one is suspicious only when
 * the client promised contexts (§10.6 subagent_context) and a subagent is running. */
function checkContext(at: Located, running: Map<string, Running>, ctx: SessionContext, report: Report): void {
  const f = at.frame;
  const sc = f.metadata?.subagent_context;
  if (sc) {
    const r = running.get(sc.parent_invocation_id);
    if (!r) {
      // A subagent started before the log began (late attach) cannot be checked.
      if (!inheritedTurn(at, ctx)) report('SUBAGENT_CONTEXT_INVALID', where(at), `subagent_context names invocation ${sc.parent_invocation_id}, which is not a running subagent`);
    }
    else if (sc.depth !== r.depth) report('SUBAGENT_CONTEXT_INVALID', where(at), `subagent_context depth ${sc.depth}, but that subagent runs at depth ${r.depth} (line ${r.started.line})`);
    return;
  }
  if (running.size === 0 || !sideAnnounced(ctx, 'client', 'subagent_context')) return;
  // Only frames the main agent cannot be sending while its subagent runs: it waits for the call's
  // result, so streamed text or thinking and turn boundaries come from inside. Tool results and
  // requests may be the main agent's parallel calls, state and usage its own bookkeeping.
  if (!INSIDE_ONLY.has(f.type)) return;
  report('SUBAGENT_CONTEXT_MISSING', where(at), `${f.type} has no metadata.subagent_context while a subagent runs and the client announced subagent_context`);
}
