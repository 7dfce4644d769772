// The template rendering step of expansion (slash-commands §6 `prompt.render` with
// `{ args, ARGUMENTS, arguments }`): `{{ key }}` and `{{ key.N }}` placeholders. Arrays render
// joined by one space; a placeholder for an unknown key is left as typed, so a command body
// that talks about `{{something}}` is not mangled.

export type TemplateValue = string | readonly string[];

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w]*)(?:\.(\d+)|\[(\d+)\])?\s*\}\}/g;

export function renderTemplate(template: string, context: Readonly<Record<string, TemplateValue>>): string {
  return template.replace(PLACEHOLDER, (whole, key: string, dotIndex?: string, bracketIndex?: string) => {
    if (!Object.prototype.hasOwnProperty.call(context, key)) return whole;
    const value = context[key];
    const index = dotIndex ?? bracketIndex;
    if (index !== undefined) return typeof value === 'string' ? whole : (value[Number(index)] ?? '');
    return typeof value === 'string' ? value : value.join(' ');
  });
}
