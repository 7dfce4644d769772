// Plain words for protocol codes (issue 15 Why 6): a person reads a sentence; the code itself goes
// in the tooltip (and stays in the logs). Unknown codes get a general sentence, never the bare code.
import { isMessageId, type MessageId } from './en';
import { t } from './index';

/** The sentence for an error code of session.error or tool.result (§4.4, §5.3). */
export function codeSentence(code: string | undefined): string {
  const id = `code.${code ?? ''}`;
  return isMessageId(id) ? t(id) : t('code.unknown');
}

/** True when the code has its own sentence (tests, and whether to repeat the agent's own message). */
export function hasSentence(code: string): boolean {
  return isMessageId(`code.${code}`);
}

export function codeTooltip(code: string): string {
  return t('code.tooltip', code);
}

/** A message id from a fixed prefix and an open value, or the fallback when the value has none. */
export function idFor(prefix: string, value: string | undefined, fallback: MessageId): MessageId {
  const id = `${prefix}${value ?? ''}`;
  return isMessageId(id) ? id : fallback;
}
