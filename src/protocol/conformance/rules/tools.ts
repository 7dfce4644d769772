// §5.2–§5.3: each tool.invoke.request is answered by exactly one tool.invoke.result with the same
// invocation_id, after it; tool.invoke.stream chunks of a running invocation count 0, 1, 2….
// A request still unanswered when the stream ends is an error unless its turn is still open
// (the stream was cut mid-turn; TURN_OPEN_AT_END says so once).
import type { FrameOf } from '../../frameTypes';
import { inheritedTurn, isOpen, turnOf, where, type Located, type SessionRule, type TurnRef } from '../context';

interface Invocation {
  request: Located<FrameOf<'tool.invoke.request'>>;
  turn: TurnRef;
  answered: boolean;
  nextSequence: number;
}

export function toolRule(): SessionRule {
  const invocations = new Map<string, Invocation>();
  return {
    frame(at, ctx, report) {
      const f = at.frame;
      if (f.type === 'tool.invoke.request') {
        const id = f.payload.invocation_id;
        const earlier = invocations.get(id);
        if (earlier) {
          report('DUPLICATE_INVOCATION_ID', where(at), `invocation_id ${id} was already used by the request on line ${earlier.request.line}`);
          return;
        }
        invocations.set(id, { request: { frame: f, line: at.line }, turn: turnOf(at, ctx), answered: false, nextSequence: 0 });
      } else if (f.type === 'tool.invoke.stream') {
        const inv = invocations.get(f.payload.invocation_id);
        if (!inv && inheritedTurn(at, ctx)) return; // requested before the log began
        if (!inv || inv.answered) {
          const why = inv ? `already answered` : 'no tool.invoke.request before it';
          report('TOOL_STREAM_ORPHAN', where(at), `tool.invoke.stream for invocation ${f.payload.invocation_id}: ${why}`);
          return;
        }
        if (f.payload.tool_name !== inv.request.frame.payload.tool_name) {
          report('TOOL_NAME_MISMATCH', where(at), `stream names tool ${f.payload.tool_name}, the request on line ${inv.request.line} ${inv.request.frame.payload.tool_name}`);
        }
        if (f.payload.sequence !== inv.nextSequence) {
          report('TOOL_STREAM_SEQUENCE', where(at), `sequence ${f.payload.sequence}, expected ${inv.nextSequence}`);
        }
        inv.nextSequence = Math.max(inv.nextSequence, f.payload.sequence + 1);
      } else if (f.type === 'tool.invoke.result') {
        const inv = invocations.get(f.payload.invocation_id);
        if (!inv && inheritedTurn(at, ctx)) return; // requested before the log began
        if (!inv) {
          report('TOOL_RESULT_WITHOUT_REQUEST', where(at), `tool.invoke.result for invocation ${f.payload.invocation_id}, which no earlier tool.invoke.request carried`);
        } else if (inv.answered) {
          report('TOOL_DUPLICATE_RESULT', where(at), `invocation ${f.payload.invocation_id} was already answered`);
        } else {
          inv.answered = true;
          if (f.payload.tool_name !== inv.request.frame.payload.tool_name) {
            report('TOOL_NAME_MISMATCH', where(at), `result names tool ${f.payload.tool_name}, the request on line ${inv.request.line} ${inv.request.frame.payload.tool_name}`);
          }
        }
      }
    },
    end(ctx, report) {
      for (const inv of invocations.values()) {
        if (inv.answered || isOpen(inv.turn, ctx)) continue;
        const p = inv.request.frame.payload;
        report('TOOL_UNANSWERED', where(inv.request), `tool.invoke.request ${p.tool_name} (${p.invocation_id}) is never answered by a tool.invoke.result`);
      }
    },
  };
}
