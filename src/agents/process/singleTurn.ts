// §18: a single-turn agent process. Each prompt spawns the agent; exit 0 ends the turn and leaves
// the session idle with no process; the next prompt respawns it with `resume_flag` carrying the
// agent's own session id (§18.3). A non-zero exit terminates the session (§18.2).
import type { AgentEvent } from '../../session/agentAdapter';
import { AgentProcess, type AgentProcessSpec } from './agentProcess';
import { mapExit, type ExitInfo, type ExitMapping } from './exitMapping';
import { expandResumeFlag } from './resumeFlag';

export interface SingleTurnSpec extends Omit<AgentProcessSpec, 'args' | 'onMessage'> {
  /** Agent id for error details. */
  agent: string;
  /** §18.1 template such as "--resume {session_id}". */
  resume_flag: string;
  /** Arguments of one turn; `resumeArgs` is empty on the first turn. */
  buildArgs(turn: { resumeArgs: string[]; agentSessionId: string | undefined }): string[];
  /** Called for each stdout JSON line of the running turn. */
  onMessage?(value: unknown, line: string): void;
  /** Text to write to stdin after spawning (then stdin is closed), e.g. the prompt. */
  stdinText?(turn: { agentSessionId: string | undefined }): string | undefined;
}

export interface SingleTurnResult {
  exit: ExitInfo;
  /** Frames to emit and how the turn ends. `stop_reason` is `cancelled` when the signal aborted it. */
  mapping: ExitMapping;
  stop_reason: 'end_turn' | 'error' | 'cancelled';
  events: AgentEvent[];
}

export type SingleTurnState = 'idle' | 'running' | 'terminated';

export class SingleTurnRunner {
  private current: AgentProcess | undefined;
  private _state: SingleTurnState = 'idle';
  private disposed = false;
  /** §18.3: the agent's own session id, preserved across respawns. */
  agentSessionId: string | undefined;

  constructor(private readonly spec: SingleTurnSpec) {}

  get state(): SingleTurnState {
    return this._state;
  }

  get process(): AgentProcess | undefined {
    return this.current;
  }

  /** The arguments the next turn will use (for logs and tests). */
  nextArgs(): string[] {
    return this.spec.buildArgs({ resumeArgs: expandResumeFlag(this.spec.resume_flag, this.agentSessionId), agentSessionId: this.agentSessionId });
  }

  async runTurn(signal: AbortSignal): Promise<SingleTurnResult> {
    if (this._state === 'terminated') {
      const exit: ExitInfo = { code: null, signal: null, stderr: '' };
      const event: AgentEvent = {
        type: 'agent.error',
        payload: { error_code: 'SESSION_TERMINATED', message: `${this.spec.agent} ended with an error earlier; start a new session (§18.2)`, severity: 'fatal', recoverable: false, details: { module: this.spec.agent } },
      };
      return { exit, mapping: { events: [event], stop_reason: 'error', terminated: true, normalizedCode: 1 }, stop_reason: 'error', events: [event] };
    }
    if (this._state === 'running') throw new Error('SingleTurnRunner: a turn is already running (§17.3.2 is the engine’s to enforce)');
    this._state = 'running';
    const proc = AgentProcess.spawn({ ...this.spec, args: this.nextArgs() });
    this.current = proc;
    const stdin = this.spec.stdinText?.({ agentSessionId: this.agentSessionId });
    if (stdin !== undefined) proc.writeRaw(stdin);
    proc.endInput();

    let cancelled = false;
    const onAbort = () => {
      cancelled = true;
      void proc.stop();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const exit = await proc.exited;
    signal.removeEventListener('abort', onAbort);
    this.current = undefined;

    if (cancelled) {
      // Our own stop is no failure: the session stays idle and resumable.
      this._state = 'idle';
      const mapping = mapExit({ exit, agent: this.spec.agent, singleTurn: true, stopRequested: true });
      return { exit, mapping, stop_reason: 'cancelled', events: [] };
    }
    const mapping = mapExit({ exit, agent: this.spec.agent, singleTurn: true });
    this._state = mapping.terminated ? 'terminated' : 'idle';
    return { exit, mapping, stop_reason: mapping.stop_reason, events: mapping.events };
  }

  /**
   * Run again after a turn whose failure the adapter understood and can mend (a resume id the
   * agent no longer has, decision 624): that failure does not terminate the session. Never after dispose.
   */
  retryAfterFailure(): void {
    if (!this.disposed && this._state === 'terminated') this._state = 'idle';
  }

  /** Stop a running turn's process (SIGTERM, SIGKILL after the grace). No process when idle (§18.4). */
  async dispose(): Promise<void> {
    this.disposed = true;
    const proc = this.current;
    this._state = 'terminated';
    if (proc) await proc.stop();
  }
}
