// The view's §15.4 re-validation of structured output (webview-ui has no ajv): the requested JSON
// Schema through zod's fromJSONSchema, its issues said in the host validator's words, so the chat,
// `rawp run` and the engine's STRUCTURED_OUTPUT_INVALID warning name a problem alike
// ("/population: must be integer", "/population: must have required property 'population'").
// zod runs `pattern` as a JavaScript RegExp, which backtracks: a hostile pattern over an agent's
// string could freeze the view. A schema with patterns is therefore not re-validated here (the data
// stays withheld; the host's linear-time verdict stands). Decision 621.
import { z } from 'zod';
import { pointerToken, type Revalidate } from './structuredOutput';

type Issue = { path: string; message: string };
type ZodIssue = z.core.$ZodIssue;

export const PATTERNS_NOT_RUN = 'its regular-expression patterns are not run on an agent\'s data in this view (a hostile pattern could freeze it); the host\'s own check, in linear time, gave the verdict';

export function viewRevalidate(schema: Record<string, unknown>): Revalidate {
  return (data) => {
    if (hasPattern(schema)) throw new Error(PATTERNS_NOT_RUN);
    const check = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(data);
    return check.success ? [] : check.error.issues.flatMap((i) => inHostWords(i, schema, data));
  };
}

/** Any `pattern` or `patternProperties` anywhere in the schema (walked without recursion). */
function hasPattern(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (!Array.isArray(node) && ('pattern' in node || 'patternProperties' in node)) return true;
    for (const v of Object.values(node)) if (v !== null && typeof v === 'object') stack.push(v);
  }
  return false;
}

const pointer = (path: readonly PropertyKey[]): string => path.map((k) => `/${pointerToken(String(k))}`).join('');

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** The `type` the schema declares at `path` (through properties and items), if it says one. */
function declaredType(schema: Record<string, unknown>, path: readonly PropertyKey[]): string | undefined {
  let s: unknown = schema;
  for (const k of path) {
    if (s === null || typeof s !== 'object') return undefined;
    const node = s as Record<string, unknown>;
    s = typeof k === 'number' ? node.items : (node.properties as Record<string, unknown> | undefined)?.[String(k)];
  }
  const type = (s as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' ? type : Array.isArray(type) ? type.join(',') : undefined;
}

function inHostWords(issue: ZodIssue, schema: Record<string, unknown>, data: unknown): Issue | Issue[] {
  const path = pointer(issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.path.length > 0 && valueAt(data, issue.path) === undefined) return { path, message: `must have required property '${String(issue.path.at(-1))}'` };
      const expected = declaredType(schema, issue.path) ?? (issue.expected === 'int' ? 'integer' : issue.expected);
      return { path, message: `must be ${expected}` };
    }
    case 'unrecognized_keys':
      // One issue per extra property, at its own path (as the host names it).
      return issue.keys.map((k) => ({ path: pointer([...issue.path, k]), message: 'must NOT have additional properties' }));
    case 'too_small':
    case 'too_big':
      if (issue.origin === 'number' || issue.origin === 'int') {
        const limit = issue.code === 'too_small' ? issue.minimum : issue.maximum;
        const op = issue.code === 'too_small' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
        return { path, message: `must be ${op} ${String(limit)}` };
      }
      return { path, message: issue.message };
    default:
      return { path, message: issue.message };
  }
}
