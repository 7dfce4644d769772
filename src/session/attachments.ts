// Attachments (§6.1.1 `context_files`): what an agent declares it takes, and the helpers adapters
// share to pass files the agent's own way. Bytes come through the ContextFileSource port
// (contextFiles.ts); prompt admission refuses a file an agent cannot take before any turn starts
// (src/host/attachmentAdmission.ts) — never a silent drop.
import type { ResolvedContextFile } from './contextFiles';

export type { ResolvedContextFile };

/** What an agent takes as an attachment (announced by its adapter, checked by admission). */
export interface AttachmentSupport {
  /** Media types or `type/*` wildcards, e.g. `image/png`, `image/*`, `text/*`. Empty: none. */
  accepts: readonly string[];
  /** Why something else is refused, said to the user (e.g. "the model does not take images"). */
  refusal?: string;
}

/** No attachments at all: the default for an adapter that declares nothing. */
export const NO_ATTACHMENTS: AttachmentSupport = { accepts: [] };

/** Images every vision API we drive takes (Anthropic, OpenAI, Gemini). */
export const COMMON_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Text-like media types: read as UTF-8 text by the agents that inline files. */
export const TEXT_TYPES = ['text/*', 'application/json', 'application/xml', 'application/yaml', 'application/toml', 'application/x-sh', 'application/javascript'] as const;

function base(mime: string): string {
  return mime.split(';')[0].trim().toLowerCase();
}

export function mimeMatches(pattern: string, mime: string): boolean {
  const p = pattern.toLowerCase();
  const m = base(mime);
  if (p.endsWith('/*')) return m.startsWith(p.slice(0, -1));
  return p === m;
}

export function accepts(support: AttachmentSupport | undefined, mime: string): boolean {
  return (support ?? NO_ATTACHMENTS).accepts.some((p) => mimeMatches(p, mime));
}

export function isImage(mime: string): boolean {
  return base(mime).startsWith('image/');
}

export function isText(mime: string): boolean {
  return TEXT_TYPES.some((p) => mimeMatches(p, mime));
}

/** The UTF-8 text of a text attachment, or undefined when its bytes are not valid UTF-8. */
export function textOf(file: ResolvedContextFile): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file.bytes);
  } catch {
    return undefined;
  }
}

/** Base64 of the bytes (the content blocks of Claude, ACP and OpenAI carry images so). */
export function base64Of(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * The refusal for files an agent cannot take, naming each file and the agent, or undefined when
 * it takes them all.
 */
export function attachmentRefusal(agentName: string, support: AttachmentSupport | undefined, files: readonly { name: string; mimeType: string }[]): string | undefined {
  const refused = files.filter((f) => !accepts(support, f.mimeType));
  if (refused.length === 0) return undefined;
  const list = refused.map((f) => `${f.name} (${base(f.mimeType) || 'unknown type'})`).join(', ');
  const s = support ?? NO_ATTACHMENTS;
  const takes = s.accepts.length === 0 ? `${agentName} takes no attached files` : `${agentName} takes only ${s.accepts.join(', ')}`;
  return `${agentName} cannot take ${refused.length === 1 ? 'the attached file' : 'these attached files'} ${list}: ${takes}${s.refusal ? ` (${s.refusal})` : ''}. Remove ${refused.length === 1 ? 'it' : 'them'} and send again; nothing was sent to the agent.`;
}
