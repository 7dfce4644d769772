// The default clock of every session (engine.ts). A clock whose instants strictly increase (1 ms apart at least). §2.3 makes receivers rebuild a
// session.history's order from `timestamp` then `message_id`; message_ids are random UUID v4, so two
// frames stamped in the same millisecond could swap on replay. A host that stamps its sessions'
// frames with this clock makes that order exact. Under a burst of more than 1,000 frames a second
// the stamps run ahead of the wall clock for a moment and catch up once the burst ends.
import type { Clock } from './ports';
import { systemClock } from './ports';

export function monotonicClock(base: Clock = systemClock): Clock {
  let last = 0;
  return {
    now() {
      const t = Math.max(base.now().getTime(), last + 1);
      last = t;
      return new Date(t);
    },
  };
}
