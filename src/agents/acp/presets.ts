// Known ACP agents and how `acp:<preset or command line>` names one. A preset is only a command
// line and the npm package that provides it; any other ACP agent works with its own command line.

export interface AcpCommand {
  /** Stable agent id, e.g. 'acp:gemini'. */
  id: string;
  displayName: string;
  command: string;
  args: string[];
  /** The npm package that installs `command` (for detection messages). */
  npmPackage?: string;
  /** Flag that prints the version (for detection). */
  versionArgs?: string[];
}

export const ACP_PRESETS: Record<string, AcpCommand> = {
  gemini: { id: 'acp:gemini', displayName: 'Gemini CLI (ACP)', command: 'gemini', args: ['--acp'], npmPackage: '@google/gemini-cli', versionArgs: ['--version'] },
  'claude-agent-acp': { id: 'acp:claude-agent-acp', displayName: 'Claude Agent (ACP)', command: 'claude-agent-acp', args: [], npmPackage: '@agentclientprotocol/claude-agent-acp' },
  'claude-code-acp': { id: 'acp:claude-code-acp', displayName: 'Claude Code (ACP, Zed)', command: 'claude-code-acp', args: [], npmPackage: '@zed-industries/claude-code-acp' },
  'codex-acp': { id: 'acp:codex-acp', displayName: 'Codex (ACP, Zed)', command: 'codex-acp', args: [], npmPackage: '@zed-industries/codex-acp' },
};

/**
 * `gemini` (a preset) or a command line such as `my-agent --acp "--name=a b"`. Quotes group
 * words; there is no shell, so nothing else is special.
 */
export function parseAcpSpec(spec: string): AcpCommand {
  const trimmed = spec.trim().replace(/^acp:/, '');
  const preset = ACP_PRESETS[trimmed];
  if (preset) return { ...preset, args: [...preset.args] };
  const words = splitCommandLine(trimmed);
  if (words.length === 0) throw new Error('acp: empty agent command line');
  const [command, ...args] = words;
  return { id: `acp:${trimmed}`, displayName: `ACP agent (${command})`, command, args };
}

export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let quote: '"' | "'" | undefined;
  let inWord = false;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = undefined;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) throw new Error(`acp: unterminated ${quote} in "${line}"`);
  if (inWord) words.push(cur);
  return words;
}
