// §13.1 session set-up order: the session.capabilities exchange precedes everything else, and the
// client publishes its tools and commands before the first prompt. A merged log cannot tell who
// sent a session.capabilities, so: client frames need one capabilities frame, control.* frames
// (the master's) need both (docs/decisions/030-validator-sender-and-scope.md).
import { fromMaster, where, type SessionRule } from '../context';

export function orderRule(): SessionRule {
  const reported = { client: false, master: false };
  let prompted = false;
  return {
    frame(at, ctx, report) {
      const f = at.frame;
      if (f.type === 'session.capabilities') return;
      const side = fromMaster(f.type) ? 'master' : 'client';
      const needed = side === 'master' ? 2 : 1;
      if (ctx.capabilities.length < needed && !reported[side]) {
        reported[side] = true;
        const seen = ctx.capabilities.length === 0 ? 'no session.capabilities yet' : 'only one side has sent session.capabilities';
        report('BEFORE_CAPABILITIES', where(at), `${f.type} before the session.capabilities exchange (${seen}); later ${side} frames of this session are not reported again`);
      }
      if (f.type === 'control.prompt.request' && !prompted) {
        prompted = true;
        if (!ctx.catalog) report('PROMPT_BEFORE_CATALOG', where(at), 'first control.prompt.request before any tool.catalog.publish');
        if (!ctx.commandsPublished) report('PROMPT_BEFORE_COMMANDS', where(at), 'first control.prompt.request before any agent.commands.publish');
      }
    },
  };
}
