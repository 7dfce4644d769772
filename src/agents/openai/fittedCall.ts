// One model call of the OpenAI-compatible agent that fits the model's context window (decision
// 730): the conversation is trimmed to the window before the call when the window is known; a
// refusal for length teaches the window (named by the server, or guessed below what was refused)
// and the call is made again, trimmed, at most MAX_OVERFLOW_RETRIES times. A refusal comes before
// any of the answer, so nothing shown is shown twice.
import type { ChatMessage, ChatResult } from './chatStream';
import type { Conversation } from './conversation';
import { count } from './streamLimits';

export const MAX_OVERFLOW_RETRIES = 3;

export type FittedResult = ChatResult | { kind: 'too_long'; needed: number; window: number };

/** `call` with the conversation fitted; `answerTokens`: the request's own cap on the answer, if any. */
export async function fittedCall(conversation: Conversation, answerTokens: number | undefined, call: (messages: ChatMessage[]) => Promise<ChatResult>, signal: AbortSignal): Promise<FittedResult> {
  for (let attempt = 0; ; attempt++) {
    if (!conversation.fit(answerTokens)) return { kind: 'too_long', needed: conversation.estimateTokens(), window: conversation.windowTokens ?? 0 };
    const sent = conversation.estimateTokens();
    const result = await call(conversation.forRequest());
    if (result.kind === 'failed' && result.overflow && attempt < MAX_OVERFLOW_RETRIES && !signal.aborted) {
      conversation.overflowed(result.overflow, sent);
      continue;
    }
    if (result.kind === 'done' && result.usage) conversation.calibrate(sent, result.usage.prompt_tokens);
    return result;
  }
}

/** The answer cap a request's extra fields set (`max_tokens`, `max_completion_tokens`), if any. */
export function answerTokensOf(extra: Record<string, unknown> | undefined): number | undefined {
  const n = extra?.max_completion_tokens ?? extra?.max_tokens;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The words of a prompt that does not fit alone. */
export function tooLongWords(needed: number, window: number): string {
  return `the prompt alone is about ${count(needed)} tokens, more than the model's context window of ${count(window)} tokens holds with room for an answer; shorten it or attach fewer or smaller files`;
}
