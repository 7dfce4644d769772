// Work the host does around every turn of every agent, whatever the adapter (issue 17: a workspace
// checkpoint before the agent sees the prompt, the set of files it changed once it is done). The
// engine awaits each hook: `before` between session.turn.start and the adapter's prompt(), `after`
// once the adapter settled and before session.turn.end, so the next turn cannot start in between.
// A hook that throws is logged and the turn goes on: a checkpoint must never cost the user a turn.

export interface TurnInfo {
  session_id: string;
  turn_id: string;
  turn_index: number;
}

export interface TurnHooks {
  before?(turn: TurnInfo): Promise<void>;
  after?(turn: TurnInfo & { stop_reason: string }): Promise<void>;
}
