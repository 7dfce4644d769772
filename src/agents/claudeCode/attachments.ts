// §6.1.1 context files in Claude Code's own shape: the stream-json user message carries Anthropic
// content blocks next to the text — `image` (base64) for images, `document` with a base64 PDF or
// with plain text for text files (titled with the file name). What Claude Code takes is declared
// here, once, for admission (decision 311).
import { COMMON_IMAGE_TYPES, TEXT_TYPES, base64Of, isImage, textOf, type AttachmentSupport, type ResolvedContextFile } from '../../session/attachments';

export const CLAUDE_ATTACHMENTS: AttachmentSupport = { accepts: [...COMMON_IMAGE_TYPES, 'application/pdf', ...TEXT_TYPES] };

/** The one-process-per-prompt fallback passes the prompt as an argument: text only. */
export const CLAUDE_ONESHOT_ATTACHMENTS: AttachmentSupport = { accepts: [], refusal: 'the one-process-per-prompt mode sends the prompt as text only' };

export type ClaudeContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }
  | { type: 'document'; title: string; source: { type: 'base64'; media_type: 'application/pdf'; data: string } | { type: 'text'; media_type: 'text/plain'; data: string } };

export function claudeBlocks(text: string, files: readonly ResolvedContextFile[]): ClaudeContentBlock[] {
  const blocks: ClaudeContentBlock[] = [];
  for (const f of files) {
    if (isImage(f.mimeType)) blocks.push({ type: 'image', source: { type: 'base64', media_type: f.mimeType, data: base64Of(f.bytes) } });
    else if (f.mimeType === 'application/pdf') blocks.push({ type: 'document', title: f.name, source: { type: 'base64', media_type: 'application/pdf', data: base64Of(f.bytes) } });
    else {
      const body = textOf(f);
      if (body === undefined) throw new Error(`the attached file ${f.name} is not UTF-8 text`);
      blocks.push({ type: 'document', title: f.name, source: { type: 'text', media_type: 'text/plain', data: body } });
    }
  }
  blocks.push({ type: 'text', text });
  return blocks;
}
