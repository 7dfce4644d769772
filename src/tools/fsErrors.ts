// Turns a thrown FsError/ToolError into the tool's error outcome, so no tool throws at the runner.
import { FsError } from '../workspace/fsBackend';
import { ToolError, type ToolOutcome } from './types';

export function errorOutcome(e: unknown): ToolOutcome {
  if (e instanceof FsError || e instanceof ToolError) return { status: 'error', output: `${e.code}: ${e.message}`, error_code: e.code };
  return { status: 'error', output: `TOOL_FAILED: ${e instanceof Error ? e.message : String(e)}`, error_code: 'TOOL_FAILED' };
}
