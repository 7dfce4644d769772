// §6.1.1 context files for the OpenAI-compatible agent (decision 314). Chat Completions takes
// images as `image_url` parts (a base64 data: URL), but only vision models read them, and the
// API cannot tell us which models those are. So the user says so: `vision: true` (setting
// `rawp.openai.vision`, `rawp serve --vision`) — then images go as `image_url` parts; otherwise
// an image is refused before the turn with a sentence naming the setting. Text files are always
// inlined as text under their name, as file references are (§16.3).
import { COMMON_IMAGE_TYPES, TEXT_TYPES, base64Of, isImage, textOf, type AttachmentSupport, type ResolvedContextFile } from '../../session/attachments';
import { inlinedText } from '../attachments';
import type { ChatContentPart } from './chatStream';

export function openaiAttachments(vision: boolean): AttachmentSupport {
  return vision
    ? { accepts: [...COMMON_IMAGE_TYPES, ...TEXT_TYPES] }
    : { accepts: [...TEXT_TYPES], refusal: 'images only for a model marked as a vision model: setting rawp.openai.vision, or rawp serve --vision' };
}

/** The user message's content: plain text when nothing is attached, else text and image parts. */
export function openaiUserContent(text: string, files: readonly ResolvedContextFile[]): string | ChatContentPart[] {
  if (files.length === 0) return text;
  const inlined: string[] = [];
  const images: ChatContentPart[] = [];
  for (const f of files) {
    if (isImage(f.mimeType)) images.push({ type: 'image_url', image_url: { url: `data:${f.mimeType};base64,${base64Of(f.bytes)}` } });
    else {
      const body = textOf(f);
      if (body === undefined) throw new Error(`the attached file ${f.name} is not UTF-8 text`);
      inlined.push(inlinedText(f.name, body));
    }
  }
  const full = inlined.length > 0 ? `${inlined.join('\n\n')}\n\n${text}` : text;
  return images.length === 0 ? full : [{ type: 'text', text: full }, ...images];
}
