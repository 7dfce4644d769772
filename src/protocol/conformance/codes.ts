// Every problem `rawp validate` can report: a short UPPER_SNAKE code, its severity, the clause it
// enforces and one line of explanation. `rawp validate --help` prints this table, so adding a
// check means adding its code here first.
export type Severity = 'error' | 'warning';

export interface CodeInfo {
  severity: Severity;
  /** The clause id of the catalogue (`§6.3.2-5`) the check enforces, or its section where the
   * spec states the rule without a MUST of its own (`§4.2.2`, `§10.2`). */
  clause: string;
  summary: string;
}

export const CODES = {
  // Frame by frame (parseFrame, §2).
  MALFORMED_JSON: { severity: 'error', clause: '§2.1-1', summary: 'the line is not valid JSON' },
  INVALID_ENVELOPE: { severity: 'error', clause: '§2.1-1', summary: 'the envelope misses or mistypes a field (type, message_id, timestamp, session_id, payload…)' },
  UNSUPPORTED_VERSION: { severity: 'error', clause: '§2.1-2', summary: 'envelope `v` is missing or not 1; a receiver ignores the frame and answers session.error' },
  INVALID_PAYLOAD: { severity: 'error', clause: '§2.1-1', summary: 'the payload of a known type breaks its schema (the field path is named)' },
  UNKNOWN_TYPE: { severity: 'error', clause: '§3.1.1-1', summary: 'a type this spec does not define and not x-{vendor}.* (custom types must use the x- prefix); receivers ignore it' },
  DUPLICATE_MESSAGE_ID: { severity: 'warning', clause: '§2.1', summary: 'a message_id seen before; receivers drop it as a duplicate, so it is not checked further' },
  MESSAGE_ID_NOT_UUID: { severity: 'warning', clause: '§2.1', summary: 'message_id is not a UUID v4 (accepted, see docs/decisions/001-identifiers-any-string.md)' },
  TIMESTAMP_BACKWARDS: { severity: 'warning', clause: '§2.3', summary: 'a frame is stamped earlier than the previous frame of its session' },
  // Session set-up (§13.1).
  BEFORE_CAPABILITIES: { severity: 'error', clause: '§13.1-2', summary: 'a frame before the session.capabilities exchange (client frames need one, control.* frames both)' },
  PROMPT_BEFORE_CATALOG: { severity: 'error', clause: '§13.1-3', summary: 'the first control.prompt.request comes before any tool.catalog.publish' },
  PROMPT_BEFORE_COMMANDS: { severity: 'error', clause: '§13.1-3', summary: 'the first control.prompt.request comes before any agent.commands.publish' },
  FEATURE_NOT_ANNOUNCED: { severity: 'error', clause: '§12.2.1-1', summary: 'a frame (or field: structured_output) needing a feature the receiving side did not announce (1st, 3rd… capabilities = client, 2nd… = master)' },
  // Turns (§7.5).
  TURN_OVERLAP: { severity: 'error', clause: '§17.3.2-1', summary: 'session.turn.start while a turn of the same agent is still open' },
  TURN_INDEX_ORDER: { severity: 'error', clause: '§7.5.1', summary: 'turn_index does not count 0, 1, 2… per session (and per subagent)' },
  TURN_END_WITHOUT_START: { severity: 'error', clause: '§7.5.2', summary: 'session.turn.end with no open turn' },
  TURN_ID_MISMATCH: { severity: 'error', clause: '§7.5.2', summary: 'session.turn.end names another turn_id than the open turn' },
  USAGE_NOT_AFTER_TURN_END: { severity: 'error', clause: '§7.5.2-1', summary: 'the next frame after session.turn.end is not session.usage' },
  DELETED_MID_TURN: { severity: 'error', clause: '§7.7.1-1', summary: 'session.deleted while a turn is open: cancelled tool results and session.turn.end (error) must come first' },
  TURN_OPEN_AT_END: { severity: 'warning', clause: '§7.5.2', summary: 'the stream ends mid-turn; what is pending in that turn is not reported again' },
  // Text and thinking blocks (§4.1, §4.2).
  TEXT_BLOCK_UNCLOSED: { severity: 'error', clause: '§4.1.2', summary: 'agent.text.delta block (content_index) never closed by agent.text.done in its turn' },
  TEXT_DELTA_AFTER_DONE: { severity: 'error', clause: '§4.1.2', summary: 'agent.text.delta for a content_index already closed by agent.text.done in this turn' },
  THINKING_BLOCK_UNCLOSED: { severity: 'error', clause: '§4.2.2', summary: 'agent.thinking.delta block never closed by agent.thinking.done in its turn' },
  THINKING_DELTA_AFTER_DONE: { severity: 'error', clause: '§4.2.2', summary: 'agent.thinking.delta for a content_index already closed by agent.thinking.done in this turn' },
  // Set-up, prompts, compaction, the end (§13.1, §17.3.2, §6.3.1, §7.7.1, §4.4.1, §7.4.1).
  CATALOG_BEFORE_EXCHANGE: { severity: 'error', clause: '§13.1-3', summary: 'tool.catalog.publish or agent.commands.publish before the session.capabilities exchange was complete (the peer\'s came later)' },
  PROMPT_NOT_REFUSED: { severity: 'error', clause: '§17.3.2-2', summary: 'a control.prompt.request during a turn not answered with session.error PROMPT_IN_PROGRESS before that turn ended' },
  COMPACTION_NOT_REFUSED: { severity: 'error', clause: '§6.3.1-2', summary: 'control.session.compact to a client without context_compaction not answered with session.error COMPACTION_NOT_SUPPORTED' },
  COMPACTED_WITHOUT_CAPABILITY: { severity: 'error', clause: '§6.3.1', summary: 'session.compacted from a client that did not announce context_compaction' },
  FRAME_AFTER_DELETED: { severity: 'error', clause: '§7.7.1-1', summary: 'a frame after the session.deleted that ended the session (it comes right before the close)' },
  LIFE_AFTER_FATAL: { severity: 'error', clause: '§7.5.3-1', summary: 'after a fatal agent.error or session.error, a frame other than the §7.5.3 clean-up and session.deleted' },
  // Modes (§6.3.2).
  MODE_SWITCH_NOT_REFUSED: { severity: 'error', clause: '§6.3.2-3', summary: 'control.mode.switch during a turn not answered with session.error MODE_SWITCH_DURING_TURN before the turn ended' },
  MODE_SWITCHED_DURING_TURN: { severity: 'error', clause: '§6.3.2-2', summary: 'a control.mode.switch received during a turn was carried out (agent.state.changed mode_switch) before the turn ended' },
  MODE_NOT_SUPPORTED_NOT_REFUSED: { severity: 'error', clause: '§6.3.2-6', summary: 'control.mode.switch to a client without plan_mode not answered with session.error MODE_NOT_SUPPORTED (or carried out)' },
  TURN_MODE_MISSING: { severity: 'error', clause: '§6.3.2-5', summary: 'the first session.turn.start after a mode switch has no `mode`' },
  TOOL_NOT_ALLOWED_IN_MODE: { severity: 'error', clause: '§6.3.2-1', summary: 'a shell or file-writing tool in plan/review mode whose result is not the error "Tool not allowed in current mode"' },
  // Cancellation (§6.1.2).
  CANCEL_TEXT_DONE_MISSING: { severity: 'error', clause: '§6.1.2-1', summary: 'a turn cancelled by control.prompt.cancel ends without an agent.text.done with is_cancelled: true' },
  CANCEL_STOP_REASON: { severity: 'error', clause: '§6.1.2-1', summary: 'a turn cancelled by control.prompt.cancel ends with another stop_reason than cancelled (or error when the session ends)' },
  CANCEL_RESULT_NOT_CANCELLED: { severity: 'error', clause: '§6.1.2-1', summary: 'a tool call running when its turn was cancelled is answered with another status than cancelled' },
  // Tool calls (§5).
  DUPLICATE_INVOCATION_ID: { severity: 'error', clause: '§5.2.1', summary: 'a second tool.invoke.request with an invocation_id already used' },
  TOOL_RESULT_WITHOUT_REQUEST: { severity: 'error', clause: '§5.3.1', summary: 'tool.invoke.result whose invocation_id no earlier request carried' },
  TOOL_DUPLICATE_RESULT: { severity: 'error', clause: '§5.3.1', summary: 'a second tool.invoke.result for one invocation' },
  TOOL_NAME_MISMATCH: { severity: 'error', clause: '§5.3.1', summary: 'result or stream names another tool_name than its request' },
  TOOL_UNANSWERED: { severity: 'error', clause: '§5.3.1', summary: 'tool.invoke.request never answered by a tool.invoke.result (unless the stream ends mid-turn)' },
  TOOL_STREAM_ORPHAN: { severity: 'error', clause: '§5.3.2', summary: 'tool.invoke.stream for an invocation that is not running (no request, or already answered)' },
  TOOL_STREAM_SEQUENCE: { severity: 'error', clause: '§5.3.2', summary: 'tool.invoke.stream sequence does not count 0, 1, 2… without gaps per invocation' },
  TOOL_NOT_IN_CATALOG: { severity: 'error', clause: '§15-1', summary: 'a tool the last tool.catalog.publish did not list was run (its result is not an error); a refused call is fine' },
  TOOL_UNAVAILABLE: { severity: 'warning', clause: '§5.4.1', summary: 'a tool the catalog marks unavailable or with a fatal diagnostic was run (its result is not an error)' },
  OUTPUT_TYPE_MISMATCH: { severity: 'error', clause: '§5.3.3-1', summary: 'output_type differs from the catalog declaration or the single default of its category' },
  OUTPUT_TYPE_UNEXPECTED: { severity: 'warning', clause: '§5.3.3', summary: 'output_type outside the alternatives of its category, or not the `text` fallback' },
  // Subagents (§10).
  SUBAGENT_STARTED_ORDER: { severity: 'error', clause: '§10.3.1-1', summary: 'agent.subagent.started is not the frame right after its tool.invoke.request (with `subagent`)' },
  SUBAGENT_ENDED_ORDER: { severity: 'error', clause: '§10.3.2-1', summary: 'agent.subagent.ended is not the frame right before its tool.invoke.result (agent_result)' },
  SUBAGENT_RESULT_TYPE: { severity: 'error', clause: '§10.3.2-1', summary: 'the tool.invoke.result of a subagent-spawning call is not output_type agent_result' },
  SUBAGENT_CONTEXT_INVALID: { severity: 'error', clause: '§10.2', summary: 'metadata.subagent_context names no running subagent, or the wrong depth' },
  SUBAGENT_CONTEXT_MISSING: { severity: 'error', clause: '§10.2', summary: 'a text, thinking or turn frame while a subagent runs has no subagent_context although the client announced subagent_context' },
  // Interactions (§4.3, §6.2).
  PERMISSION_WITHOUT_TOOL_NAME: { severity: 'error', clause: '§17.3.1-2', summary: 'a PERMISSION agent.interaction.request without context.tool_name' },
  INTERACTION_UNANSWERED: { severity: 'warning', clause: '§6.2', summary: 'agent.interaction.request never answered by control.interaction.response or .timeout' },
  INTERACTION_UNKNOWN: { severity: 'warning', clause: '§6.2.1', summary: 'control.interaction.response/.timeout for an interaction_id never requested' },
} as const satisfies Record<string, CodeInfo>;

export type ProblemCode = keyof typeof CODES;
export const PROBLEM_CODES = Object.keys(CODES) as ProblemCode[];

export function severityOf(code: ProblemCode): Severity {
  return CODES[code].severity;
}
