// Codex reports some failures only on stderr, as tracing lines, e.g. a patch the read-only sandbox
// rejected: "… ERROR codex_core::tools::router: error=patch rejected: writing is blocked by
// read-only sandbox; …". The model sees the rejection, the user would not: we surface it.

export interface StderrFinding {
  error_code: 'CODEX_PATCH_REJECTED' | 'CODEX_TOOL_ERROR';
  message: string;
  line: string;
}

const TOOL_ERROR = /\bERROR\s+codex_core::tools::[\w:]+:\s*error=(.*)$/;

/** Classify one stderr line; undefined for the noise (warnings, banners). */
export function classifyStderrLine(line: string): StderrFinding | undefined {
  const m = TOOL_ERROR.exec(line);
  if (!m) return undefined;
  const detail = m[1].trim();
  if (/^patch rejected/i.test(detail)) {
    return { error_code: 'CODEX_PATCH_REJECTED', message: `Codex did not apply a patch: ${detail.replace(/^patch rejected:\s*/i, '')}`, line };
  }
  return { error_code: 'CODEX_TOOL_ERROR', message: `Codex tool error: ${detail}`, line };
}

/** Codex's names for its shell tools, as its "unsupported call" names them. */
const SHELL_CALL = /^unsupported call: (exec_command|shell|local_shell|unified_exec)\b/i;

/**
 * A finding in the words of this turn: "unsupported call: exec_command" is what Codex says when
 * the model calls a shell we turned off because the prompt denies Bash (args.ts) — the user is
 * told that, not Codex's internals.
 */
export function explainFinding(f: StderrFinding, bashDenied: boolean): StderrFinding {
  const detail = /error=(.*)$/.exec(f.line)?.[1]?.trim() ?? '';
  if (f.error_code !== 'CODEX_TOOL_ERROR' || !bashDenied || !SHELL_CALL.test(detail)) return f;
  return { ...f, message: 'Codex tried to run a command, but Bash is not allowed for this prompt: Codex had no shell, and nothing ran.' };
}

/** Splits a stream of stderr chunks into lines and reports the ones that matter. */
export class StderrWatcher {
  private partial = '';

  constructor(private readonly onFinding: (f: StderrFinding) => void) {}

  push(chunk: string): void {
    const text = this.partial + chunk;
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    for (const l of lines) this.line(l);
  }

  end(): void {
    if (this.partial) this.line(this.partial);
    this.partial = '';
  }

  private line(l: string): void {
    // Colour codes appear when Codex thinks stderr is a terminal.
    const f = classifyStderrLine(l.replace(/\r$/, '').replace(/\x1b\[[0-9;]*m/g, ''));
    if (f) this.onFinding(f);
  }
}
