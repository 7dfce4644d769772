// Payloads of the `tool.*` frames (§5, §10.1).
import { z } from 'zod';
import { DiagnosticSeverity, Id, NonNegInt, NonNegNumber, OutputType, ToolCategory, ToolStatus } from '../common';

/** §10.1: present when the invocation starts a subagent. */
export const SubagentSpec = z.looseObject({
  agent_type: z.string().optional(),
  description: z.string().optional(),
});

/** §5.2.1 (+ `subagent`, §10.1) */
export const ToolInvokeRequest = z.looseObject({
  invocation_id: Id,
  tool_name: z.string().min(1),
  tool_version: z.string().optional(),
  input: z.record(z.string(), z.unknown()),
  parallel_group_id: z.string().optional(),
  subagent: SubagentSpec.optional(),
});

export const ToolResultStatus = z.enum(['success', 'error', 'timeout', 'cancelled']);

/**
 * Ours, not in §5.3.1 (a receiver ignores an unknown key, §2.2): the call needed approval and ran
 * without a question because a saved rule allowed it, so a view can say why it ran (decision 691).
 * The rule's scope comes along: a master without the host's rule list can still name it.
 */
export const AllowedByRule = z.looseObject({
  rule_id: z.string().min(1).max(128),
  lifetime: z.enum(['session', 'always']),
  tool_name: z.string().min(1).max(256),
  path_glob: z.string().max(4096).optional(),
  command_prefix: z.string().max(4096).optional(),
});

/** §5.3.1. `output` is tool-dependent but required (null is a value). */
export const ToolInvokeResult = z.looseObject({
  invocation_id: Id,
  tool_name: z.string().min(1),
  status: ToolResultStatus,
  output: z.unknown().refine((v) => v !== undefined, 'output is required (use null or "" for none)'),
  output_type: OutputType,
  duration_ms: NonNegNumber.optional(),
  truncated: z.boolean().optional(),
  /** Our tools' error code of an error result (FS_NOT_OBSERVED, NONZERO_EXIT …); not in §5.3.1, so
   *  optional and ignorable: our views turn it into a sentence (issue 15 Why 6). */
  error_code: z.string().min(1).optional(),
  allowed_by_rule: AllowedByRule.optional(),
});

/** §5.3.2: `sequence` counts from 0 per invocation, for reordering. */
export const ToolInvokeStream = z.looseObject({
  invocation_id: Id,
  tool_name: z.string().min(1),
  stream_type: z.enum(['stdout', 'stderr', 'progress']),
  chunk: z.string(),
  sequence: NonNegInt,
});

export const CatalogTool = z.looseObject({
  name: z.string().min(1),
  version: z.string().optional(),
  description: z.string(),
  input_schema: z.record(z.string(), z.unknown()).optional(),
  output_type: OutputType.optional(),
  requires_approval: z.boolean().optional(),
  category: ToolCategory.optional(),
  status: ToolStatus.optional().describe('absent means available'),
  status_description: z.string().optional(),
});

export const CatalogDiagnostic = z.looseObject({
  severity: DiagnosticSeverity,
  tool_name: z.string().optional(),
  code: z.string().min(1),
  message: z.string(),
});

/** §5.4.1 */
export const ToolCatalogPublish = z.looseObject({
  tools: z.array(CatalogTool),
  diagnostics: z.array(CatalogDiagnostic).optional(),
});

