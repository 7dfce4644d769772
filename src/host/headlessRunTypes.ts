// What `rawp run`'s session (headlessRun.ts) is given and what it returns: the run's options, the
// questions it answered for the absent user, and its result, which src/cli/run/ prints.
import type { PayloadOf, WireFrame } from '../protocol/frameTypes';
import type { NoticePayload } from '../protocol/rawpExtension';
import type { RuleScope } from '../session/permissions';
import type { Logger } from '../session/ports';
import type { RunError } from './runErrors';

type PromptPayload = PayloadOf<'control.prompt.request'>;
type StopReason = PayloadOf<'session.turn.end'>['stop_reason'];
/** The command files that were found but did not load, as the session publishes them (decision 721). */
export type UnloadedCommands = NonNullable<PayloadOf<'agent.commands.publish'>['unloaded']>;

export interface HeadlessRunOptions {
  workspace: string;
  /** The symlink `workspace` was given by, if it was: paths under it are the same files (decision 729). */
  workspaceOtherName?: string;
  /** `builtin`, `claude-code`, `codex`, `openai`, `acp:<preset or command line>`. */
  agent: string;
  openai?: { baseUrl?: string; model?: string; contextWindow?: number };
  /** The language the person reads (the environment's locale): the built-in agent speaks it. */
  language?: string;
  prompt: PromptPayload;
  /**
   * Files to send with the prompt (§6.1.1 context_files): inside the workspace as `file:` URLs,
   * others copied into the run's own file store (§4.5, /v1/files/{id}); absolute paths.
   */
  attachments?: string[];
  /** What `--allow` allows, as session rules of the run's session. */
  allow: RuleScope[];
  /** The saved ("always") rules (default ~/.config/rawp/permission-rules.json). */
  rulesFile: string;
  logger: Logger;
  /** Every frame of the conversation in order: the client's and the run's own (`master`). */
  onFrame?(frame: WireFrame, from: 'client' | 'master'): void;
  /** A question nobody could answer, as it was answered. */
  onUnanswered?(u: Unanswered): void;
  /** The rules file could not be read (moved aside) or had rules that were skipped. */
  onRulesProblem?(message: string): void;
  /**
   * The session published its command list: the files that did not load then (undefined: all
   * loaded), from the host's own frame, as often as it is published (decision 731).
   */
  onUnloadedCommands?(unloaded: UnloadedCommands | undefined): void;
}

/** A question of the agent the run answered for the absent user. */
export interface Unanswered {
  /** tool_not_allowed: refused by --allowed-tools/--denied-tools or the mode (interaction_id: the call's invocation_id). */
  kind: 'permission_denied' | 'question_timed_out' | 'tool_not_allowed';
  interaction_id: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  question: string;
}

export interface HeadlessResult {
  session_id: string;
  turn_id?: string;
  /** Undefined when no turn ran (the prompt was refused, or the session ended first). */
  stop_reason?: StopReason;
  /** The agent's answer: its last step's text (src/protocol/finalAnswer.ts). */
  text: string;
  structured_output?: PayloadOf<'session.turn.end'>['structured_output'];
  usage?: PayloadOf<'session.usage'>;
  permission_denials: Unanswered[];
  /** agent.error and session.error frames of the run, in order: bounded, messages cut (runErrors.ts). */
  errors: RunError[];
  /** What the host said to the run (`x-rawp.notice`): a host command's answer (/help), a refusal. */
  notices: NoticePayload[];
  /** Steps of the turn: model replies, counted as §6.1.1 max_turns counts them (stepLimit.ts). */
  num_turns: number;
  /** From the session's start to the run's end. */
  duration_ms: number;
  /** The agent's own conversation id (§18.3), for its own resume (`claude --resume`, `codex resume`). */
  agent_session_id?: string;
  /**
   * The command files that did not load, as the session last published them (undefined: all
   * loaded): a `/mycmd` among them went to the agent as plain text (decision 731).
   */
  unloaded_commands?: UnloadedCommands;
  /** An agent without a model (grammarOnly): what its tools returned, which its words only point at. */
  tool_outputs?: { outputs: string[]; cut: boolean };
}
