// The host's JSON-Schema validator for §11 structured output (the session layer's SchemaValidator
// port): ajv, the de-facto standard, with every error reported (`allErrors`), the formats of
// ajv-formats, and the dialect the schema names in `$schema` (draft-07 by default, 2019-09,
// 2020-12). Schemas arrive from masters, so they are data with limits (decision 322): `pattern`
// and `patternProperties` run on re2js (linear time, no ReDoS), unknown keywords are tolerated
// (`strict: false`; OpenAI-style schemas carry extras), and the schema itself must pass its
// meta-schema. Compiled schemas are cached by their JSON text (a run repeats the same one).
import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { RE2JS } from 're2js';
import type { CompiledSchema, SchemaIssue, SchemaValidator } from '../session/structuredOutput';
import { pointerToken } from '../protocol/structuredOutput';

/** Regex patterns longer than this are refused (matching cost grows with pattern size). */
const MAX_PATTERN_LENGTH = 4_096;
const CACHE_SIZE = 32;

/** ajv's `code.regExp` engine on re2js: RE2 semantics, linear in the input. */
function linearRegExp(pattern: string, flags: string): { test(s: string): boolean } {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new Error(`a pattern is longer than ${MAX_PATTERN_LENGTH} characters`);
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern), flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    throw new Error(`pattern ${JSON.stringify(pattern.slice(0, 80))} is not supported (linear-time RE2 syntax: no look-arounds or back-references): ${(e as Error).message}`);
  }
  return { test: (s: string) => re.matcher(s).find() };
}
linearRegExp.code = 'linearRegExp';

type Dialect = 'draft-07' | '2019-09' | '2020-12';

function dialectOf(schema: Record<string, unknown>): Dialect {
  const id = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (id.includes('2020-12')) return '2020-12';
  if (id.includes('2019-09')) return '2019-09';
  return 'draft-07';
}

function issueOf(e: ErrorObject): SchemaIssue {
  // A missing or an extra property is reported at its object; name it, so the path says which.
  const params = e.params as { missingProperty?: unknown; additionalProperty?: unknown };
  const named = e.keyword === 'required' ? params.missingProperty : e.keyword === 'additionalProperties' ? params.additionalProperty : undefined;
  const property = typeof named === 'string' ? `/${pointerToken(named)}` : '';
  return { path: `${e.instancePath}${property}`, keyword: e.keyword, message: e.message ?? e.keyword };
}

export class AjvSchemaValidator implements SchemaValidator {
  private readonly engines = new Map<Dialect, Ajv>();
  private readonly cache = new Map<string, ValidateFunction>();

  compile(schema: Record<string, unknown>): CompiledSchema {
    const key = JSON.stringify(schema);
    let validate = this.cache.get(key);
    if (!validate) {
      const ajv = this.engine(dialectOf(schema));
      try {
        validate = ajv.compile(schema);
      } finally {
        // Masters' schemas may share an `$id`: ajv must not keep one, or the next would clash.
        ajv.removeSchema(schema);
      }
      if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, validate);
    }
    const fn = validate;
    return {
      validate: (data) => (fn(data) ? [] : (fn.errors ?? []).map(issueOf)),
    };
  }

  private engine(d: Dialect): Ajv {
    let ajv = this.engines.get(d);
    if (ajv) return ajv;
    const options: Options = { allErrors: true, strict: false, validateSchema: true, code: { regExp: linearRegExp } };
    ajv = d === '2020-12' ? new Ajv2020(options) : d === '2019-09' ? new Ajv2019(options) : new Ajv(options);
    addFormats(ajv);
    this.engines.set(d, ajv);
    return ajv;
  }
}
