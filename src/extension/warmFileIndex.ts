// The @ index of a large workspace takes seconds to list: VS Code's file search took 6.7 s for
// 140,000 files in the picker trial of 2026-12-05, all of it waited for by the first @. So the
// index is built in the background a few seconds after the chat is first shown (not during the
// window's start-up), and the first @ usually finds it ready (decision 638). Nothing is built for
// a window that never shows the chat, nor where sessions cannot start (Restricted Mode, no folder).
import type * as vscode from 'vscode';

/** Long enough for the window's own start-up work to pass first. */
export const WARM_DELAY_MS = 3000;

export function warmFileIndexWhenShown(
  shown: vscode.Event<boolean>,
  options: { blocked: () => string | undefined; open: () => Promise<unknown>; delayMs?: number },
): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const sub = shown((visible) => {
    if (!visible || done || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (options.blocked()) return; // tried again the next time the chat shows
      done = true;
      sub.dispose();
      // A failed listing is the first search's to report; it opens the index again then.
      options.open().catch(() => undefined);
    }, options.delayMs ?? WARM_DELAY_MS);
  });
  return {
    dispose: () => {
      clearTimeout(timer);
      sub.dispose();
    },
  };
}
