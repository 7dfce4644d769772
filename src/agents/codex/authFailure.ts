// How `codex exec` says it has no usable credentials (issue 15 Why 4, decision 441). Seen with
// the real CLI (0.17x) and a throwaway HOME: without a login or key it sends its requests with no
// Authorization header, the API answers 401, and every retry (WebSocket, then HTTPS) is an `error`
// line "Reconnecting... n/5 (unexpected status 401 Unauthorized: <body>, url: …)", the end a
// `turn.failed` with "unexpected status 401 Unauthorized: …". The HTTP status is the signal; Codex
// prints it only inside that message (its UnexpectedStatus error), so that is where we read it.
import { execFile } from 'node:child_process';

const STATUS_401 = /\bunexpected status 401\b/;

/** An `error` / `turn.failed` message that reports the API's 401. */
export function isCodexAuthFailure(message: string): boolean {
  return STATUS_401.test(message);
}

/**
 * `codex login status`: true when Codex has a stored login (exit 0), false when it says
 * "Not logged in" (exit 1), undefined when it could not tell (timeout, spawn error).
 */
export function codexLoggedIn(command: string, prefixArgs: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<boolean | undefined> {
  return new Promise((resolve) => {
    execFile(command, [...prefixArgs, 'login', 'status'], { env, cwd, timeout: 10_000, maxBuffer: 64 * 1024 }, (err) => {
      if (!err) return resolve(true);
      const code = (err as { code?: unknown }).code;
      resolve(typeof code === 'number' ? false : undefined);
    });
  });
}
