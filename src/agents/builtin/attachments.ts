// §6.1.1 context files for the built-in agent (decision 315). It has no model, so it cannot look
// at an image: images are refused before the turn, with that reason. Text files it reads, as its
// `read` does for a workspace file: the turn opens with each attached file's size and its first
// lines, so a user sees what the agent was given.
import { TEXT_TYPES, textOf, type AttachmentSupport, type ResolvedContextFile } from '../../session/attachments';
import type { BuiltinWords } from './words';

export const BUILTIN_ATTACHMENTS: AttachmentSupport = { accepts: [...TEXT_TYPES], refusal: 'it has no model to look at images or documents; it reads text files' };

const SHOWN_LINES = 20;

export function describeAttachment(words: BuiltinWords, f: ResolvedContextFile): string {
  const text = textOf(f);
  if (text === undefined) return words.attachedNotText(f.name, f.bytes.length);
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const shown = lines.slice(0, SHOWN_LINES).join('\n');
  const more = lines.length > SHOWN_LINES ? `\n${words.moreLines(lines.length - SHOWN_LINES)}` : '';
  return `${words.attached(f.name, lines.length, f.bytes.length)}\n\`\`\`\n${shown}\n\`\`\`${more}`;
}
