// §15.4: structured output whose `validation_status` is `failed` must be validated again by the
// master before it is handed to anything downstream (a copy action, a script, another tool). We
// hold `partial` to the same rule: the agent itself says the data does not fully match.
// Re-validation uses the JSON Schema of the request (config_overrides.json_schema) through the
// validator the caller gives: the host's (ajv, src/host/jsonSchemaValidator.ts), so a re-validation
// says what the engine's verdict said, in the same words ("/population: must be integer"), and runs
// `pattern` in linear time. (zod's fromJSONSchema said "expected number" of an integer and named a
// missing property as a wrong value; decision 621.)
import type { PayloadOf } from './frameTypes';

export type StructuredOutput = NonNullable<PayloadOf<'session.turn.end'>['structured_output']>;

/** Where `data` misses the requested schema (a JSON pointer, '' for the root) and why; [] when it conforms. */
export type Revalidate = (data: Record<string, unknown>) => ReadonlyArray<{ path: string; message: string }>;

export type StructuredOutputRelease =
  | { released: true; data: Record<string, unknown>; revalidated: boolean }
  | { released: false; reason: string };

/** May this structured output go downstream? `revalidate` checks data against the schema the prompt asked for. */
export function releaseStructuredOutput(output: StructuredOutput, revalidate?: Revalidate): StructuredOutputRelease {
  if (output.validation_status === 'valid') return { released: true, data: output.data, revalidated: false };
  if (!revalidate) {
    return { released: false, reason: `the agent reports validation ${output.validation_status} and there is no schema to check the data against (§15.4)` };
  }
  let issues: ReadonlyArray<{ path: string; message: string }>;
  try {
    issues = revalidate(output.data);
  } catch (e) {
    return { released: false, reason: `the requested schema cannot be used to re-validate: ${(e as Error).message}` };
  }
  if (issues.length === 0) return { released: true, data: output.data, revalidated: true };
  return { released: false, reason: `re-validation against the requested schema failed: ${describeSchemaIssues(issues)}` };
}

/** Issues in a line a person reads: the first few, with where they are (the engine's warning, a re-validation). */
export function describeSchemaIssues(issues: ReadonlyArray<{ path: string; message: string }>, max = 3): string {
  const shown = issues.slice(0, max).map((i) => `${i.path || '(root)'}: ${i.message}`);
  return issues.length > max ? `${shown.join('; ')}; and ${issues.length - max} more` : shown.join('; ');
}

/** One property name as a JSON-pointer token (RFC 6901: `~` → `~0`, `/` → `~1`). */
export function pointerToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
