// Moved to src/session: every session now stamps with it by default. Kept as a re-export.
export { monotonicClock } from '../session/monotonicClock';
