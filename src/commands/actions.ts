// What the prompt pipeline decides. It never acts itself: it returns an action and the host (the
// session engine or the VS Code host) carries it out, so the pipeline stays testable and the same
// for every agent.
import type { PayloadOf } from '../protocol/frameTypes';

/** DPS control frames a host command maps to (§6.3.1 compact, §6.3.2 mode switch). */
export type ControlCommandType = 'control.session.compact' | 'control.mode.switch';

export type ControlAction = { [T in ControlCommandType]: { kind: 'control'; command: string; type: T; payload: PayloadOf<T> } }[ControlCommandType];

export interface HelpEntry {
  name: string;
  description: string;
  source: string;
}

/** Host commands with no DPS frame of their own: the host does them locally. */
export type LocalAction =
  | { kind: 'local'; command: string; action: 'clear' }
  | { kind: 'local'; command: string; action: 'cost' }
  | { kind: 'local'; command: string; action: 'cancel' }
  /** The host sends `session.renamed` (§7.6.1): it knows the session id. */
  | { kind: 'local'; command: string; action: 'rename'; name: string }
  | { kind: 'local'; command: string; action: 'help'; commands: HelpEntry[] };

/** Send this prompt (§6.1.1); `command` names the command that produced it, if any. */
export interface PromptAction {
  kind: 'prompt';
  payload: PayloadOf<'control.prompt.request'>;
  command?: string;
}

/** A custom command ran and asked for no prompt. */
export interface HandledAction {
  kind: 'handled';
  command: string;
}

/** A command failed (bad usage, or its handler threw). Handled: nothing is sent (slash-commands §9). */
export interface ErrorAction {
  kind: 'error';
  command: string;
  message: string;
}

export type PipelineAction = ControlAction | LocalAction | PromptAction | HandledAction | ErrorAction;
