// Open unions for native agent output: a discriminated union of the variants we translate, plus
// one catch-all for variants we do not know. Agent CLIs add line types and update kinds between
// versions; an unknown one must be recognised as such (and skipped or reported), while a *known*
// one whose fields do not fit is malformed, with zod's message naming the field.
import { z } from 'zod';

/** The discriminator value an open union gives a variant it does not know. */
export const UNKNOWN_VARIANT = 'unknown_variant' as const;

type Discriminable = z.core.$ZodTypeDiscriminable;
type UnknownShape<K extends string, B extends z.ZodRawShape> = B & { [P in K]: z.ZodLiteral<typeof UNKNOWN_VARIANT> } & { native: z.ZodString };

/**
 * `z.discriminatedUnion(key, options)` that also accepts any object whose `key` is a string no
 * option names, as that object with `key: 'unknown_variant'` and `native: <its value>` (so
 * narrowing on `key` still works). `base` holds fields every variant has (e.g. a line's `type`),
 * checked on unknown variants too. An object without a string `key` fails, as in a closed union.
 */
export function openUnion<K extends string, const T extends readonly [Discriminable, ...Discriminable[]], B extends z.ZodRawShape = {}>(key: K, options: T, base?: B) {
  const known = new Set<unknown>(options.flatMap((o) => [...(o._zod.propValues?.[key] ?? [])]));
  // A computed key loses its literal type; the assertion restores what the shape is.
  const shape = { ...(base ?? {}), [key]: z.literal(UNKNOWN_VARIANT), native: z.string() } as UnknownShape<K, B>;
  const union = z.discriminatedUnion(key, [...options, z.looseObject(shape)]);
  return z.preprocess((v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const tag = (v as Record<string, unknown>)[key];
    return typeof tag === 'string' && !known.has(tag) ? { ...v, [key]: UNKNOWN_VARIANT, native: tag } : v;
  }, union);
}
