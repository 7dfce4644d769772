// The notices of the chat in front of the user (decision 648): what the banners show, and every
// notice in the order it came for the polite live region. A confirmation (info) gives way to the
// next notice on screen; when both arrive before the view renders (one animation frame), the
// banner never showed the confirmation, yet a screen reader must still hear it (the review of
// 2026-12-06): so what is said is kept apart from what is shown.
import type { Notice } from './storeTypes';

/** Enough for one frame's notices; the live region reads past the last id it said. */
const RECENT = 20;

export class NoticeBoard {
  /** On screen: warnings and errors until dismissed (the five newest), a confirmation until the next notice. */
  shown: Notice[] = [];
  /** Every notice as it came, the newest RECENT; ids grow. */
  recent: Notice[] = [];
  private seq = 0;

  add(level: Notice['level'], message: string, code?: string): void {
    const notice: Notice = { id: ++this.seq, level, message, ...(code ? { code } : {}) };
    this.shown = [...this.shown.filter((n) => n.level !== 'info').slice(-4), notice];
    this.recent = [...this.recent.slice(1 - RECENT), notice];
  }

  dismiss(id: number): void {
    this.shown = this.shown.filter((n) => n.id !== id);
  }

  /** Another chat: its notices are not this one's (nothing more to say of them either). */
  clear(): void {
    this.shown = [];
    this.recent = [];
  }
}
