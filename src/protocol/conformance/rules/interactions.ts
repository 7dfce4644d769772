// §4.3 / §6.2: every agent.interaction.request is eventually answered by the master with
// control.interaction.response or control.interaction.timeout for its interaction_id.
// Warnings only: a master may also let a request lapse and the agent apply default_value.
import { isOpen, turnOf, where, type Located, type SessionRule, type TurnRef } from '../context';

export function interactionRule(): SessionRule {
  const pending = new Map<string, { at: Located; turn: TurnRef }>();
  const answered = new Set<string>();
  return {
    frame(at, ctx, report) {
      const f = at.frame;
      if (f.type === 'agent.interaction.request') {
        // §17.3.1-2: a permission question names the tool it is about.
        if (f.payload.interaction_type === 'PERMISSION' && !f.payload.context?.tool_name) {
          report('PERMISSION_WITHOUT_TOOL_NAME', where(at), `PERMISSION interaction ${f.payload.interaction_id} has no context.tool_name`);
        }
        pending.set(f.payload.interaction_id, { at, turn: turnOf(at, ctx) });
      } else if (f.type === 'control.interaction.response' || f.type === 'control.interaction.timeout') {
        const id = f.payload.interaction_id;
        if (pending.delete(id)) answered.add(id);
        else if (!answered.has(id)) report('INTERACTION_UNKNOWN', where(at), `${f.type} for interaction ${id}, which no agent.interaction.request asked`);
      }
    },
    end(ctx, report) {
      for (const [id, p] of pending) {
        if (isOpen(p.turn, ctx)) continue; // the stream was cut mid-turn (TURN_OPEN_AT_END)
        report('INTERACTION_UNANSWERED', where(p.at), `agent.interaction.request ${id} is never answered by control.interaction.response or control.interaction.timeout`);
      }
    },
  };
}
