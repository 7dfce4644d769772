// §6.3.2: plan and review modes allow reading and searching only; write and shell tools are
// blocked with exactly "Tool not allowed in current mode". The engine's checkTool enforces this
// too; the runner repeats it so it holds even if a host forgets.
import type { AgentModeName } from '../protocol/common';
import type { ToolKind } from './types';

export const MODE_BLOCKED_MESSAGE = 'Tool not allowed in current mode';

export function modeAllows(mode: AgentModeName, kind: ToolKind): boolean {
  if (mode === 'default') return true;
  return kind !== 'write' && kind !== 'shell';
}
