// §12.2.1 / §14.2.3: a frame that needs a feature (thinking_stream, tool_streaming, subagent,
// file_search_fuzzy, plan_mode) goes only to a peer that announced it. A merged log does not say
// who sent which session.capabilities; §13.1 has the client speak first on every connection, so
// odd ones (1st, 3rd…) are the client's and even ones the master's. A break of §12.2.1-1 is an
// error, reported once per frame type and session.
import { maySend } from '../../capabilities';
import type { PayloadOf } from '../../frameTypes';
import { fromMaster, where, type SessionRule } from '../context';

function latest(caps: readonly PayloadOf<'session.capabilities'>[], parity: 0 | 1): PayloadOf<'session.capabilities'> | undefined {
  for (let i = caps.length - 1; i >= 0; i--) if (i % 2 === parity) return caps[i];
  return undefined;
}

export function featureRule(): SessionRule {
  const reported = new Set<string>();
  return {
    frame(at, ctx, report) {
      const f = at.frame;
      // A replayed frame was sent under the capabilities of its own, earlier connection.
      if (at.replayed || reported.has(f.type)) return;
      const toClient = fromMaster(f.type);
      const receiver = latest(ctx.capabilities, toClient ? 0 : 1);
      if (!receiver) return; // BEFORE_CAPABILITIES covers it
      // §11.1 structured output rides on session.turn.end: the master must have announced it.
      if (f.type === 'session.turn.end' && f.payload.structured_output !== undefined && receiver.features?.structured_output !== true && !reported.has('structured_output')) {
        reported.add('structured_output');
        report('FEATURE_NOT_ANNOUNCED', where(at), "session.turn.end carries structured_output, which the master's session.capabilities did not announce; later ones are not reported again");
        return;
      }
      const d = maySend(f.type, receiver.features);
      if (d.allowed) return;
      reported.add(f.type);
      const who = toClient ? 'client' : 'master';
      report('FEATURE_NOT_ANNOUNCED', where(at), `${f.type} needs ${d.feature}, which the ${who}'s session.capabilities did not announce; later ${f.type} frames are not reported again`);
    },
  };
}
