// §11 structured output, decided once for every agent (docs/decisions/320): the JSON Schema of
// `config_overrides.json_schema` is checked when the prompt arrives, the agent's answer is
// validated when the turn ends, and `session.turn.end.structured_output` says honestly how well it
// matched. The validator is a port: the host gives a real JSON-Schema validator (ajv, with a
// linear-time regex engine, src/host/jsonSchemaValidator.ts); this layer stays pure.
import { extractJsonObject } from '../protocol/jsonAnswer';
import type { PayloadOf } from '../protocol/frameTypes';

export type StructuredOutput = NonNullable<PayloadOf<'session.turn.end'>['structured_output']>;

/** One way the data misses the schema: where (a JSON pointer), which keyword, and why. */
export interface SchemaIssue {
  path: string;
  keyword: string;
  message: string;
}

export interface CompiledSchema {
  /** The issues of `data` ([] when it conforms). */
  validate(data: unknown): SchemaIssue[];
}

export interface SchemaValidator {
  /** Compile a schema; throws an Error saying why it cannot be used. */
  compile(schema: Record<string, unknown>): CompiledSchema;
}

/** A schema larger than this (as JSON) is refused with the prompt. */
export const MAX_SCHEMA_BYTES = 256 * 1024;

export type PreparedSchema = { ok: true; schema: Record<string, unknown>; compiled: CompiledSchema } | { ok: false; message: string };

/**
 * Can this schema be honoured? §11.1 `data` is an object, so the schema must describe one: a root
 * `type` other than "object" is refused here rather than answered with data that can never fit.
 */
export function prepareSchema(schema: Record<string, unknown>, validator: SchemaValidator | undefined): PreparedSchema {
  if (!validator) return { ok: false, message: 'this host cannot validate JSON Schemas, so json_schema cannot be honoured' };
  let size: number;
  try {
    size = JSON.stringify(schema).length;
  } catch (e) {
    return { ok: false, message: `json_schema is not plain JSON: ${(e as Error).message}` };
  }
  if (size > MAX_SCHEMA_BYTES) return { ok: false, message: `json_schema is larger than ${MAX_SCHEMA_BYTES} bytes` };
  const type = schema.type;
  if (type !== undefined && type !== 'object' && !(Array.isArray(type) && type.includes('object'))) {
    return { ok: false, message: `json_schema must describe an object (§11.1 data is an object); its root type is ${JSON.stringify(type)}` };
  }
  try {
    return { ok: true, schema, compiled: validator.compile(schema) };
  } catch (e) {
    return { ok: false, message: `json_schema cannot be used: ${(e as Error).message}` };
  }
}

export interface StructuredVerdict {
  output: StructuredOutput;
  /** Why it is not `valid` (empty when it is). */
  issues: SchemaIssue[];
}

/**
 * The §11.1 verdict on a turn's answer (decision 320):
 *  - `valid`: a JSON object was found and it conforms to the schema;
 *  - `partial`: a JSON object was found, every value in it conforms, but required properties are
 *    missing (every issue is a `required` one) — what is there is right, something is not there;
 *  - `failed`: no JSON object was found (then `data` is `{}`), or a value in it violates the schema.
 * `native` is the data the agent handed over itself (Claude Code's StructuredOutput); otherwise
 * the answer text is searched for a JSON object (src/protocol/jsonAnswer.ts).
 */
export function judgeStructuredOutput(compiled: CompiledSchema, schema: Record<string, unknown>, answer: { native?: Record<string, unknown>; text: string }): StructuredVerdict {
  const schema_id = typeof schema.$id === 'string' ? schema.$id : undefined;
  const withId = (o: { data: Record<string, unknown>; validation_status: StructuredOutput['validation_status'] }): StructuredOutput => (schema_id !== undefined ? { schema_id, ...o } : o);
  let data: Record<string, unknown>;
  if (answer.native) data = answer.native;
  else {
    const found = extractJsonObject(answer.text);
    if (!found.found) return { output: withId({ data: {}, validation_status: 'failed' }), issues: [{ path: '', keyword: 'json', message: found.reason }] };
    data = found.value;
  }
  let issues: SchemaIssue[];
  try {
    issues = compiled.validate(data);
  } catch (e) {
    issues = [{ path: '', keyword: 'validator', message: `validation failed: ${(e as Error).message}` }];
  }
  const validation_status = issues.length === 0 ? 'valid' : issues.every((i) => i.keyword === 'required') ? 'partial' : 'failed';
  return { output: withId({ data, validation_status }), issues };
}

/** The instruction an agent without a native JSON-Schema option gets after the prompt. */
export function schemaInstruction(schema: Record<string, unknown>): string {
  return [
    '',
    '',
    'Give your final answer as one JSON object, and nothing else, that conforms to this JSON Schema:',
    '```json',
    JSON.stringify(schema, null, 2),
    '```',
  ].join('\n');
}

