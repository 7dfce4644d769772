// What a line typed by the user means while a question is pending (§4.3 → §6.2.1): a number picks
// an option (several, comma-separated, for MULTI_SELECT), an option's value or label picks it too,
// y/n answer a YN question without options, and a TEXT_INPUT takes the line itself.
import type { PayloadOf } from '../../protocol/frameTypes';
import type { HostLanguage } from '../../protocol/hostPhrases';
import { attachPhrase } from './attachPhrases';

export type Answer = { ok: true; payload: PayloadOf<'control.interaction.response'> } | { ok: false; message: string };

/** `lang`: the language of the hint when the line answers nothing (the terminal's; English by default). */
export function answerFor(request: PayloadOf<'agent.interaction.request'>, line: string, lang: HostLanguage = 'en'): Answer {
  const text = line.trim();
  const options = request.options ?? [];
  const base = { interaction_id: request.interaction_id };
  if (request.interaction_type === 'TEXT_INPUT' && options.length === 0) {
    return { ok: true, payload: { ...base, selected_value: text, text_input: text } };
  }
  if (options.length === 0) {
    if (/^(y|yes)$/i.test(text)) return { ok: true, payload: { ...base, selected_value: 'yes' } };
    if (/^(n|no)$/i.test(text)) return { ok: true, payload: { ...base, selected_value: 'no' } };
    return { ok: false, message: attachPhrase('answer.yn', [], lang) };
  }
  const pick = (word: string): string | undefined => {
    const n = Number(word);
    if (Number.isInteger(n) && n >= 1 && n <= options.length) return options[n - 1].value;
    const byValue = options.find((o) => o.value.toLowerCase() === word.toLowerCase() || o.label.toLowerCase() === word.toLowerCase());
    return byValue?.value;
  };
  if (request.interaction_type === 'MULTI_SELECT') {
    const picked = text.split(',').map((w) => pick(w.trim()));
    if (picked.some((p) => p === undefined)) return { ok: false, message: attachPhrase('answer.pick_several', [options.length], lang) };
    return { ok: true, payload: { ...base, selected_value: picked as string[] } };
  }
  const value = pick(text);
  if (value === undefined) return { ok: false, message: attachPhrase('answer.pick_one', [options.length], lang) };
  return { ok: true, payload: { ...base, selected_value: value } };
}

/**
 * A line that looks like an answer (option numbers) typed when no question waits, in a session
 * that has asked questions: most likely an answer to one another master answered a moment earlier.
 * It is held once, with a word why; the same line typed again goes out as a prompt (decision 586).
 */
export function looksLikeLateAnswer(text: string, questionsAsked: number): boolean {
  return questionsAsked > 0 && /^\d+(\s*,\s*\d+)*$/.test(text.trim());
}
