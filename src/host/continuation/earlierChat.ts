// What the user saw in a chat that ended, as the bounded digest a continuing session carries
// (decision 630, src/protocol/continuation.ts): the prompts, the main agent's answer texts and the
// fatal error that ended it, in order. Tool calls, thinking and subagents stay out: the digest is
// for reading back what was said, not a replay (frames of another session are never replayed).
import { cutMark } from '../../protocol/cutMark';
import { continuedFromOf, EARLIER_MESSAGES_MAX, EARLIER_TEXT_MAX, type EarlierMessage } from '../../protocol/continuation';
import type { WireFrame } from '../../session/connection';

/** All the digest's texts together, so the continuing session's capabilities stay a small frame. */
export const EARLIER_TOTAL_MAX = 64 * 1024;

export interface EarlierChat {
  earlier: EarlierMessage[];
  left_out: number;
}

export function earlierChatOf(frames: readonly WireFrame[]): EarlierChat {
  const all: EarlierMessage[] = [];
  // Answer texts by turn and content block: a done frame's full_text wins over its deltas.
  const open = new Map<string, string>();
  const flush = (): void => {
    for (const text of open.values()) if (text.trim()) all.push({ role: 'agent', text });
    open.clear();
  };
  for (const f of frames) {
    if (f.metadata?.subagent_context) continue;
    switch (f.type) {
      case 'session.capabilities': {
        // A chat that itself continued an earlier one: that one's digest comes first, so a chain
        // of continuations keeps the whole conversation to read.
        const before = continuedFromOf([f.payload]);
        if (before) all.push(...before.earlier);
        break;
      }
      case 'control.prompt.request':
        flush();
        all.push({ role: 'user', text: f.payload.prompt_text });
        break;
      case 'agent.text.delta': {
        const key = `${f.turn_id ?? ''}:${f.payload.content_index}`;
        open.set(key, (open.get(key) ?? '') + f.payload.text);
        break;
      }
      case 'agent.text.done': {
        const key = `${f.turn_id ?? ''}:${f.payload.content_index}`;
        const text = f.payload.full_text ?? open.get(key) ?? '';
        open.delete(key);
        flush();
        if (text.trim()) all.push({ role: 'agent', text });
        break;
      }
      case 'agent.error':
        if (f.payload.severity === 'fatal') {
          flush();
          all.push({ role: 'error', text: f.payload.message });
        }
        break;
      case 'session.turn.end':
        flush();
        break;
    }
  }
  flush();
  return bounded(all.map((m) => ({ role: m.role, text: cutMiddle(m.text) })));
}

/** The newest messages within the count and the total; the oldest go first. */
function bounded(all: EarlierMessage[]): EarlierChat {
  let total = 0;
  let from = all.length;
  while (from > 0 && all.length - from < EARLIER_MESSAGES_MAX && total + all[from - 1].text.length <= EARLIER_TOTAL_MAX) {
    from--;
    total += all[from].text.length;
  }
  return { earlier: all.slice(from), left_out: from };
}

/** A text longer than EARLIER_TEXT_MAX keeps its start and end around a cut mark (decision 516). */
function cutMiddle(text: string): string {
  if (text.length <= EARLIER_TEXT_MAX) return text;
  const half = Math.floor(EARLIER_TEXT_MAX / 2);
  return `${text.slice(0, half)}${cutMark(text.length - 2 * half)}${text.slice(text.length - half)}`;
}
