// The clause catalogue of RAWP-DPS 1.0.1: every MUST / MUST NOT / SHOULD / SHOULD NOT the spec
// marks with "(MUST)" etc., owned by this project so the conformance map needs nothing outside
// the repository (issue 14 items 1 and 4). The texts are our own one-line English paraphrases.
//
// Ids are stable: `§<section>-<n>`. MUST and MUST NOT clauses are numbered in the order they
// appear in their section (the ids test titles already cite); SHOULD and SHOULD NOT clauses
// continue the count after them, so adding them moved no existing id. A clause inside a numbered
// bold list item that has no heading of its own (§15 "1. **…**") also carries that item's number
// as `alias` (§15.1); such an alias cites the clause only when it names exactly one clause.
//
// owners: who must keep it. `client` = the local client (this extension, `rawp serve`: engine, hub,
// adapters); `master` = the other side of the connection (our masters: the webview chat, the
// browser master, `rawp attach`); `composer` = whoever builds `prompt_text` (our webview composer
// and `rawp attach`). A clause the spec puts on every receiver or every implementation has both
// `client` and `master`. `relay` = a master that relays the session to edge connections (RAWP 1.0.2
// edge WSS); our masters relay to nobody, so such a clause binds no code here, no test can cover
// it, and its `note` says why (decision 260). docs/protocol/clauses.md is rendered from this list.

export type Owner = 'client' | 'master' | 'composer' | 'relay';
export type Keyword = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT';

export interface CatalogueClause {
  /** `§7.5.3-1`. */
  id: string;
  section: string;
  keyword: Keyword;
  owners: readonly Owner[];
  /** One line, in our words. */
  text: string;
  /** The numbered list item the clause sits in, for sections that number their rules (`15.1`). */
  alias?: string;
  /** Why the clause has the owner it has, where that is not obvious (every `relay` clause). */
  note?: string;
}

export const SPEC = { name: 'RAWP-DPS', version: '1.0.1', protocol: 'rawp-dps-1.0' } as const;
export const SPEC_TITLE = `${SPEC.name} ${SPEC.version} (\`${SPEC.protocol}\`)`;

const BOTH: readonly Owner[] = ['client', 'master'];
const CLIENT: readonly Owner[] = ['client'];
const MASTER: readonly Owner[] = ['master'];
const COMPOSER: readonly Owner[] = ['composer'];
const RELAY: readonly Owner[] = ['relay'];

/** A clause only a master with edge connections can keep (decision 260), with the spec's reason. */
function relay(id: string, keyword: Keyword, text: string, note: string): CatalogueClause {
  return { ...c(id, keyword, RELAY, text), note };
}

function c(id: string, keyword: Keyword, owners: readonly Owner[], text: string, alias?: string): CatalogueClause {
  const section = /^§(.+)-\d+$/.exec(id)![1];
  return alias ? { id, section, keyword, owners, text, alias } : { id, section, keyword, owners, text };
}

export const CLAUSES: readonly CatalogueClause[] = [
  c('§1.3-1', 'MUST', BOTH, 'Speak only this protocol version, rawp-dps-1.0.'),
  c('§2.1-1', 'MUST', BOTH, 'Every frame sent or received follows the common envelope (v, type, message_id, timestamp, session_id, payload).'),
  c('§2.1-2', 'MUST', BOTH, 'A frame whose envelope `v` the receiver does not support is ignored and answered with session.error.'),
  c('§2.1-3', 'SHOULD', BOTH, 'Timestamps carry millisecond precision.'),
  c('§2.2-1', 'MUST', BOTH, 'Unknown keys inside a payload are ignored.'),
  c('§2.2-2', 'MUST', BOTH, 'A frame of a type the receiver cannot handle is ignored and logged.'),
  c('§2.2-3', 'MUST NOT', BOTH, 'An unknown type never raises an error or closes the connection.'),
  c('§2.2-4', 'MUST', BOTH, 'A frame whose `v` is out of the supported range is ignored and a session.error is sent.'),
  c('§2.3-1', 'MUST', MASTER, 'History replayed by session.history after a reattach is put back in order by timestamp, then message_id.'),
  c('§2.4-1', 'MUST', CLIENT, 'Every DPS frame of an agent session is broadcast to every connection bound to that session.'),
  c('§2.4-2', 'MUST', CLIENT, 'Agent output frames (agent.*, tool.*, session.*) go to every connection bound to the session.'),
  c('§2.4-3', 'MUST', CLIENT, 'control.* frames a master sends are relayed to every other connection of the session.'),
  c('§2.4-4', 'MUST', CLIENT, 'The local UI connection is one of the broadcast targets too.'),
  c('§2.4-5', 'MUST NOT', CLIENT, 'Frames of a local session (origin "local") are never sent to masters.'),
  c('§2.4-6', 'MUST', CLIENT, 'Relaying control.* frames is idempotent by message_id, so no sender gets its own frame back.'),
  c('§3.1.1-1', 'MUST', BOTH, 'Custom events outside this spec use an `x-{vendor}` type prefix.'),
  c('§3.2-1', 'MUST', BOTH, 'Only the event types of this spec are used (no legacy names).'),
  c('§4.4.1-1', 'MUST', CLIENT, 'After an agent.error with severity fatal the client cleans up the agent process.'),
  c('§5.3.3-1', 'MUST', CLIENT, 'tool.invoke.result output_type is chosen by the priority rules of §5.3.3 (declaration, then category).'),
  c('§5.3.3-2', 'MUST', CLIENT, 'When no rule decides, output_type is `text`.', '5.3.3.3'),
  relay('§5.4.1-1', 'MUST', 'The master does not send tool.invoke.request for a tool whose status is unavailable.', 'tool.invoke.request goes Client -> Master (§5.2.1), so only a master forwarding it to edge connections sends one; ours forward to nobody (they still refuse such a call, §5.4.1-3).'),
  c('§5.4.1-2', 'MUST', CLIENT, 'When a tool\'s status changes (e.g. unavailable -> available after an install), the client re-sends tool.catalog.publish.'),
  c('§5.4.1-3', 'MUST', MASTER, 'The master blocks use of a tool whose catalog entry has a fatal diagnostic.'),
  c('§5.4.1-4', 'SHOULD', MASTER, 'A degraded tool may be used, but the user is told what is limited.'),
  c('§5.4.1-5', 'SHOULD', CLIENT, 'An unavailable or degraded tool says why in status_description.'),
  c('§5.4.1-6', 'SHOULD', MASTER, 'The master warns the user about a tool whose catalog entry has an error diagnostic.'),
  c('§6.1.2-1', 'MUST', CLIENT, 'On control.prompt.cancel the client stops the running tool as soon as it can and sends agent.text.done with is_cancelled: true.'),
  c('§6.3.1-1', 'MUST', CLIENT, 'An agent that announced context_compaction compacts when context utilization reaches 0.95.'),
  c('§6.3.1-2', 'MUST', CLIENT, 'A client without context_compaction answers control.session.compact with session.error COMPACTION_NOT_SUPPORTED (not fatal).'),
  c('§6.3.1-3', 'SHOULD', CLIENT, 'An agent that announced context_compaction considers compacting from 0.80 utilization.'),
  c('§6.3.2-1', 'MUST', CLIENT, 'A call of a tool category the current mode forbids is blocked and answered with an error result "Tool not allowed in current mode".'),
  c('§6.3.2-2', 'MUST NOT', CLIENT, 'The mode does not change while a turn is running (between turn.start and turn.end).'),
  c('§6.3.2-3', 'MUST', CLIENT, 'control.mode.switch during a turn is answered with session.error MODE_SWITCH_DURING_TURN (not fatal).'),
  c('§6.3.2-4', 'MUST', CLIENT, 'A successful mode switch sends agent.state.changed with reason mode_switch.'),
  c('§6.3.2-5', 'MUST', CLIENT, 'The first session.turn.start after a mode switch carries the new mode.'),
  c('§6.3.2-6', 'MUST', CLIENT, 'A client without plan_mode answers control.mode.switch with session.error MODE_NOT_SUPPORTED (not fatal).'),
  c('§6.3.2-7', 'MUST NOT', MASTER, 'A master never sends control.mode.switch to a client that did not announce plan_mode.'),
  c('§7.1.1-1', 'MUST', MASTER, 'When session.history says buffer_status.truncated, the master tells the user the history is incomplete.'),
  c('§7.3.1-1', 'MUST', CLIENT, 'A session.usage accompanies the end of text generation (agent.text.done) or the end of the turn.'),
  c('§7.5.2-1', 'MUST', CLIENT, 'session.turn.end is followed right away by session.usage.'),
  c('§7.5.3-1', 'MUST', CLIENT, 'When a session ends (DELETE, or a fatal session.error) during a turn, the clean-up frames go out in the §7.5.3 order.'),
  c('§7.5.3-2', 'MUST', CLIENT, 'All clean-up frames are sent before the connection closes.'),
  relay('§7.6.1-1', 'MUST', 'The master broadcasts session.renamed to every edge connection of the session.', 'The clause names the master\'s edge WSS connections; our masters have none (the client\'s own broadcast is §2.4-2).'),
  c('§7.7.1-1', 'MUST', CLIENT, 'session.deleted is sent after the §7.5.3 clean-up frames and right before the connection closes.'),
  relay('§7.7.1-2', 'MUST', 'The master broadcasts session.deleted to every edge connection of the session.', 'The clause names the master\'s edge WSS connections; our masters have none (the client\'s own broadcast is §2.4-2).'),
  c('§7.8.1-1', 'MUST', BOTH, 'On a connection close or error the receiving side at once finalizes what was left open in the session (§7.8.1 rules).'),
  c('§7.8.1-2', 'MUST', BOTH, 'Results synthesized by finalization carry synthetic: true.'),
  c('§7.8.1-3', 'MUST', BOTH, 'Every locally synthesized block (cancelled result, ended turn) carries synthetic: true in the envelope metadata.'),
  c('§7.8.2-1', 'MUST', BOTH, 'Finalization runs on each trigger of §7.8.2 (disconnect, app restart, reattach window over).'),
  c('§7.8.3-1', 'MUST', MASTER, 'A reattach within the window that receives session.history undoes the earlier finalization.'),
  c('§9.2-1', 'SHOULD', CLIENT, 'After sending a plan the agent asks for approval with a YN agent.interaction.request.'),
  c('§10.2-1', 'MUST', CLIENT, 'Every frame produced inside a subagent carries metadata.subagent_context.'),
  c('§10.2-2', 'MUST', MASTER, 'A frame without subagent_context (or with null) is treated as the main agent\'s (depth 0).'),
  c('§10.2-3', 'MUST', CLIENT, 'subagent_context is on all agent.*, tool.* and session.* frames inside a subagent.'),
  c('§10.3.1-1', 'MUST', CLIENT, 'agent.subagent.started follows right after the tool.invoke.request that spawns the subagent.'),
  c('§10.3.2-1', 'MUST', CLIENT, 'agent.subagent.ended comes right before the tool.invoke.result (output_type agent_result) of the spawning call.'),
  c('§10.5-1', 'MUST', CLIENT, 'session.usage inside a subagent is reported on its own, with subagent_context.'),
  c('§10.6-1', 'MUST NOT', MASTER, 'Masters do not try to group messages of a client that announced subagent_context: false.'),
  c('§10.7-1', 'MUST', CLIENT, 'A client that does not support subagent_context omits it or sets it to null.'),
  c('§12.2.1-1', 'MUST NOT', BOTH, 'No side sends events of a feature the other side did not announce.'),
  c('§12.2.1-2', 'MUST', BOTH, 'The file-reference capability filtering rules (§12.2.1-3, -4) apply.'),
  c('§12.2.1-3', 'MUST NOT', MASTER, 'A master does not send control.file.search unless the client announced file_search_fuzzy: true.'),
  c('§12.2.1-4', 'MUST', CLIENT, 'A client without file_reference that gets file_references extracts the tokens (§16.2.2) and passes display_path as literal text.'),
  c('§13.1-1', 'MUST', BOTH, 'Right after a connection opens both sides negotiate capabilities and the client announces its tools and commands.'),
  c('§13.1-2', 'MUST', BOTH, 'The session.capabilities exchange comes before every other event.'),
  c('§13.1-3', 'MUST', CLIENT, 'tool.catalog.publish and agent.commands.publish come after session.capabilities and before the first control.prompt.request.'),
  c('§13.1-4', 'SHOULD', CLIENT, 'The client signals it is ready for prompts with agent.state.changed (current_state idle).'),
  c('§13.1-5', 'SHOULD NOT', MASTER, 'A master does not send control.prompt.request before it has seen agent.state.changed idle.'),
  c('§14.1-1', 'MUST', BOTH, 'Every implementation uses only this spec (rawp-dps-1.0).'),
  c('§14.2-1', 'MUST', BOTH, 'Frames of an unknown type are ignored.', '14.2.1'),
  c('§14.2-2', 'MUST NOT', BOTH, 'An unknown type raises no error and does not close the connection.', '14.2.1'),
  c('§14.2-3', 'MUST', BOTH, 'Unknown keys inside a payload are ignored.', '14.2.2'),
  c('§14.2-4', 'MUST NOT', BOTH, 'Events of a feature not announced in session.capabilities are not sent.', '14.2.3'),
  c('§15-1', 'MUST', CLIENT, 'The client refuses a call of a tool_name that is not in its announced catalog.', '15.1'),
  c('§15-2', 'MUST NOT', CLIENT, 'A subagent\'s allowed_tools never reach beyond its parent agent\'s tools.', '15.2'),
  c('§15-3', 'MUST NOT', MASTER, 'The master never shows the user the raw text of a thinking delta marked redacted.', '15.3'),
  c('§15-4', 'MUST', MASTER, 'Structured output with validation_status failed is validated again before the master passes it on.', '15.4'),
  c('§16.2.1-1', 'MUST', COMPOSER, 'File-reference tokens are created only by the UI\'s file picker.'),
  c('§16.2.1-2', 'MUST NOT', COMPOSER, 'Text the user types never becomes a file-reference token.'),
  c('§16.2.1-3', 'MUST', CLIENT, 'Tokens are found with the spec\'s regular expression, which matches only unescaped tokens.'),
  c('§16.2.1-4', 'MUST', CLIENT, 'A token whose ref_id is not in file_references is kept as literal text.'),
  c('§16.2.1-5', 'MUST NOT', CLIENT, 'Such a token is never dropped or deleted.'),
  c('§16.2.2-1', 'MUST', COMPOSER, 'Whoever builds prompt_text escapes the parts the user typed.'),
  c('§16.2.2-2', 'MUST', COMPOSER, 'Tokens inserted by the file picker are not escaped.'),
  c('§16.2.2-3', 'MUST', CLIENT, 'The receiving client extracts tokens first, then unescapes the remaining text, in the §16.2.2 order.'),
  c('§16.2.2-4', 'MUST', CLIENT, 'The parsing order of §16.2.2 is followed step by step.'),
  c('§16.3-1', 'MUST', CLIENT, 'The client converts inline tokens into the form each agent needs (§16.3 table).'),
  c('§16.3-2', 'MUST', CLIENT, 'A token the client cannot convert reaches the agent as its display_path in literal text.'),
  c('§16.3-3', 'MUST NOT', CLIENT, 'No token is ignored or deleted during conversion.'),
  c('§17.2.1-1', 'MUST', CLIENT, 'A process agent is started with RAWP_SESSION_ID, RAWP_WORKSPACE_PATH and RAWP_DPS_VERSION in its environment.'),
  c('§17.2.2-1', 'MUST', CLIENT, 'When an agent process exits, its exit code maps to the DPS events of the §17.2.2 table.'),
  c('§17.3.1-1', 'MUST', CLIENT, 'control.interaction.timeout makes the SDK permission callback answer "deny".'),
  c('§17.3.1-2', 'MUST', CLIENT, 'A permission agent.interaction.request names the tool in context.tool_name.'),
  c('§17.3.2-1', 'MUST', CLIENT, 'A session runs at most one prompt at a time.'),
  c('§17.3.2-2', 'MUST', CLIENT, 'A control.prompt.request during a turn is refused with session.error PROMPT_IN_PROGRESS (not fatal).'),
  c('§17.4-1', 'SHOULD', CLIENT, 'The client reports the adapter type (features.adapter_type: process | sdk) in session.capabilities.'),
  c('§18.3-1', 'MUST', CLIENT, 'An agent session id the agent reports during its first turn is kept by the client (for --resume).'),
];
