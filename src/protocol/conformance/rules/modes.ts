// §6.3.2 modes: a switch during a turn is refused (MODE_SWITCH_DURING_TURN) and not carried out;
// a switch to a client without plan_mode is refused (MODE_NOT_SUPPORTED); the first turn after a
// switch names its mode; and in plan/review mode a shell or file-writing tool never runs — its
// call is answered with the error "Tool not allowed in current mode". The mode is followed from
// the switches the client acknowledged (agent.state.changed reason mode_switch) and from every
// session.turn.start that names one; a log that starts mid-session begins in `default`, which
// allows everything, so nothing is reported that the log cannot show.
import type { AgentModeName } from '../../common';
import type { FrameOf } from '../../frameTypes';
import { isReadOnlyToolName, MODE_BLOCKED_MESSAGE } from '../../modePolicy';
import { Refusals, scopeOf, sideAnnounced, where, type Located, type SessionRule } from '../context';

interface Switch {
  at: Located<FrameOf<'control.mode.switch'>>;
  turn_id?: string;
}

/** §6.3.2's table: plan and review forbid the shell and writing to the file system. */
function forbidden(category: string | undefined, name: string): boolean {
  if (category === 'shell') return true;
  return (category === 'filesystem' || category === 'notebook') && !isReadOnlyToolName(name);
}

export function modeRule(): SessionRule {
  let mode: AgentModeName = 'default';
  /** The switch the client is answering now (control.mode.switch without a refusal yet). */
  let asked: Switch | undefined;
  let announce: Located | undefined;
  const duringTurn = new Refusals<Switch>('MODE_SWITCH_DURING_TURN');
  const unsupported = new Refusals<Switch>('MODE_NOT_SUPPORTED');
  const checked = new Map<string, Located<FrameOf<'tool.invoke.request'>>>();
  /** Switches received during a turn, by message_id: an acknowledgement naming one (parent_id) while that turn runs breaks §6.3.2-2 even after a refusal. */
  const receivedDuringTurn = new Map<string, Switch>();

  return {
    frame(at, ctx, report) {
      const f = at.frame;
      if (at.replayed) return; // a history's frames happened under an earlier connection's switches
      duringTurn.answer(f);
      if (unsupported.answer(f) && asked && asked.at.frame.message_id === f.parent_id) asked = undefined;
      if (f.type === 'session.error' && asked && (f.parent_id === asked.at.frame.message_id || f.parent_id === undefined)) asked = undefined;

      if (f.type === 'control.mode.switch') {
        const main = ctx.openTurns.get('');
        const sw: Switch = { at: at as Located<FrameOf<'control.mode.switch'>>, turn_id: main?.turn_id };
        if (!sideAnnounced(ctx, 'client', 'plan_mode')) unsupported.add(sw);
        else if (main) {
          duringTurn.add(sw);
          receivedDuringTurn.set(f.message_id, sw);
        }
        asked = sw;
        return;
      }
      if (f.type === 'agent.state.changed' && f.payload.reason === 'mode_switch' && scopeOf(f) === '') {
        const named_switch = f.parent_id !== undefined ? receivedDuringTurn.get(f.parent_id) : undefined;
        const sw = named_switch ?? asked;
        asked = undefined;
        if (named_switch && named_switch.turn_id === ctx.openTurns.get('')?.turn_id && duringTurn.take((w) => w === named_switch).length === 0) {
          // Refused, and carried out all the same.
          report('MODE_SWITCHED_DURING_TURN', where(named_switch.at), `control.mode.switch during turn ${named_switch.turn_id} was refused and still carried out (line ${at.line})`);
        }
        if (sw && unsupported.take((w) => w === sw).length > 0) {
          report('MODE_NOT_SUPPORTED_NOT_REFUSED', where(sw.at), `control.mode.switch to a client that did not announce plan_mode was carried out (line ${at.line}) instead of refused with MODE_NOT_SUPPORTED`);
        }
        if (sw && sw.turn_id !== undefined && duringTurn.take((w) => w === sw).length > 0) {
          report('MODE_SWITCHED_DURING_TURN', where(sw.at), `control.mode.switch during turn ${sw.turn_id} was carried out (line ${at.line}) before the turn ended`);
        }
        const named = (f.payload as { mode?: unknown }).mode;
        const next = typeof named === 'string' ? named : sw?.at.frame.payload.mode;
        if (next === 'default' || next === 'plan' || next === 'review') mode = next;
        announce = at;
        return;
      }
      if (f.type === 'session.turn.start' && scopeOf(f) === '') {
        if (announce && f.payload.mode === undefined) {
          report('TURN_MODE_MISSING', where(at), `the first session.turn.start after the mode switch on line ${announce.line} has no mode`);
        }
        announce = undefined;
        if (f.payload.mode) mode = f.payload.mode;
        return;
      }
      if (f.type === 'session.turn.end' && scopeOf(f) === '') {
        for (const [id, sw] of receivedDuringTurn) if (sw.turn_id === f.payload.turn_id) receivedDuringTurn.delete(id);
        for (const sw of duringTurn.take((w) => w.turn_id === f.payload.turn_id)) {
          report('MODE_SWITCH_NOT_REFUSED', where(sw.at), `control.mode.switch during turn ${sw.turn_id} was not answered with session.error MODE_SWITCH_DURING_TURN before the turn ended (line ${at.line})`);
        }
        return;
      }
      if (f.type === 'tool.invoke.request' && mode !== 'default') {
        const entry = ctx.catalog?.tools.find((t) => t.name === f.payload.tool_name);
        if (entry && forbidden(entry.category, entry.name)) checked.set(f.payload.invocation_id, at as Located<FrameOf<'tool.invoke.request'>>);
        return;
      }
      if (f.type === 'tool.invoke.result') {
        const req = checked.get(f.payload.invocation_id);
        if (!req) return;
        checked.delete(f.payload.invocation_id);
        if (f.payload.status !== 'error' || f.payload.output !== MODE_BLOCKED_MESSAGE) {
          report('TOOL_NOT_ALLOWED_IN_MODE', where(at), `${f.payload.tool_name} (${categoryOf(ctx, f.payload.tool_name)}) in ${mode} mode was answered ${f.payload.status} instead of the error "${MODE_BLOCKED_MESSAGE}"`);
        }
      }
    },
    end(_ctx, report) {
      for (const sw of unsupported.take(() => true)) {
        report('MODE_NOT_SUPPORTED_NOT_REFUSED', where(sw.at), 'control.mode.switch to a client that did not announce plan_mode was never answered with session.error MODE_NOT_SUPPORTED');
      }
    },
  };
}

function categoryOf(ctx: Parameters<SessionRule['frame']>[1], name: string): string {
  return ctx.catalog?.tools.find((t) => t.name === name)?.category ?? 'no category';
}
