// §6.1.1 context files for ACP agents, only as the agent's `promptCapabilities` allow (decision
// 313): images as `image` content when `image` is true; text files (and PDFs) as an embedded
// `resource` when `embeddedContext` is true — text as TextResourceContents, a PDF as a base64
// blob. What the agent did not allow is declared unsupported, so admission refuses it with the
// agent's name before the turn; nothing is silently turned into something else.
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { COMMON_IMAGE_TYPES, TEXT_TYPES, base64Of, isImage, isText, textOf, type AttachmentSupport, type ResolvedContextFile } from '../../session/attachments';

export interface AcpPromptCapabilities {
  image?: boolean;
  embeddedContext?: boolean;
}

export function acpAttachments(caps: AcpPromptCapabilities | null | undefined): AttachmentSupport {
  const accepts = [...(caps?.image ? COMMON_IMAGE_TYPES : []), ...(caps?.embeddedContext ? [...TEXT_TYPES, 'application/pdf'] : [])];
  const missing = [...(caps?.image ? [] : ['images (no promptCapabilities.image)']), ...(caps?.embeddedContext ? [] : ['files (no promptCapabilities.embeddedContext)'])];
  return missing.length > 0 ? { accepts, refusal: `the agent does not take ${missing.join(' or ')}` } : { accepts };
}

/** The content blocks of the attachments, before the prompt's own text blocks. */
/** The resource's URI: the prompt's file_url, unless it is a data: URL (the bytes are in the block already). */
function resourceUri(file_url: string, name: string): string {
  return file_url.startsWith('data:') ? `attachment:///${encodeURIComponent(name)}` : file_url;
}

export function acpAttachmentBlocks(files: readonly { file_url: string; file: ResolvedContextFile }[]): ContentBlock[] {
  return files.map(({ file_url: url, file: f }): ContentBlock => {
    const file_url = resourceUri(url, f.name);
    if (isImage(f.mimeType)) return { type: 'image', mimeType: f.mimeType, data: base64Of(f.bytes) };
    if (isText(f.mimeType)) {
      const text = textOf(f);
      if (text === undefined) throw new Error(`the attached file ${f.name} is not UTF-8 text`);
      return { type: 'resource', resource: { uri: file_url, mimeType: f.mimeType, text } };
    }
    return { type: 'resource', resource: { uri: file_url, mimeType: f.mimeType, blob: base64Of(f.bytes) } };
  });
}
