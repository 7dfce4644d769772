// §6.3.1 compaction for the OpenAI-compatible agent (decision 730): the model summarizes the
// conversation, and the summary stands for it from then on. On request (`/compact`, a master's
// control.session.compact) and, once the model's context window is known, by the engine at 95%
// utilization (session/betweenTurns.ts).
import type { PayloadOf } from '../../protocol/frameTypes';
import type { ChatMessage, ChatResult } from './chatStream';
import type { Conversation } from './conversation';
import { fittedCall, tooLongWords } from './fittedCall';

export const SUMMARY_REQUEST = [
  'Summarize our conversation so far, for yourself: the work will go on from your summary alone.',
  "Keep the user's goals and requests, what was done (files read, created and changed; commands run and what came of them), decisions and why, errors met, and what remains to do.",
  'Be complete and concise. Plain text, no tool calls.',
].join(' ');

/** Summarize `conversation` through `call` (tool calls off), replacing it; throws why it could not. */
export async function compactConversation(conversation: Conversation, instruction: string | undefined, previousTokens: number | undefined, call: (messages: ChatMessage[]) => Promise<ChatResult>): Promise<PayloadOf<'session.compacted'>> {
  if (conversation.isEmpty) throw new Error('there is nothing to compact yet');
  const previous = previousTokens ?? conversation.estimateTokens();
  conversation.push({ role: 'user', content: instruction?.trim() ? `${SUMMARY_REQUEST}\n\nAlso: ${instruction.trim()}` : SUMMARY_REQUEST });
  const r = await fittedCall(conversation, undefined, call, new AbortController().signal);
  if (r.kind !== 'done' || !r.text.trim()) {
    conversation.dropLast();
    throw new Error(r.kind === 'too_long' ? tooLongWords(r.needed, r.window) : r.kind === 'failed' ? r.message : 'the model answered with no summary');
  }
  const summary = r.text.trim();
  conversation.replaceWithSummary(summary);
  return { summary, previous_token_count: previous, current_token_count: conversation.estimateTokens(), trigger: 'requested' };
}
