// Frame lines compared across two conversions: random UUIDs named in order of appearance,
// timestamps and measured durations blanked.
export function normalized(out: string): string {
  const ids = new Map<string, string>();
  return out
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, (u) => ids.get(u) ?? (ids.set(u, `id-${ids.size}`), `id-${ids.size - 1}`))
    .replace(/"timestamp":"[^"]*"/g, '"timestamp":"T"')
    .replace(/"duration_ms":\d+/g, '"duration_ms":0');
}
