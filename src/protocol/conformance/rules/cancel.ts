// §6.1.2-1 cancellation: once the client has a control.prompt.cancel for the running turn, the
// calls still running are answered `cancelled`, an agent.text.done with is_cancelled: true goes
// out, and the turn ends `cancelled` (or `error` when the session ends meanwhile, §7.5.3).
// The log is read in the client's order (the hub's, the journal's, a master's own recording of
// one connection): a cancel that reaches the client after the turn ended names no running turn.
import { scopeOf, where, type Located, type SessionRule } from '../context';

interface Cancelled {
  at: Located;
  turn_id: string;
  /** Calls of the turn running when the cancel came. */
  running: Set<string>;
  textDone: boolean;
}

export function cancelRule(): SessionRule {
  /** Calls of the open main turn still running (with their subagents' calls). */
  const running = new Set<string>();
  let cancel: Cancelled | undefined;
  return {
    frame(at, ctx, report) {
      const f = at.frame;
      if (at.replayed) return;
      switch (f.type) {
        case 'control.prompt.cancel': {
          const main = ctx.openTurns.get('');
          if (!cancel && main && main.turn_id === f.payload.target_turn_id) cancel = { at, turn_id: main.turn_id, running: new Set(running), textDone: false };
          return;
        }
        case 'tool.invoke.request':
          running.add(f.payload.invocation_id);
          return;
        case 'tool.invoke.result':
          running.delete(f.payload.invocation_id);
          if (cancel?.running.delete(f.payload.invocation_id) && f.payload.status !== 'cancelled') {
            report('CANCEL_RESULT_NOT_CANCELLED', where(at), `${f.payload.tool_name} (${f.payload.invocation_id}) was running when the turn was cancelled on line ${cancel.at.line}, yet its result is ${f.payload.status}`);
          }
          return;
        case 'agent.text.done':
          if (cancel && f.payload.is_cancelled === true && scopeOf(f) === '') cancel.textDone = true;
          return;
        case 'session.turn.end': {
          if (scopeOf(f) !== '') return;
          running.clear();
          const c = cancel;
          cancel = undefined;
          if (!c || c.turn_id !== f.payload.turn_id) return;
          if (!c.textDone) report('CANCEL_TEXT_DONE_MISSING', where(at), `turn ${c.turn_id}, cancelled on line ${c.at.line}, ends without an agent.text.done with is_cancelled: true`);
          if (f.payload.stop_reason !== 'cancelled' && f.payload.stop_reason !== 'error') {
            report('CANCEL_STOP_REASON', where(at), `turn ${c.turn_id}, cancelled on line ${c.at.line}, ends with stop_reason ${f.payload.stop_reason}, not cancelled`);
          }
          return;
        }
        default:
          return;
      }
    },
  };
}
