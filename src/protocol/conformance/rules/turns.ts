// §7.5 turn lifecycle per agent scope: start/end pair up, turn_index counts 0, 1, 2…, and the
// client frame right after session.turn.end is session.usage (§7.5.2, §7.3.1); no turn is left
// open when the session is deleted (§7.5.3).
import { fromMaster, scopeOf, where, type Located, type SessionRule } from '../context';

export function turnRule(): SessionRule {
  const nextIndex = new Map<string, number>();
  /** Per scope: the turn.end still waiting for its session.usage. */
  const awaitingUsage = new Map<string, Located>();
  /** A session.deleted that came while turns were open: a master's request, unless they stay open. */
  let deletedOpen: { at: Located; turns: Map<string, { turn_id: string; line: number }> } | undefined;
  const reportDeleted = (report: Parameters<SessionRule['frame']>[2]) => {
    if (!deletedOpen) return;
    for (const [s, open] of deletedOpen.turns) {
      const who = s === '' ? '' : ` (subagent of invocation ${s})`;
      report('DELETED_MID_TURN', where(deletedOpen.at), `session.deleted while turn ${open.turn_id}${who} from line ${open.line} is open, and no clean-up closed it; send session.turn.end with stop_reason error first`);
    }
    deletedOpen = undefined;
  };
  return {
    frame(at, ctx, report) {
      const f = at.frame;
      const scope = scopeOf(f);
      const pending = awaitingUsage.get(scope);
      if (pending && !fromMaster(f.type)) {
        awaitingUsage.delete(scope);
        if (f.type !== 'session.usage') {
          report('USAGE_NOT_AFTER_TURN_END', where(pending), `session.turn.end is followed by ${f.type} (line ${at.line}), not session.usage`);
        }
      }
      if (f.type === 'session.turn.start') {
        const open = ctx.openTurns.get(scope);
        if (open) report('TURN_OVERLAP', where(at), `turn ${f.payload.turn_id} starts while turn ${open.turn_id} (line ${open.line}) is still open`);
        // The first turn of a log may have any index: a late attach, or a restored session going on counting.
        const expected = nextIndex.get(scope);
        if (expected !== undefined && f.payload.turn_index !== expected) {
          report('TURN_INDEX_ORDER', where(at), `turn_index ${f.payload.turn_index}, expected ${expected}`);
        }
        nextIndex.set(scope, f.payload.turn_index + 1);
      } else if (f.type === 'session.turn.end') {
        const open = ctx.openTurns.get(scope);
        if (!open) report('TURN_END_WITHOUT_START', where(at), `session.turn.end for ${f.payload.turn_id} with no open turn`);
        else if (open.turn_id !== f.payload.turn_id) {
          report('TURN_ID_MISMATCH', where(at), `session.turn.end names turn ${f.payload.turn_id} but the open turn is ${open.turn_id} (line ${open.line})`);
        }
        awaitingUsage.set(scope, at);
        deletedOpen?.turns.delete(scope);
        if (deletedOpen?.turns.size === 0) deletedOpen = undefined;
      } else if (f.type === 'session.deleted') {
        // §7.5.3 / §7.7.1: the clean-up frames come before session.deleted. A deletion while turns
        // are open is fine only as a request the client's clean-up then answers.
        if (deletedOpen) reportDeleted(report);
        else if (ctx.openTurns.size > 0) deletedOpen = { at, turns: new Map([...ctx.openTurns].map(([k, v]) => [k, { turn_id: v.turn_id, line: v.line }])) };
      }
    },
    end(ctx, report) {
      const deletedScopes = new Set(deletedOpen?.turns.keys() ?? []);
      reportDeleted(report);
      // A stream that ends right after session.turn.end was cut there (its usage may be on the way):
      // like a stream cut mid-turn, that is not a break the log can show.
      for (const [scope, open] of ctx.openTurns) {
        if (deletedScopes.has(scope)) continue; // reported as DELETED_MID_TURN
        const who = scope === '' ? '' : ` of the subagent of invocation ${scope}`;
        report('TURN_OPEN_AT_END', { line: open.line, session_id: ctx.session_id }, `the stream ends inside turn ${open.turn_id}${who}`);
      }
    },
  };
}
