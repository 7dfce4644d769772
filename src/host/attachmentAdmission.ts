// §6.1.1 `context_files` at prompt admission, for every agent and every connection: each file must
// resolve in the host's file store (§4.5) and be of a type the agent declared it takes
// (AgentCapabilities.attachments). Otherwise the prompt is refused before any turn frame, with a
// sentence naming the file and the agent — an adapter never drops an attachment silently
// (docs/decisions/310-attachments-refused-at-admission.md).
import type { ContextFile } from '../session/agentAdapter';
import { attachmentRefusal, type AttachmentSupport } from '../session/attachments';
import { isContextFileError, type ContextFileSource } from '../session/contextFiles';

/** Like §6.3.1's COMPACTION_NOT_SUPPORTED and §6.3.2's MODE_NOT_SUPPORTED: non-fatal session.error. */
export const ATTACHMENT_NOT_SUPPORTED = 'ATTACHMENT_NOT_SUPPORTED';
/** The file_url names no file this host holds (never uploaded, or deleted with its session). */
export const ATTACHMENT_UNAVAILABLE = 'ATTACHMENT_UNAVAILABLE';
/** The file is larger than the host's limit (`rawp.files.maxBytes`, §4.5.1; HTTP 413 on upload). */
export const ATTACHMENT_TOO_LARGE = 'ATTACHMENT_TOO_LARGE';
/** The bytes are not of the type the file claims (HTTP 415 on upload). */
export const ATTACHMENT_TYPE_MISMATCH = 'ATTACHMENT_TYPE_MISMATCH';

export interface AttachmentGate {
  /** The session's context-file source (the engine's: the host's file store, bound to the session). */
  source(): ContextFileSource | undefined;
  /** What the session's agent takes (read when a prompt arrives: ACP knows only after initialize). */
  support(): AttachmentSupport | undefined;
  agentName(): string;
}

export type AttachmentVerdict = { ok: true } | { ok: false; error_code: string; message: string };

export async function admitContextFiles(files: readonly ContextFile[] | undefined, gate: AttachmentGate): Promise<AttachmentVerdict> {
  if (!files || files.length === 0) return { ok: true };
  const agent = gate.agentName();
  const source = gate.source();
  if (!source) {
    return { ok: false, error_code: ATTACHMENT_UNAVAILABLE, message: `This host keeps no files, so ${files.map((f) => f.file_name).join(', ')} cannot be given to ${agent}; nothing was sent to the agent.` };
  }
  const resolved: { name: string; mimeType: string }[] = [];
  for (const f of files) {
    try {
      const r = await source.resolve(f.file_url, { file_name: f.file_name, ...(f.mime_type ? { mime_type: f.mime_type } : {}) });
      resolved.push({ name: f.file_name, mimeType: r.mimeType });
    } catch (e) {
      const code = isContextFileError(e) && e.code === 'too_large' ? ATTACHMENT_TOO_LARGE : ATTACHMENT_UNAVAILABLE;
      return { ok: false, error_code: code, message: `The attached file ${f.file_name} could not be read (${e instanceof Error ? e.message : String(e)}); nothing was sent to ${agent}.` };
    }
  }
  const refusal = attachmentRefusal(agent, gate.support(), resolved);
  return refusal ? { ok: false, error_code: ATTACHMENT_NOT_SUPPORTED, message: refusal } : { ok: true };
}
