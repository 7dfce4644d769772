// The session's beginning and end as one connection sees them:
//  - §13.1-3 tool.catalog.publish and agent.commands.publish come after the session.capabilities
//    exchange: one that came between the client's capabilities and the peer's is an error (when
//    the peer never sends any, its first control frame is BEFORE_CAPABILITIES instead);
//  - §7.5.3-1 / §4.4.1-1 after a fatal agent.error or session.error only the clean-up frames and
//    session.deleted follow;
//  - §7.7.1-1 session.deleted comes right before the close: nothing follows the one that ended the
//    session (a master's deletion request is followed by the client's clean-up and its own).
import type { FrameType } from '../../frameTypes';
import { fromMaster, where, type Located, type SessionRule } from '../context';

/** §7.5.3 clean-up and the frames that close blocks and report the end. */
const CLEAN_UP = new Set<FrameType>([
  'tool.invoke.result',
  'session.turn.end',
  'session.usage',
  'agent.text.done',
  'agent.thinking.done',
  'agent.subagent.ended',
  'agent.state.changed',
  'agent.error',
  'session.error',
  'session.deleted',
]);

export function lifecycleRule(): SessionRule {
  /** Capabilities frames of the exchange in progress (a reattach starts a new one). */
  let exchange = 2;
  let earlyPublish: Located | undefined;
  let fatal: Located | undefined;
  let deleted: Located | undefined;
  let reportedAfter = false;
  let lifeReported = false;
  return {
    frame(at, ctx, report) {
      const f = at.frame;
      if (at.replayed) return;
      // A master's frame may cross the deletion on the wire; the client's own must not follow it.
      if (deleted && !reportedAfter && f.type !== 'session.deleted' && !fromMaster(f.type)) {
        if (!(CLEAN_UP.has(f.type) && ctx.openTurns.size > 0)) {
          reportedAfter = true;
          report('FRAME_AFTER_DELETED', where(at), `${f.type} after the session.deleted on line ${deleted.line}; later frames are not reported again`);
        }
      }
      if (f.type === 'session.deleted' && ctx.openTurns.size === 0) deleted ??= at;

      if (f.type === 'session.capabilities') {
        exchange = exchange >= 2 ? 1 : exchange + 1;
        if (exchange === 2 && earlyPublish) {
          report('CATALOG_BEFORE_EXCHANGE', where(earlyPublish), `${earlyPublish.frame.type} came before the peer's session.capabilities (line ${at.line}) completed the exchange`);
        }
        earlyPublish = undefined;
        return;
      }
      if ((f.type === 'tool.catalog.publish' || f.type === 'agent.commands.publish') && exchange === 1) earlyPublish ??= at;

      if (fatal && !lifeReported && !CLEAN_UP.has(f.type) && !deleted && !fromMaster(f.type)) {
        lifeReported = true;
        report('LIFE_AFTER_FATAL', where(at), `${f.type} after the fatal error on line ${fatal.line}: only the §7.5.3 clean-up and session.deleted may follow; later frames are not reported again`);
      }
      if (!fatal && ((f.type === 'agent.error' && f.payload.severity === 'fatal') || (f.type === 'session.error' && f.payload.fatal))) fatal = at;
    },
  };
}
