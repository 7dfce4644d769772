// The template rendering step of expansion (slash-commands §6 `prompt.render` with
// `{ args, ARGUMENTS, arguments }`): `{{ key }}` and `{{ key.N }}` placeholders. Arrays render
// joined by one space; a placeholder for an unknown key is left as typed, so a command body
// that talks about `{{something}}` is not mangled.

export type TemplateValue = string | readonly string[];

/** Three groups: key, `.N` index, `[N]` index. Shared with the one-pass expansion (placeholders.ts). */
export const TEMPLATE_PLACEHOLDER = String.raw`\{\{\s*([A-Za-z_][\w]*)(?:\.(\d+)|\[(\d+)\])?\s*\}\}`;

const PLACEHOLDER = new RegExp(TEMPLATE_PLACEHOLDER, 'g');

/** What one matched `{{…}}` becomes; `whole` (the placeholder as typed) when the key is unknown. */
export function templateValue(whole: string, context: Readonly<Record<string, TemplateValue>>, key: string, index: string | undefined): string {
  if (!Object.prototype.hasOwnProperty.call(context, key)) return whole;
  const value = context[key];
  if (index !== undefined) return typeof value === 'string' ? whole : (value[Number(index)] ?? '');
  return typeof value === 'string' ? value : value.join(' ');
}

export function renderTemplate(template: string, context: Readonly<Record<string, TemplateValue>>): string {
  return template.replace(PLACEHOLDER, (whole, key: string, dotIndex?: string, bracketIndex?: string) => templateValue(whole, context, key, dotIndex ?? bracketIndex));
}
