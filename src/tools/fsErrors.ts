// Turns a thrown FsError/ToolError into the tool's error outcome, so no tool throws at the runner.
import { FsError } from '../workspace/fsBackend';
import { ToolError, type ToolOutcome } from './types';

/** Error messages quote paths and input; a 200 KB path is not repeated in full (issue 12 finding 2). */
const MAX_MESSAGE = 4_000;

function clip(message: string): string {
  return message.length <= MAX_MESSAGE ? message : `${message.slice(0, MAX_MESSAGE)}… (${message.length} characters)`;
}

export function errorOutcome(e: unknown): ToolOutcome {
  if (e instanceof FsError || e instanceof ToolError) return { status: 'error', output: `${e.code}: ${clip(e.message)}`, error_code: e.code };
  return { status: 'error', output: `TOOL_FAILED: ${clip(e instanceof Error ? e.message : String(e))}`, error_code: 'TOOL_FAILED' };
}
