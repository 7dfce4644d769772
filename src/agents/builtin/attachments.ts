// §6.1.1 context files for the built-in agent (decision 315). It has no model, so it cannot look
// at an image: images are refused before the turn, with that reason. Text files it reads, as its
// `read` does for a workspace file: the turn opens with each attached file's size and its first
// lines, so a user sees what the agent was given.
import { TEXT_TYPES, textOf, type AttachmentSupport, type ResolvedContextFile } from '../../session/attachments';

export const BUILTIN_ATTACHMENTS: AttachmentSupport = { accepts: [...TEXT_TYPES], refusal: 'it has no model to look at images or documents; it reads text files' };

const SHOWN_LINES = 20;

export function describeAttachment(f: ResolvedContextFile): string {
  const text = textOf(f);
  if (text === undefined) return `Attached file ${f.name} is not UTF-8 text (${f.bytes.length} bytes); I cannot read it.`;
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const shown = lines.slice(0, SHOWN_LINES).join('\n');
  const more = lines.length > SHOWN_LINES ? `\n… ${lines.length - SHOWN_LINES} more line(s)` : '';
  return `Attached file ${f.name} (${lines.length} line(s), ${f.bytes.length} bytes):\n\`\`\`\n${shown}\n\`\`\`${more}`;
}
