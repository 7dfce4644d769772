// Requests the client must refuse with a non-fatal session.error of a given code:
//  - §17.3.2-2 a control.prompt.request while a turn runs: PROMPT_IN_PROGRESS, before that turn ends;
//  - §6.3.1-3 a control.session.compact to a client without context_compaction:
//    COMPACTION_NOT_SUPPORTED (and no session.compacted), before the next turn or the stream's end.
// Also §6.3.1: a client that did not announce context_compaction does not compact at all.
import { Refusals, scopeOf, sideAnnounced, where, type Located, type SessionRule } from '../context';

interface Asked {
  at: Located;
  turn_id?: string;
}

export function refusalRule(): SessionRule {
  const prompts = new Refusals<Asked>('PROMPT_IN_PROGRESS');
  const compactions = new Refusals<Asked>('COMPACTION_NOT_SUPPORTED');
  const unrefusedCompactions = (report: Parameters<SessionRule['frame']>[2], why: string) => {
    for (const c of compactions.take(() => true)) {
      report('COMPACTION_NOT_REFUSED', where(c.at), `control.session.compact to a client without context_compaction ${why}, not answered with session.error COMPACTION_NOT_SUPPORTED`);
    }
  };
  return {
    frame(at, ctx, report) {
      const f = at.frame;
      if (at.replayed) return;
      prompts.answer(f);
      compactions.answer(f);
      if (f.type === 'control.prompt.request') {
        const main = ctx.openTurns.get('');
        if (main) prompts.add({ at, turn_id: main.turn_id });
      } else if (f.type === 'control.session.compact') {
        if (!sideAnnounced(ctx, 'client', 'context_compaction')) compactions.add({ at });
      } else if (f.type === 'session.compacted') {
        if (!sideAnnounced(ctx, 'client', 'context_compaction')) {
          report('COMPACTED_WITHOUT_CAPABILITY', where(at), 'session.compacted from a client whose session.capabilities did not announce context_compaction');
        }
        unrefusedCompactions(report, 'was carried out');
      } else if (f.type === 'session.turn.start' && scopeOf(f) === '') {
        unrefusedCompactions(report, 'was followed by a turn');
      } else if (f.type === 'session.turn.end' && scopeOf(f) === '') {
        for (const p of prompts.take((w) => w.turn_id === f.payload.turn_id)) {
          report('PROMPT_NOT_REFUSED', where(p.at), `control.prompt.request during turn ${p.turn_id} was not answered with session.error PROMPT_IN_PROGRESS before the turn ended (line ${at.line})`);
        }
      }
    },
    end(_ctx, report) {
      unrefusedCompactions(report, 'by the end of the stream');
    },
  };
}
