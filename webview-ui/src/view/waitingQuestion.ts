// Escape in the prompt box while the agent waits for an answer (decision 605): a screen-reader user
// presses Escape out of habit, and it used to cancel the whole turn. While a question (permission,
// plan approval, choice) waits, Escape takes focus to that question — its card, which names it, not
// its first button: Esc then Enter approved "Allow once" (the trial of 2026-12-06, decision 649).
// A second Escape, from the card, stops the turn (app.tsx).
import { pendingInteractions, type InteractionBlock } from '../../../src/protocol/transcript';
import type { ChatStore } from '../state/store';
import type { FindController } from './findState';
import { isLive } from './interaction';

/** Frames to wait for a question's row to mount after scrolling to it. */
const MOUNT_FRAMES = 10;
const CONTROLS = 'button:not(:disabled), input:not(:disabled), textarea:not(:disabled), select:not(:disabled)';

/** The oldest question still answerable here, if any. */
export function waitingQuestion(store: ChatStore): InteractionBlock | undefined {
  return pendingInteractions(store.transcript).find((b) => isLive(store, b));
}

/** The question's card or plan approval (data-interaction, focusable), if it is mounted and live. */
function questionCard(question: InteractionBlock): HTMLElement | null {
  for (const box of document.querySelectorAll<HTMLElement>('[data-interaction]')) {
    if (box.dataset.interaction === question.interactionId) return box.querySelector<HTMLElement>(CONTROLS) ? box : null;
  }
  return null;
}

/**
 * Focuses the waiting question's card, scrolling the transcript to it first when its row
 * is not mounted (the list is virtualized). False when no question waits: Escape then cancels.
 */
export function focusWaitingQuestion(store: ChatStore, find: FindController | undefined): boolean {
  const question = waitingQuestion(store);
  if (!question) return false;
  const now = questionCard(question);
  if (now) {
    now.focus();
    return true;
  }
  find?.revealRow([question.planKey ?? question.key]);
  let frames = 0;
  const attempt = () => {
    const control = questionCard(question);
    if (control) control.focus();
    else if (++frames < MOUNT_FRAMES) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
  return true;
}
