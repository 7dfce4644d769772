// §4.1 / §4.2: every streamed block (content_index within a turn and agent scope) is closed by
// its `done` frame before the turn ends; a closed block gets no more deltas.
import { isOpen, turnOf, where, type Located, type SessionRule, type TurnRef } from '../context';
import type { ProblemCode } from '../codes';

interface OpenBlock {
  turn: TurnRef;
  index: number;
  first: Located;
}

function blockRule(kind: 'text' | 'thinking'): SessionRule {
  const deltaType = `agent.${kind}.delta`;
  const doneType = `agent.${kind}.done`;
  const unclosed: ProblemCode = kind === 'text' ? 'TEXT_BLOCK_UNCLOSED' : 'THINKING_BLOCK_UNCLOSED';
  const open = new Map<string, OpenBlock>();
  const closed = new Set<string>();
  const keyOf = (turn: TurnRef, index: number) => JSON.stringify([turn.scope, turn.turn_id, index]);
  return {
    frame(at, ctx, report) {
      const f = at.frame;
      if (f.type === deltaType || f.type === doneType) {
        const index = (f.payload as { content_index: number }).content_index;
        const turn = turnOf(at, ctx);
        const key = keyOf(turn, index);
        if (f.type === doneType) {
          open.delete(key);
          closed.add(key);
        } else if (closed.has(key)) {
          report(kind === 'text' ? 'TEXT_DELTA_AFTER_DONE' : 'THINKING_DELTA_AFTER_DONE', where(at), `${deltaType} for content_index ${index}, which ${doneType} already closed in this turn`);
        } else if (!open.has(key)) {
          open.set(key, { turn, index, first: at });
        }
      } else if (f.type === 'session.turn.end') {
        const turn = turnOf(at, ctx);
        for (const [key, b] of open) {
          if (b.turn.scope !== turn.scope || b.turn.turn_id !== turn.turn_id) continue;
          if (ctx.inherited.has(turn.turn_id)) {
            open.delete(key); // its done may be among the frames lost before the log
            continue;
          }
          report(unclosed, where(b.first), `${deltaType} block ${b.index} is not closed by ${doneType} before session.turn.end (line ${at.line})`);
          open.delete(key);
        }
        // The turn is over: its closed blocks need no remembering (keeps long streams small).
        const prefix = keyOf(turn, 0).slice(0, -2);
        for (const key of closed) if (key.startsWith(prefix)) closed.delete(key);
      }
    },
    end(ctx, report) {
      for (const b of open.values()) {
        if (isOpen(b.turn, ctx)) continue; // reported once as TURN_OPEN_AT_END
        report(unclosed, where(b.first), `${deltaType} block ${b.index} is never closed by ${doneType}`);
      }
    },
  };
}

export const textBlockRule = () => blockRule('text');
export const thinkingBlockRule = () => blockRule('thinking');
