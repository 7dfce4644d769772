// What the session engine needs from its surroundings, injected so the engine stays pure (no Node
// built-ins) and tests can drive time by hand: a logger and timers. The clock is the protocol's.
export type { Clock } from '../protocol/build';
export { systemClock } from '../protocol/build';

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** A logger that drops everything (the default; hosts inject their output channel). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export type TimerHandle = unknown;

export interface Timers {
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** The platform's timers (both Node and browsers have the globals). */
export const systemTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** UTF-8 byte length of a string (one count for the protocol's limits and the session's budgets). */
export { utf8Length } from '../protocol/limits';
