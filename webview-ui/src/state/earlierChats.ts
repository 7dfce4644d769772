// The digests of earlier chats (`x-rawp.continued_from.earlier`, decisions 630, 641) this view was
// given, by session. The transcript keeps no vendor frame but the checkpoints', so the store hands
// every `frames` message here — a session's own frames and a `session.history`'s — and the note at
// the top of a continued chat (continuation.tsx) reads the digest of the session in front.
import { earlierChatsIn, type ContinuedFrom, type EarlierChat } from '../../../src/protocol/continuation';

/** Sessions whose digest is kept (the newest; one is shown at a time). */
const DIGESTS_KEPT = 8;

export class EarlierChats {
  private readonly bySession = new Map<string, EarlierChat>();
  /** Grows with every digest taken: what the note renders from changed. */
  version = 0;

  /** Takes the digests among `frames` of `session_id` (the newest wins); true when there was one. */
  take(frames: readonly unknown[], session_id: string): boolean {
    const found = earlierChatsIn(frames, session_id);
    if (found.length === 0) return false;
    this.bySession.delete(session_id);
    this.bySession.set(session_id, found[found.length - 1]);
    for (const oldest of this.bySession.keys()) if (this.bySession.size > DIGESTS_KEPT) this.bySession.delete(oldest);
    this.version++;
    return true;
  }

  /** The digest of the chat `from` names, given to this session. */
  of(session_id: string | undefined, from: ContinuedFrom): EarlierChat | undefined {
    const chat = session_id === undefined ? undefined : this.bySession.get(session_id);
    return chat?.continued_from === from.session_id ? chat : undefined;
  }
}
