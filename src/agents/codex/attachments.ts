// §6.1.1 context files for Codex (decision 312): images go by Codex's own `--image <FILE>` option
// (of `exec`, and of `exec resume` on later turns), which needs a local file — the host makes one
// in the session's private folder (AgentHost.localCopy); text files are inlined into the prompt under their name, since `codex exec` has no
// other way to take a document. Anything else is refused at admission.
import { COMMON_IMAGE_TYPES, TEXT_TYPES, isImage, textOf, type AttachmentSupport, type ResolvedContextFile } from '../../session/attachments';
import { inlinedText } from '../attachments';

export const CODEX_ATTACHMENTS: AttachmentSupport = { accepts: [...COMMON_IMAGE_TYPES, ...TEXT_TYPES], refusal: 'Codex takes images and text files' };

export interface CodexAttachments {
  /** Local image files for `--image`. */
  images: string[];
  /** The prompt with text attachments inlined ahead of it. */
  text: string;
}

export async function codexAttachments(text: string, files: readonly ResolvedContextFile[], localCopy: ((f: ResolvedContextFile) => Promise<string>) | undefined): Promise<CodexAttachments> {
  const images: string[] = [];
  const inlined: string[] = [];
  for (const f of files) {
    if (isImage(f.mimeType)) {
      if (!localCopy) throw new Error(`this host cannot give Codex a local file for the attached image ${f.name}`);
      images.push(await localCopy(f));
    } else {
      const body = textOf(f);
      if (body === undefined) throw new Error(`the attached file ${f.name} is not UTF-8 text`);
      inlined.push(inlinedText(f.name, body));
    }
  }
  return { images, text: inlined.length > 0 ? `${inlined.join('\n\n')}\n\n${text}` : text };
}
