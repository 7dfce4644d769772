// §17.2.2 / §18.2: how a process exit becomes frame content. Pure: the caller emits the events
// and ends the turn with `stop_reason`.
import { constants } from 'node:os';
import type { AgentEvent } from '../../session/agentAdapter';

export interface ExitInfo {
  /** Exit code as the OS reports it; null when a signal ended the process. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (ENOENT, EACCES, …). */
  spawnError?: string;
  /** What the process wrote to stderr (bounded). */
  stderr: string;
}

export interface ExitMappingInput {
  exit: ExitInfo;
  /** Agent id for `details.module`. */
  agent: string;
  /** §18: exit 0 ends only the turn, not the session. */
  singleTurn: boolean;
  /** We asked the process to stop (dispose / session end): a signal exit is then expected. */
  stopRequested?: boolean;
}

export interface ExitMapping {
  /** `agent.error` to emit before the turn ends (none for a clean exit). */
  events: AgentEvent[];
  stop_reason: 'end_turn' | 'error';
  /** The session cannot go on with this process (a fresh spawn is needed, §18.2 TERMINATED). */
  terminated: boolean;
  /** 0, 1–127, or 128+N for a signal (the shell convention, also for Node's `signal`). */
  normalizedCode: number;
}

/** 128+N for signal N; the code itself otherwise; 1 when nothing is known (spawn failure). */
export function normalizeExitCode(exit: Pick<ExitInfo, 'code' | 'signal'>): number {
  if (exit.code !== null) return exit.code;
  if (exit.signal) return 128 + (constants.signals[exit.signal] ?? 0);
  return 1;
}

function signalName(n: number): string | undefined {
  return (Object.keys(constants.signals) as NodeJS.Signals[]).find((s) => constants.signals[s] === n);
}

export function mapExit(input: ExitMappingInput): ExitMapping {
  const { exit, agent, singleTurn } = input;
  const normalizedCode = normalizeExitCode(exit);
  const stderr = exit.stderr.trimEnd();
  // Every non-clean exit is the same shape: one fatal agent.error, then the turn ends in error.
  const fatal = (error_code: string, message: string, extra: Record<string, unknown>): ExitMapping => ({
    normalizedCode,
    stop_reason: 'error',
    terminated: true,
    events: [
      {
        type: 'agent.error',
        payload: {
          error_code,
          message,
          severity: 'fatal',
          recoverable: false,
          details: { module: agent, ...(stderr ? { stderr, trace: lastLines(stderr, 20) } : {}), ...extra },
        },
      },
    ],
  });

  if (exit.spawnError !== undefined) return fatal('SPAWN_FAILED', `${agent} could not be started: ${exit.spawnError}`, {});
  if (normalizedCode === 0) {
    // §17.2.2: a clean exit ends the turn normally; for a long-lived agent it also ends the
    // session's process (§18.2: a single-turn agent's session stays idle instead).
    return { normalizedCode, stop_reason: 'end_turn', terminated: !singleTurn, events: [] };
  }
  if (normalizedCode >= 128) {
    const sig = exit.signal ?? signalName(normalizedCode - 128) ?? `signal ${normalizedCode - 128}`;
    const how = input.stopRequested ? 'was stopped' : 'was killed';
    // Killed from outside (SIGKILL, SIGTERM, …), its last stderr line is whatever it last logged
    // (Codex: an unrelated warning), not the cause; a crash of its own (SIGABRT after a panic,
    // SIGSEGV) may have said why. The whole stderr stays in details either way.
    const hint = KILLED_FROM_OUTSIDE.has(sig) ? '' : tailHint(stderr);
    return fatal('SIGNAL_EXIT', `${agent} ${how} by ${sig} (exit ${normalizedCode})${hint}`, { exit_code: normalizedCode, signal: sig });
  }
  return fatal('PROCESS_EXIT', `${agent} exited with code ${normalizedCode}${tailHint(stderr)}`, { exit_code: normalizedCode });
}

/** Signals another process sends: the agent's own last words do not explain them. */
const KILLED_FROM_OUTSIDE: ReadonlySet<string> = new Set(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGPIPE']);

function lastLines(text: string, n: number): string {
  return text.split('\n').slice(-n).join('\n');
}

/**
 * The cause in the message, so a user sees it without opening details: the last line that says
 * "Error…"/"fatal…" before a stack backtrace (Codex prints one after its error), else the last line.
 */
function tailHint(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.trim());
  const backtrace = lines.findIndex((l) => /^\s*stack backtrace:?\s*$/i.test(l));
  // A warning or an info line is never the reason (Codex's "WARNING: proceeding, even though we
  // could not create PATH aliases" named the end of a 429; the trial of 2026-12-05).
  const head = (backtrace >= 0 ? lines.slice(0, backtrace) : lines).filter((l) => !/^\s*(\S+\s+)?(WARN(ING)?|INFO|DEBUG|TRACE)\b/.test(l));
  const line = [...head].reverse().find((l) => /^\s*(error|fatal)\b/i.test(l) || /\bERROR\b/.test(l)) ?? head.at(-1);
  return line ? `: ${line.trim().slice(0, 300)}` : '';
}
