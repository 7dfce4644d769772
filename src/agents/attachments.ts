// The bytes of a prompt's §6.1.1 context files, for the adapters that pass them on in the agent's
// own shape. Admission has already refused what the agent does not take and what cannot be read
// (src/host/attachmentAdmission.ts), so a file that fails here (deleted in between) fails the turn
// with a sentence, never silently.
import type { AgentHost, AgentPrompt } from '../session/agentAdapter';
import { noContextFiles, type ResolvedContextFile } from '../session/contextFiles';
import { fence } from './fence';

export type { ResolvedContextFile };

export async function contextFilesOf(prompt: Pick<AgentPrompt, 'context_files'>, host: Pick<AgentHost, 'contextFiles'> | undefined, signal?: AbortSignal): Promise<ResolvedContextFile[]> {
  const source = host?.contextFiles ?? noContextFiles;
  const out: ResolvedContextFile[] = [];
  for (const f of prompt.context_files) {
    try {
      const hints = { file_name: f.file_name, ...(f.mime_type ? { mime_type: f.mime_type } : {}) };
      out.push(await source.resolve(f.file_url, hints, signal));
    } catch (e) {
      throw new Error(`the attached file ${f.file_name} could not be read: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}

/**
 * A text attachment inlined into a prompt as a fenced block under its name. The fence is longer
 * than any run of backticks in the text, so the text cannot close it and go on as prompt.
 */
export function inlinedText(name: string, text: string): string {
  const f = fence(text);
  return `Attached file ${name}:\n${f}\n${text}\n${f}`;
}
