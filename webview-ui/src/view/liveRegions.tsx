// The chat's two live regions (decision 390): polite for completed answers, turn ends and the
// banners' notices (decision 605), assertive for a new question or permission request. They are
// in the page from the start (a region added together with its text is often not read), visually
// hidden, and each message replaces the last one, so a screen reader reads only what is new.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Announcer, noticeAnnouncements, type Announcement } from '../state/announcements';
import { useStoreVersion } from '../state/useStore';
import { currentTurn, pendingInteractions } from '../../../src/protocol/transcript';

export function LiveRegions() {
  const store = useStoreVersion();
  const announcer = useRef(new Announcer());
  const noticesSeen = useRef(0);
  // A new key per message: the node is replaced, so the same words said twice are read twice.
  const [polite, setPolite] = useState({ text: '', n: 0 });
  const [assertive, setAssertive] = useState({ text: '', n: 0 });
  // What was said goes when its moment has passed — a new turn, another chat — so a reader moving
  // through the page does not find "The agent finished." during the next turn (the trial of
  // 2026-12-06). Silent, and before the effect below, so what the same change says still stands.
  const turnId = currentTurn(store.transcript)?.turnId;
  useEffect(() => {
    setPolite((s) => (s.text ? { text: '', n: s.n + 1 } : s));
  }, [turnId, store.sessionId]);
  useEffect(() => {
    const notices = noticeAnnouncements(store.noticeBoard.recent, noticesSeen.current, store.noticeBoard.shown);
    noticesSeen.current = notices.seen;
    const news: Announcement[] = [...announcer.current.next(store.transcript), ...notices.news];
    if (news.length === 0) return;
    const join = (p: Announcement['politeness']) => news.filter((a) => a.politeness === p).map((a) => a.text).join(' ');
    const p = join('polite');
    const a = join('assertive');
    if (p) setPolite((s) => ({ text: p, n: s.n + 1 }));
    if (a) setAssertive((s) => ({ text: a, n: s.n + 1 }));
  }, [store.version]);
  // The assertive region only ever says a question waits: once none does (answered, withdrawn, or
  // closed by a restart), its words go, so a reader moving through the page does not find a question
  // that is gone (the checkpoint trial of 2026-12-05 found one after a restart). Emptying is silent.
  const waiting = pendingInteractions(store.transcript).length > 0;
  useEffect(() => {
    if (!waiting && assertive.text) setAssertive((s) => ({ text: '', n: s.n + 1 }));
  }, [waiting, assertive.text]);
  return (
    <div class="live-regions">
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true" data-live="polite">
        <span key={polite.n}>{polite.text}</span>
      </div>
      <div class="sr-only" aria-live="assertive" aria-atomic="true" data-live="assertive">
        <span key={assertive.n}>{assertive.text}</span>
      </div>
    </div>
  );
}
