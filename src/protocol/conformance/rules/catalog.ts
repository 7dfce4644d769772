// §15.1: only tools of the last tool.catalog.publish may be invoked (§5.4.1: and not unavailable
// ones). §5.3.3: a result's output_type follows the catalog declaration, else the category
// default, else `text`. Where the category table offers alternatives the frame does not say
// which applied, so only values outside all alternatives are reported, as warnings.
import { allowedOutputTypes } from '../../outputType';
import { where, type Located, type SessionRule } from '../context';

export function catalogRule(): SessionRule {
  /** Requests for tools outside the catalog or blocked by it, waiting for their result. */
  const blocked = new Map<string, { at: Located; code: 'TOOL_NOT_IN_CATALOG' | 'TOOL_UNAVAILABLE'; why: string }>();
  return {
    frame(at, ctx, report) {
      const f = at.frame;
      if (f.type === 'tool.invoke.request') {
        // §15.1: the client refuses such a call — the request may be on the wire, answered with an
        // error result (the engine's refusal); only a call that then ran breaks the rule.
        const name = f.payload.tool_name;
        const entry = ctx.catalog?.tools.find((t) => t.name === name);
        const fatal = ctx.catalog?.diagnostics?.some((d) => d.severity === 'fatal' && d.tool_name === name);
        if (!ctx.catalog) blocked.set(f.payload.invocation_id, { at, code: 'TOOL_NOT_IN_CATALOG', why: `tool ${name} was invoked before any tool.catalog.publish` });
        else if (!entry) blocked.set(f.payload.invocation_id, { at, code: 'TOOL_NOT_IN_CATALOG', why: `tool ${name} is not in the last tool.catalog.publish` });
        else if (entry.status === 'unavailable' || fatal) {
          blocked.set(f.payload.invocation_id, { at, code: 'TOOL_UNAVAILABLE', why: `tool ${name} is ${fatal ? 'blocked by a fatal catalog diagnostic' : 'marked unavailable in the catalog'}` });
        }
      } else if (f.type === 'tool.invoke.result') {
        const { tool_name: name, output_type: got, status } = f.payload;
        const refused = blocked.get(f.payload.invocation_id);
        if (refused) {
          blocked.delete(f.payload.invocation_id);
          if (status === 'success' || status === 'timeout') report(refused.code, where(refused.at), `${refused.why}, yet it was run (result status ${status} on line ${at.line}); it must be refused`);
        }
        const entry = ctx.catalog?.tools.find((t) => t.name === name);
        if (!entry) return;
        // A failed call carries its error message as text (docs/decisions/032-validator-output-type.md).
        if (status !== 'success' && got === 'text') return;
        const allowed = allowedOutputTypes(name, entry);
        if (allowed.types.includes(got)) return;
        const expected = allowed.types.join(' or ');
        if (allowed.basis === 'catalog') {
          report('OUTPUT_TYPE_MISMATCH', where(at), `output_type ${got}, but the catalog declares ${expected} for ${name}`);
        } else if (allowed.basis === 'category') {
          report('OUTPUT_TYPE_MISMATCH', where(at), `output_type ${got}, but category ${entry.category} gives ${expected} for ${name}`);
        } else if (allowed.basis === 'category_alternatives') {
          report('OUTPUT_TYPE_UNEXPECTED', where(at), `output_type ${got}, but category ${entry.category} allows ${expected} for ${name}`);
        } else {
          report('OUTPUT_TYPE_UNEXPECTED', where(at), `output_type ${got}, but ${name} has no declared output_type nor a category default, so the fallback is text`);
        }
      }
    },
  };
}
