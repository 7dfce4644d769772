// How risky a call looks, for the prompt's risk_level (§4.3.1): outside the workspace or a
// destructive shell command is dangerous; other writes and commands are moderate.
import type { CallShape } from './rules';

const DANGEROUS_COMMAND = /\b(rm\s+-[a-z]*[rf]|sudo|mkfs|dd\s+if=|chmod\s+-R|chown\s+-R|git\s+push\s+.*--force|git\s+reset\s+--hard|shutdown|reboot)\b|>\s*\/dev\/sd|curl[^|]*\|\s*(ba)?sh/;

export function riskOf(call: CallShape, outsideWorkspace: boolean): 'safe' | 'moderate' | 'dangerous' {
  if (outsideWorkspace) return 'dangerous';
  if (call.command !== undefined && DANGEROUS_COMMAND.test(call.command)) return 'dangerous';
  return 'moderate';
}
