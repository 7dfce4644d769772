// §15.4: structured output whose `validation_status` is `failed` must be validated again by the
// master before it is handed to anything downstream (a copy action, a script, another tool). We
// hold `partial` to the same rule: the agent itself says the data does not fully match.
// Re-validation uses the JSON Schema of the request (config_overrides.json_schema) through zod.
import { z } from 'zod';
import type { PayloadOf } from './frameTypes';

export type StructuredOutput = NonNullable<PayloadOf<'session.turn.end'>['structured_output']>;

export type StructuredOutputRelease =
  | { released: true; data: Record<string, unknown>; revalidated: boolean }
  | { released: false; reason: string };

/** May this structured output go downstream? `schema` is the JSON Schema the prompt asked for. */
export function releaseStructuredOutput(output: StructuredOutput, schema?: Record<string, unknown>): StructuredOutputRelease {
  if (output.validation_status === 'valid') return { released: true, data: output.data, revalidated: false };
  if (!schema) {
    return { released: false, reason: `the agent reports validation ${output.validation_status} and there is no schema to check the data against (§15.4)` };
  }
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (e) {
    return { released: false, reason: `the requested schema cannot be used to re-validate: ${(e as Error).message}` };
  }
  const check = validator.safeParse(output.data);
  if (check.success) return { released: true, data: output.data, revalidated: true };
  const issues = check.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { released: false, reason: `re-validation against the requested schema failed: ${issues.join('; ')}` };
}
