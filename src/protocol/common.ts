// Shared schema pieces: identifiers, timestamps and the small enumerations several frames use.
import { z } from 'zod';

/** UUID v4 as the spec asks for ids (§2.1). Builders always produce these. */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * An identifier. The spec says "UUID v4", but real agents hand us their own ids (Claude's
 * `toolu_…`, Codex's `item_…`), so schemas accept any non-empty string and `rawp validate`
 * warns where a UUID v4 was expected (docs/decisions/001-identifiers-any-string.md).
 */
export const Id = z.string().min(1);

/** ISO 8601 date-time with an offset or `Z` (§2.1, millisecond precision recommended). */
export const IsoTimestamp = z.iso.datetime({ offset: true });

export const NonNegInt = z.number().int().nonnegative();
export const NonNegNumber = z.number().nonnegative();

/** A vendor extension name: `x-{vendor}.…` (§3.1.1, §4.6.1). */
export const VENDOR_EXTENSION = /^x-[A-Za-z0-9_-]+\./;

export const AgentMode = z.enum(['default', 'plan', 'review']).describe('§6.3.2 agent operating mode');

export const RiskLevel = z.enum(['safe', 'moderate', 'dangerous']);

export const OutputType = z
  .enum(['text', 'structured', 'file_content', 'file_list', 'diff', 'web_content', 'empty', 'binary_ref', 'agent_result'])
  .describe('§5.3.1 hint for how a tool result is rendered');

export const ToolCategory = z
  .enum(['filesystem', 'shell', 'search', 'web', 'notebook', 'task_management', 'agent', 'planning', 'mcp', 'custom'])
  .describe('§5.4.1 tool category');

export const ToolStatus = z.enum(['available', 'unavailable', 'degraded']).describe('§5.4.1 tool status');

export const DiagnosticSeverity = z.enum(['info', 'warning', 'error', 'fatal']);

export const ReservedAgentState = z.enum(['idle', 'thinking', 'tool_calling', 'awaiting_input', 'error']);

/** §4.6.1: a reserved state or a vendor state `x-{vendor}.{state}`. */
export const AgentStateName = z.union([
  ReservedAgentState,
  z.string().regex(VENDOR_EXTENSION, 'a reserved state (idle, thinking, tool_calling, awaiting_input, error) or x-{vendor}.{state}'),
]);

export type OutputTypeName = z.infer<typeof OutputType>;
export type ToolCategoryName = z.infer<typeof ToolCategory>;
export type AgentModeName = z.infer<typeof AgentMode>;
/** §4.3.1 `risk_level`: the one spelling of risk levels (permission policy, options, the view). */
export type RiskLevelName = z.infer<typeof RiskLevel>;
