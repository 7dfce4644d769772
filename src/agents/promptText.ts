// The prompt text an external agent gets (§16.3): file-reference tokens converted by the agent's
// strategy (fileReferences.ts), `\<@file:` escapes undone. A token that cannot be resolved stays as
// its display path and the user is told with an `agent.error` warning — never silently dropped.
import type { AgentHost, AgentPrompt } from '../session/agentAdapter';
import { convertFileReferences, type ConversionStrategy, type ConvertedPrompt, type ConvertOptions } from './fileReferences';

/** Converts the prompt's tokens; the resolved files come back for strategies that send them apart. */
/** `fs`: the backend the agent's tools use, for agents whose files go through one (see ConvertOptions). */
export async function convertPrompt(prompt: Pick<AgentPrompt, 'text' | 'file_references'>, host: Pick<AgentHost, 'workspacePath' | 'emit'>, strategy: ConversionStrategy, fs?: ConvertOptions['fs']): Promise<ConvertedPrompt> {
  const converted = await convertFileReferences(prompt.text, prompt.file_references, { roots: fs?.roots ?? [host.workspacePath], strategy, ...(fs ? { fs } : {}) });
  if (converted.errors.length > 0) {
    host.emit({
      type: 'agent.error',
      payload: {
        error_code: 'FILE_REFERENCE_UNRESOLVED',
        message: `Sent as plain text (not attached): ${converted.errors.map((e) => `${e.path} (${e.message})`).join('; ')}`,
        severity: 'warning',
        recoverable: true,
      },
    });
  }
  return converted;
}

export async function promptText(prompt: Pick<AgentPrompt, 'text' | 'file_references'>, host: Pick<AgentHost, 'workspacePath' | 'emit'>, strategy: ConversionStrategy, fs?: ConvertOptions['fs']): Promise<string> {
  // Without a backslash or `<@` there is neither a token nor an escape to undo (§16.2.2).
  if (!prompt.text.includes('\\') && !prompt.text.includes('<@')) return prompt.text;
  return (await convertPrompt(prompt, host, strategy, fs)).text;
}

/** Claude Code loads files itself and understands `@path` mentions (§16.3 first row). */
export const CLAUDE_MENTIONS: ConversionStrategy = { kind: 'separate', mention: (path) => `@${path}` };
