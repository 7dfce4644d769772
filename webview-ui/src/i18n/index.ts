// The chat's words: one catalogue of message ids (en/, a small file per area, with the Korean of
// every id in ko/, which the compiler holds to the same ids) and `t(id, ...args)`. The locale is
// chosen once, when the view loads: inside VS Code the host names VS Code's display language in the
// page (`data-locale`), the browser master follows the browser's languages (decision 370).
import { en, type MessageId } from './en';
import { ko } from './ko';

export type { MessageId } from './en';

export const LOCALES = { en, ko } as const;
export type Locale = keyof typeof LOCALES;

let catalogue: Record<MessageId, string> = en;
let current: Locale = 'en';

/** The first supported language among `candidates` (BCP 47 tags such as `ko-KR`, `en-US`, or VS
 *  Code's `ko`, `zh-cn`); English when none is. Only the primary subtag matters. */
export function resolveLocale(candidates: readonly (string | undefined)[]): Locale {
  for (const c of candidates) {
    const primary = c?.trim().toLowerCase().split(/[-_]/)[0];
    if (primary === 'ko' || primary === 'en') return primary;
  }
  return 'en';
}

export function setLocale(locale: Locale): void {
  current = locale;
  catalogue = LOCALES[locale];
}

export function locale(): Locale {
  return current;
}

/** The message `id` in the current language, `{0}`, `{1}`… replaced by `args`. */
export function t(id: MessageId, ...args: (string | number)[]): string {
  return format(catalogue[id] ?? en[id] ?? id, args);
}

export function format(template: string, args: readonly (string | number)[]): string {
  if (args.length === 0) return template;
  return template.replace(/\{(\d+)\}/g, (whole, n: string) => {
    const v = args[Number(n)];
    return v === undefined ? whole : typeof v === 'number' ? numberFormat().format(v) : v;
  });
}

// One number format per language. `toLocaleString(locale)` builds a new Intl.NumberFormat on every
// call, a fifth of a millisecond, and banners format their counts on every render: 2.5% of a live
// append in a long session (issue 18). The same output: its default options are these.
const numberFormats = new Map<Locale, Intl.NumberFormat>();

function numberFormat(): Intl.NumberFormat {
  let f = numberFormats.get(current);
  if (f === undefined) {
    f = new Intl.NumberFormat(current);
    numberFormats.set(current, f);
  }
  return f;
}
