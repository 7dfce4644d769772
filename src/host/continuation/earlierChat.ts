// What the user saw in a chat that ended, as the bounded digest a continuing session carries
// (decisions 630, 641, src/protocol/continuation.ts): the prompts, the main agent's answer texts and
// the fatal error that ended it, in order. Tool calls, thinking and subagents stay out: the digest is
// for reading back what was said, not a replay (frames of another session are never replayed).
import { cutMark } from '../../protocol/cutMark';
import { continuedFromOf, earlierChatPayloadOf, EARLIER_MESSAGES_MAX, EARLIER_TEXT_MAX, type EarlierMessage } from '../../protocol/continuation';
import type { WireFrame } from '../../session/connection';

/** All the digest's texts together (its frame is fitted to each connection like any other, decision 641). */
export const EARLIER_TOTAL_MAX = 64 * 1024;

export interface EarlierDigest {
  earlier: EarlierMessage[];
  left_out: number;
}

export function earlierChatOf(frames: readonly WireFrame[]): EarlierDigest {
  const all: EarlierMessage[] = [];
  // Messages a chat this one continued had already left out: a chain keeps counting them.
  let inherited = 0;
  /** The chats this one continued (by id), and whether their digest is still in the frames. */
  const links = new Map<string, { counted: number; digest: boolean }>();
  // Answer texts by turn and content block: a done frame's full_text wins over its deltas.
  const open = new Map<string, string>();
  const flush = (): void => {
    for (const text of open.values()) if (text.trim()) all.push({ role: 'agent', text: cutMiddle(text) });
    open.clear();
  };
  // The turn's own error (Codex's "Rate limit reached …") says why; the fatal one after it is often
  // only the process's exit ("codex exited with code 1"): the digest says both (the trial of 2026-12-05).
  let turnError: string | undefined;
  const push = (role: EarlierMessage['role'], text: string): void => {
    flush();
    if (text.trim()) all.push({ role, text: cutMiddle(text) });
  };
  for (const f of frames) {
    if (f.metadata?.subagent_context) continue;
    // A chat that itself continued an earlier one: that one's digest comes first (it was published
    // right after the opening), so a chain of continuations keeps the whole conversation to read.
    const before = earlierChatPayloadOf(f);
    if (before) {
      const link = links.get(before.continued_from);
      if (link?.digest) continue;
      links.set(before.continued_from, { counted: 0, digest: true });
      // Already cut and bounded: taken as they are (a second cut would add a second mark).
      all.push(...before.earlier);
      inherited += before.left_out ?? 0;
      continue;
    }
    switch (f.type) {
      case 'session.capabilities': {
        const link = continuedFromOf([f.payload]);
        // The link counts what the digest holds: if the history budget dropped the digest, its
        // messages are counted as left out rather than forgotten.
        if (link && !links.has(link.session_id)) links.set(link.session_id, { counted: (link.messages ?? 0) + (link.left_out ?? 0), digest: false });
        break;
      }
      case 'control.prompt.request':
        push('user', f.payload.prompt_text);
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
        push('agent', text);
        break;
      }
      case 'agent.error':
        if (f.payload.severity === 'fatal') push('error', turnError !== undefined && !f.payload.message.includes(turnError) ? `${turnError} (${f.payload.message})` : f.payload.message);
        else if (f.payload.severity === 'error') turnError = f.payload.message;
        break;
      case 'session.error':
        // The client's own fatal error (an adapter's, §7.4.1); a master's is never in history.
        if (f.payload.fatal) push('error', f.payload.message);
        break;
      case 'session.turn.end':
        flush();
        turnError = undefined;
        break;
    }
  }
  flush();
  for (const link of links.values()) if (!link.digest) inherited += link.counted;
  const { earlier, left_out } = bounded(all);
  return { earlier, left_out: left_out + inherited };
}

/**
 * Did the agent side end this session (§17.2.2 a fatal agent.error, §7.4.1 the adapter's fatal
 * session.error, both only ever published by the client)? A master's fatal session.error, or a
 * session.deleted a master sent naming `error`, leaves no such frame (decision 641).
 */
export function endedByAgentFailure(frames: readonly WireFrame[]): boolean {
  // A fatal error ends the session (a subagent's too), so there is one at most: the newest first.
  for (let i = frames.length - 1; i >= 0; i--) {
    const f = frames[i];
    if ((f.type === 'agent.error' && f.payload.severity === 'fatal') || (f.type === 'session.error' && f.payload.fatal)) return true;
  }
  return false;
}

/** The newest messages within the count and the total; the oldest go first. */
function bounded(all: EarlierMessage[]): EarlierDigest {
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
