// The client side of ACP's `fs/read_text_file` and `fs/write_text_file`: an external agent reads
// and writes through our FsBackend (so unsaved editor buffers count and paths stay inside the
// workspace) and through the read-before-write policy (FsEvents + the observation ledger), so an
// ACP agent gets exactly the guarantees our own tools have: a file it never read, or that changed
// since it read it, is not overwritten.
import { RequestError } from '@agentclientprotocol/sdk';
import { FsError, type FsBackend } from '../../workspace/fsBackend';
import { notTextOf } from '../../workspace/textOnlyWrites';
import type { FsEvents } from '../../tools/fsEvents';
import { isInside, targetOf } from '../../tools/paths';
import { MAX_READ_BYTES } from '../../tools/read';
import { sizeBeforeRead } from '../../tools/sizeBeforeRead';
import type { AgentHost } from '../../session/agentAdapter';
import { KIND_TOOLS } from './toolNames';

export interface AcpFsDeps {
  fs: FsBackend;
  /** The policy seam; the engine installs the observation ledger on it. */
  fsEvents: FsEvents;
  /** Ledger actor: the DPS session this agent works for. */
  actor: string;
  /** Base for relative paths (ACP paths should be absolute). */
  cwd: string;
  /**
   * The engine's verdict on a write (AgentHost.checkTool for the ACP edit tool, decision 640): the
   * mode (review and plan change no file) and the prompt's tool lists. An agent that writes
   * without asking first — its own "always allow", an auto-edit mode — meets it here, the last
   * place we can still refuse. Absent: no check (the bridge alone, in its own tests).
   */
  mayWrite?: (path: string) => { allowed: true } | { allowed: false; message: string };
}

/** A write through our fs is an edit to the engine's policy (the ACP kind "edit", toolNames.ts). */
export function engineWriteCheck(host: Pick<AgentHost, 'checkTool'>): NonNullable<AcpFsDeps['mayWrite']> {
  return (file_path) => host.checkTool(KIND_TOOLS.edit.name, { file_path });
}

/** JSON-RPC error code for a refused file operation (ACP leaves server codes to the client). */
export const FS_REFUSED = -32010;

export class AcpFsBridge {
  constructor(private readonly deps: AcpFsDeps) {}

  async readTextFile(params: { path: string; line?: number | null; limit?: number | null }): Promise<{ content: string }> {
    const target = this.target(params.path);
    const line = params.line ?? undefined;
    const limit = params.limit ?? undefined;
    try {
      // Its size first, as Read does (decision 539): a 300 MB file was read and returned whole
      // (1.29 GB of memory; four at once killed the host). A file over Read's bound is never read
      // whole; a window of its start is served when the backend can read a prefix (decision 716).
      // From metadata alone (sizeBeforeRead.ts): the backend's stat hashes the whole file.
      const st = await sizeBeforeRead(this.deps.fs, target.abs);
      if (st?.type === 'file' && st.size > MAX_READ_BYTES) return { content: await this.windowOfLarge(target, st.size, line, limit) };
      const file = await this.deps.fs.readText(target.abs);
      // A symlink's stat is the link's: the text's length is checked too (UTF-16 units ≤ bytes).
      if (file.text.length > MAX_READ_BYTES) throw tooLarge(target.displayPath, file.text.length, false);
      // Marked as Read marks it (decisions 602, 608), so a write of it is refused before its prompt.
      const notText = notTextOf(file);
      this.deps.fsEvents.observed(target, this.deps.actor, { kind: 'present', version: file.version, ...(notText ? { notText } : {}) });
      return { content: lineWindow(file.text, line, limit).text };
    } catch (e) {
      if (e instanceof FsError && e.code === 'FS_NOT_FOUND') {
        this.deps.fsEvents.observed(target, this.deps.actor, { kind: 'absent' });
        throw RequestError.resourceNotFound(params.path);
      }
      throw toRequestError(e, target.displayPath);
    }
  }

  async writeTextFile(params: { path: string; content: string }): Promise<Record<string, never>> {
    const target = this.target(params.path);
    const verdict = this.deps.mayWrite?.(target.displayPath) ?? { allowed: true };
    if (!verdict.allowed) throw new RequestError(FS_REFUSED, `TOOL_NOT_ALLOWED: ${target.displayPath}: ${verdict.message}`, { code: 'TOOL_NOT_ALLOWED' });
    try {
      const guard = this.deps.fsEvents.writeIntent(target, this.deps.actor);
      const r = await this.deps.fs.writeText(target.abs, params.content, guard);
      this.deps.fsEvents.observed(target, this.deps.actor, { kind: 'present', version: r.version });
      return {};
    } catch (e) {
      throw toRequestError(e, target.displayPath);
    }
  }

  /**
   * The lines asked for from the start of a file over the bound, read as a prefix of at most
   * MAX_READ_BYTES: served when they all lie inside it. Not marked as read: the agent saw part of
   * it, and its version is the hash of all its bytes, so a write of it is refused as unread.
   */
  private async windowOfLarge(target: { abs: string; displayPath: string }, size: number, line: number | undefined, limit: number | undefined): Promise<string> {
    const readPrefix = this.deps.fs.readTextPrefix?.bind(this.deps.fs);
    if (!readPrefix || limit === undefined) throw tooLarge(target.displayPath, size, readPrefix !== undefined);
    const prefix = await readPrefix(target.abs, MAX_READ_BYTES);
    const window = prefix.binary ? undefined : lineWindow(prefix.text, line, limit);
    if (!window || (window.toEnd && prefix.cut)) throw tooLarge(target.displayPath, size, true);
    return window.text;
  }

  private target(p: string) {
    const t = targetOf(this.deps.fs.roots, this.deps.cwd, p, this.deps.fs.rootAliases);
    if (!isInside(this.deps.fs.roots, t.abs)) throw new RequestError(FS_REFUSED, `FS_OUTSIDE_WORKSPACE: "${p}" is outside the workspace`, { code: 'FS_OUTSIDE_WORKSPACE' });
    return t;
  }
}

/** ACP `line` is 1-based; `limit` counts lines. */
export function sliceLines(text: string, line: number | undefined, limit: number | undefined): string {
  return lineWindow(text, line, limit).text;
}

/**
 * The lines `line` to `line + limit - 1` of `text` (joined by their newlines, no newline after the
 * last), found by walking the newlines up to them, not by splitting the text: the rest of a big
 * file costs no array of its lines. `toEnd`: the window ran to the end of the text (so, in a
 * prefix, its last line may go on past it).
 */
export function lineWindow(text: string, line: number | undefined, limit: number | undefined): { text: string; toEnd: boolean } {
  if (line === undefined && limit === undefined) return { text, toEnd: true };
  let from = 0;
  for (let skip = Math.max(0, Math.floor(line ?? 1) - 1); skip > 0; skip--) {
    const nl = text.indexOf('\n', from);
    if (nl < 0) return { text: '', toEnd: true };
    from = nl + 1;
  }
  if (limit === undefined) return { text: text.slice(from), toEnd: true };
  let end = from;
  for (let take = Math.floor(limit); take > 0; take--) {
    const nl = text.indexOf('\n', end);
    if (nl < 0) return { text: text.slice(from), toEnd: true };
    if (take === 1) return { text: text.slice(from, nl), toEnd: false };
    end = nl + 1;
  }
  return { text: '', toEnd: false };
}

/** The refusal of a file over Read's bound, in words: its size, the bound, and what to do instead. */
function tooLarge(display: string, size: number, windows: boolean): RequestError {
  const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
  const instead = windows ? `ask for some of its first lines with line and limit (only its first ${mb(MAX_READ_BYTES)} are read), or ` : '';
  return new RequestError(FS_REFUSED, `FILE_TOO_LARGE: "${display}" is ${mb(size)}; files are read up to ${mb(MAX_READ_BYTES)}. To see a part of it, ${instead}read it with a shell command (sed -n '1000,1100p', head, tail, grep -n)`, { code: 'FILE_TOO_LARGE' });
}

const EXPLAIN: Partial<Record<string, string>> = {
  FS_STALE_VERSION: 'the file changed since it was read; read it again before writing',
  FS_EXISTS: 'the file exists and was not read in this session; read it before overwriting it',
  FS_NOT_OBSERVED: 'read the file before editing it',
};

function toRequestError(e: unknown, display: string): RequestError {
  if (e instanceof RequestError) return e;
  if (e instanceof FsError) {
    const why = EXPLAIN[e.code];
    return new RequestError(FS_REFUSED, `${e.code}: ${why ? `${display}: ${why}` : e.message}`, { code: e.code });
  }
  return RequestError.internalError(undefined, e instanceof Error ? e.message : String(e));
}
