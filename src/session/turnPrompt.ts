// From a master's control.prompt.request to the AgentPrompt an adapter runs: the prompt text as
// this agent reads it (§16.3 tokens) and the turn's overrides (§6.1.1, §11), checked before any
// turn starts so a prompt that cannot be honoured is refused, not half-run.
import type { AgentCapabilities, AgentInfo, AgentPrompt } from './agentAdapter';
import type { AgentModeName } from '../protocol/common';
import { decodePrompt, literalText } from '../protocol/fileReference';
import type { PayloadOf } from '../protocol/frameTypes';
import type { ActiveTurn } from './activeTurn';
import type { SchemaValidator } from './structuredOutput';
import { TurnOverrides } from './turnOverrides';

type PromptRequest = PayloadOf<'control.prompt.request'>;

export type PreparedPrompt =
  | { ok: true; text: string; overrides: TurnOverrides; file_references: AgentPrompt['file_references'] }
  | { ok: false; error_code: string; message: string };

export interface PromptPreparation {
  /** The host's own conversion (§16.3), instead of the default one below. */
  preparePrompt?: (prompt: PromptRequest) => string;
  schemaValidator?: SchemaValidator;
  /** The engine's adapter: an agent without a model (`grammarOnly`) cannot give a structured answer. */
  adapter?: { info: AgentInfo };
}

export function prepareTurnPrompt(payload: PromptRequest, capabilities: AgentCapabilities, how: PromptPreparation): PreparedPrompt {
  let text: string;
  // §12.2.1-4 / §16.3-2: an agent that did not announce `file_reference` gets no tokens to
  // convert: each becomes its display_path as literal text (escapes undone, §16.2.2), once,
  // here, for every adapter.
  const interprets = capabilities.features.file_reference === true;
  try {
    if (how.preparePrompt) text = how.preparePrompt(payload);
    else text = interprets ? payload.prompt_text : literalText(decodePrompt(payload.prompt_text, payload.file_references));
  } catch (e) {
    return { ok: false, error_code: 'INVALID_PROMPT', message: `the prompt could not be prepared for the agent: ${e instanceof Error ? e.message : String(e)}` };
  }
  // §6.1.1 / §11: a schema that cannot be honoured is refused before any turn starts. The schema's
  // instruction would reach a grammar as lines of requests it does not know (the trial of
  // 2026-12-06: "15 requests, 14 failed", then a failed validation).
  if (payload.config_overrides?.json_schema && how.adapter?.info.grammarOnly) {
    return { ok: false, error_code: 'STRUCTURED_OUTPUT_NOT_SUPPORTED', message: `${how.adapter.info.displayName} follows a fixed grammar, not a language model, and cannot give an answer in a JSON schema's shape; the prompt was not run (choose an agent with a model)` };
  }
  const prepared = TurnOverrides.prepare(payload.config_overrides, capabilities.native_overrides ?? {}, how.schemaValidator);
  if (!prepared.ok) return { ok: false, error_code: prepared.error_code, message: prepared.message };
  const overrides = prepared.overrides;
  return { ok: true, text: overrides.promptText(text), overrides, file_references: interprets ? (payload.file_references ?? []) : [] };
}

/** What the adapter's prompt() gets for `turn`. */
export function agentPromptFor(payload: PromptRequest, prepared: Extract<PreparedPrompt, { ok: true }>, turn: ActiveTurn, mode: AgentModeName): AgentPrompt {
  const agentPrompt: AgentPrompt = {
    turn_id: turn.id,
    turn_index: turn.index,
    text: prepared.text,
    input_type: payload.input_type ?? 'text',
    mode,
    file_references: prepared.file_references,
    context_files: payload.context_files ?? [],
    ...prepared.overrides.forAdapter(),
  };
  if (turn.allowed_tools) agentPrompt.allowed_tools = turn.allowed_tools;
  if (turn.denied_tools) agentPrompt.denied_tools = turn.denied_tools;
  return agentPrompt;
}
