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
    try {
      const file = await this.deps.fs.readText(target.abs);
      // Marked as Read marks it (decisions 602, 608), so a write of it is refused before its prompt.
      const notText = notTextOf(file);
      this.deps.fsEvents.observed(target, this.deps.actor, { kind: 'present', version: file.version, ...(notText ? { notText } : {}) });
      return { content: sliceLines(file.text, params.line ?? undefined, params.limit ?? undefined) };
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

  private target(p: string) {
    const t = targetOf(this.deps.fs.roots, this.deps.cwd, p);
    if (!isInside(this.deps.fs.roots, t.abs)) throw new RequestError(FS_REFUSED, `FS_OUTSIDE_WORKSPACE: "${p}" is outside the workspace`, { code: 'FS_OUTSIDE_WORKSPACE' });
    return t;
  }
}

/** ACP `line` is 1-based; `limit` counts lines. */
export function sliceLines(text: string, line: number | undefined, limit: number | undefined): string {
  if (line === undefined && limit === undefined) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit === undefined ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('\n');
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
