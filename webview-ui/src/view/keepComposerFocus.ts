// A control of the composer that goes away (Stop, when the turn ends) or is disabled (Send, once
// sent) while focused would leave the focus on <body>: it goes back to the prompt box (decision
// 605). The composer's root reports where the focus went in it; after each render, a control that
// held it and is gone or disabled hands it to the editor — unless the focus moved on elsewhere.
import { useLayoutEffect, useRef, type MutableRef } from 'preact/hooks';

export function useKeepComposerFocus(editor: MutableRef<HTMLDivElement | null>): { onFocusIn: (e: FocusEvent) => void; onFocusOut: (e: FocusEvent) => void } {
  const lastFocused = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    const el = lastFocused.current;
    const active = document.activeElement;
    if (!el || el === editor.current || (el.isConnected && !el.matches(':disabled'))) return;
    if (active !== null && active !== document.body && active !== el) return;
    lastFocused.current = null;
    editor.current?.focus();
  });
  return {
    onFocusIn: (e) => (lastFocused.current = e.target as HTMLElement),
    // Focus moved on to another element: nothing to bring back.
    onFocusOut: (e) => {
      if (e.relatedTarget) lastFocused.current = null;
    },
  };
}
