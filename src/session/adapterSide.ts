// The adapter's side of the engine (engine.ts): the AgentHost an adapter is given, and the route
// of every frame it emits — validated (adapterEvents.ts), held back until the §13.1 opening went
// out, cut at max_turns (§6.1.1), turn content into the running turn's stream, the rest out with
// the session's own bookkeeping (catalog, commands, state, usage, fatal errors).
import type { AgentEvent, AgentHost, InteractionAnswer } from './agentAdapter';
import type { ActiveTurn } from './activeTurn';
import { screenAdapterEvent } from './adapterEvents';
import type { AgentCatalog } from './agentCatalog';
import type { BetweenTurns } from './betweenTurns';
import type { ContextFileSource, FileTransferPayload, OutgoingFile, ResolvedContextFile } from './contextFiles';
import type { PermissionBroker } from './permissions/broker';
import { RuleAllowedCalls } from './permissions/ruleAllowedCalls';
import type { Logger } from './ports';
import type { UsageLedger } from './usage';
import { newId } from '../protocol/build';
import type { Metadata } from '../protocol/envelope';
import { TURN_CONTENT_TYPES, type FrameType, type PayloadOf } from '../protocol/frameTypes';

/** What the adapter's side needs of its session (engine.ts wires it). */
export interface AdapterSideSession {
  session_id: string;
  agent_id: string;
  workspacePath: string;
  declared: AgentCatalog;
  betweenTurns: BetweenTurns;
  usage: UsageLedger;
  permissions: PermissionBroker;
  contextFiles: ContextFileSource;
  localCopy?: (file: ResolvedContextFile) => Promise<string>;
  logger: Logger;
  ready(): boolean;
  ending(): boolean;
  turn(): ActiveTurn | undefined;
  /** §6.1.1: the turn began a step beyond its max_turns. */
  stopAtLimit(turn: ActiveTurn): void;
  askUser(request: PayloadOf<'agent.interaction.request'>, metadata: Metadata | undefined): Promise<InteractionAnswer>;
  publishFile(file: OutgoingFile): Promise<FileTransferPayload>;
  setState(next: string, reason?: string): void;
  emit<T extends FrameType>(type: T, payload: PayloadOf<T>, ctx?: { metadata?: Metadata }): void;
  /** §4.4.1: a fatal agent.error ends the session. */
  endOnFatal(): void;
  /** §7.4.1: a fatal session.error from the agent: report it and end the session. */
  fail(error_code: string, message: string): void;
  /** §18.3: the agent named its own session id (agentSessionReport.ts). */
  agentSession(agent_session_id: string): void;
  /** The agent's title for the session (agentTitles.ts decides, decision 725). */
  agentTitle(title: string): void;
}

/** Engine-owned frame types an adapter emitted, per session: each is logged once (decision 725). */
const warned = new WeakMap<AdapterSideSession, Set<string>>();

/** The host object the adapter talks to; `mode` is a live getter. */
export function agentHostFor(s: AdapterSideSession): AgentHost {
  // Calls a rule let run unasked, until their result says so (decision 695).
  const byRule = new RuleAllowedCalls();
  return {
    session_id: s.session_id,
    workspacePath: s.workspacePath,
    get mode() {
      return s.betweenTurns.mode;
    },
    emit: (event) => routeAdapterEvent(s, byRule.told(event)),
    ...(s.localCopy ? { localCopy: s.localCopy } : {}),
    checkTool: (tool_name, input, context) => {
      const turn = s.turn();
      const verdict = turn ? turn.stream.check(tool_name, input, context?.parent_invocation_id) : undefined;
      const v = verdict ?? { allowed: false as const, message: 'No turn is running' };
      return v.allowed ? { allowed: true } : { allowed: false, message: v.message, ...('code' in v ? { code: v.code } : {}) };
    },
    requestInteraction: (request, options) => s.askUser(request, options?.metadata),
    askPermission: async (question, options) => {
      const verdict = await s.permissions.ask(question, {
        session_id: s.session_id,
        agent_id: s.agent_id,
        requestInteraction: (request, o) => s.askUser(request, o?.metadata),
        newId,
        ...(options?.metadata ? { metadata: options.metadata } : {}),
      });
      byRule.note(question.invocation_id, verdict);
      return verdict;
    },
    policy: s.permissions.policy,
    reportMode: (mode) => s.betweenTurns.adoptAgentMode(mode),
    reportAgentSession: (id) => s.agentSession(id),
    contextFiles: s.contextFiles,
    publishFile: (file) => s.publishFile(file),
  };
}

/** Every frame an adapter emits passes here: validated, then policy, then out. Never throws. */
export function routeAdapterEvent(s: AdapterSideSession, event: AgentEvent): void {
  try {
    if (s.ending()) return s.logger.debug(`adapter frame ${event.type} after session end dropped`);
    // An adapter's session.renamed is its agent's title: the engine decides, and renames itself (725).
    if (event.type === 'session.renamed') return typeof event.payload?.name === 'string' ? s.agentTitle(event.payload.name) : undefined;
    let seen = warned.get(s);
    if (!seen) warned.set(s, (seen = new Set()));
    const screened = screenAdapterEvent(event, s.declared.tools, s.logger, seen);
    if (!screened) return;
    event = screened;
    if (!s.ready()) {
      // §13.1: nothing may precede session.capabilities. A catalog or command list the agent sends
      // while starting is folded into the opening frames; anything else is dropped.
      if (event.type === 'tool.catalog.publish') s.declared.setTools(event.payload);
      else if (event.type === 'agent.commands.publish') s.declared.setCommands(event.payload);
      else s.logger.warn(`adapter emitted ${event.type} before the session was ready; dropped`);
      return;
    }
    const turn = s.turn();
    // §6.1.1 max_turns for agents without their own cap: a step too many stops the turn.
    if (turn && !turn.stream.cancelling && !turn.overrides.admit(event)) return s.stopAtLimit(turn);
    if (TURN_CONTENT_TYPES.has(event.type)) {
      if (!turn) return s.logger.warn(`adapter emitted ${event.type} outside a turn; dropped`);
      return turn.stream.accept(event);
    }
    switch (event.type) {
      case 'tool.catalog.publish':
        s.declared.setTools(event.payload);
        return s.emit(event.type, event.payload, { metadata: event.metadata });
      case 'agent.commands.publish':
        s.declared.setCommands(event.payload);
        return s.emit(event.type, event.payload, { metadata: event.metadata });
      case 'agent.state.changed':
        return s.setState(event.payload.current_state, event.payload.reason);
      case 'agent.error':
        s.emit(event.type, event.payload, { metadata: event.metadata });
        if (event.payload.severity === 'fatal') s.endOnFatal();
        return;
      case 'session.compacted':
        s.emit(event.type, event.payload, { metadata: event.metadata });
        s.usage.compacted(event.payload.current_token_count);
        return;
      case 'session.error':
        if (event.payload.fatal) return s.fail(event.payload.error_code, event.payload.message);
        return s.emit(event.type, event.payload, { metadata: event.metadata });
      case 'session.usage': {
        // An adapter's report of its own scope (a subagent's, §10.5): its tokens as given, the
        // session's cost and prompt counters from the ledger (the adapter keeps neither); the
        // ledger's context is the main agent's and is left alone. In a turn, the turn's stream
        // fills in the subagent_context (decision 631).
        const usage = { ...event, payload: s.usage.withSessionCounters(event.payload) };
        if (turn) return turn.stream.accept(usage);
        return s.emit(usage.type, usage.payload, { metadata: usage.metadata });
      }
      default:
        if (turn) return turn.stream.accept(event);
        return s.emit(event.type, event.payload as never, { metadata: event.metadata });
    }
  } catch (e) {
    s.logger.error('failed to process an adapter frame', { type: event.type, error: String(e) });
  }
}
