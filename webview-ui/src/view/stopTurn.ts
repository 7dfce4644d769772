// Stopping the running turn from the view (the Stop button, Esc): §9.3 control.prompt.cancel for
// the turn in progress, which also withdraws a question still waiting for its answer.
import type { ChatStore } from '../state/store';

/** Asks the host to stop the open turn; false when no turn is running. */
export function stopTurn(store: ChatStore): boolean {
  const turn_id = store.openTurnId();
  if (!turn_id) return false;
  store.sendFrame('control.prompt.cancel', { target_turn_id: turn_id, reason: 'user_cancelled' }, { turn_id });
  return true;
}
