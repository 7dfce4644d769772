// WCAG 2.x contrast measured in the page: for every element that draws text (and every icon and
// status dot), its computed colour against its effective background, found by compositing the
// backgrounds of it and its ancestors (translucent ones included) over the canvas. Colours are
// converted by a 2d canvas, so any CSS colour syntax the page computes (rgb, color(srgb…),
// color-mix results) is read the same way.
import type { Frame, Page } from 'playwright-core';

export interface Measured {
  kind: 'text' | 'large-text' | 'icon' | 'dot';
  /** A short path to the element, for failure messages. */
  where: string;
  text: string;
  fg: string;
  bg: string;
  ratio: number;
  /** What WCAG asks of this kind: 4.5 for text, 3 for large text, icons and dots. */
  required: number;
}

/** Runs in the page. Kept free of closures over test code: it is serialised by playwright. */
function measureInPage(): Measured[] {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('no 2d canvas');
  const rgba = (css: string): [number, number, number, number] => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = '#000';
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  const over = (top: [number, number, number, number], under: [number, number, number]): [number, number, number] => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])) as [number, number, number];
  const lum = (c: [number, number, number]) => {
    const [r, g, b] = c.map((v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a: [number, number, number], b: [number, number, number]) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const hex = (c: [number, number, number]) => '#' + c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
  /** The background under an element: its own and its ancestors' backgrounds composited on white (the canvas). */
  const backdrop = (el: Element | null): [number, number, number] => {
    const layers: [number, number, number, number][] = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let base: [number, number, number] = [255, 255, 255];
    for (let i = layers.length - 1; i >= 0; i--) base = over(layers[i], base);
    return base;
  };
  const opacity = (el: Element | null) => {
    let o = 1;
    for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  const visible = (el: Element) => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.display === 'none') return false;
    // Clipped away (the sr-only helper) or in a closed <details>.
    if (el.closest('.sr-only')) return false;
    const details = el.closest('details');
    if (details && !details.open && !el.closest('summary')) return false;
    return true;
  };
  const where = (el: Element) => {
    const parts: string[] = [];
    for (let e: Element | null = el; e && parts.length < 4 && e !== document.body; e = e.parentElement) {
      parts.unshift(e.tagName.toLowerCase() + (e.classList.length ? '.' + [...e.classList].join('.') : ''));
    }
    return parts.join(' > ');
  };
  const out: Measured[] = [];
  const inactive = (el: Element) => (el as HTMLButtonElement).disabled === true || el.closest('button:disabled, [aria-disabled="true"]') !== null;
  for (const el of document.querySelectorAll('body *')) {
    if (el instanceof HTMLScriptElement || el instanceof HTMLStyleElement || el instanceof HTMLOptionElement) continue;
    if (!visible(el) || inactive(el)) continue;
    const s = getComputedStyle(el);
    const bg = backdrop(el);
    const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim().length > 0);
    const field = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
    const value = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.value : el instanceof HTMLSelectElement ? (el.selectedOptions[0]?.text ?? '') : '';
    const isIcon = el.classList.contains('codicon');
    if (ownText || (field && value.trim().length > 0 && !(el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')))) {
      const c = rgba(s.color);
      const fg = over([c[0], c[1], c[2], c[3] * opacity(el)], bg);
      const size = parseFloat(s.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
      const text = (field ? value : [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('')).trim().slice(0, 40);
      out.push({ kind: large ? 'large-text' : 'text', where: where(el), text, fg: hex(fg), bg: hex(bg), ratio: ratio(fg, bg), required: large ? 3 : 4.5 });
    }
    if (isIcon) {
      const c = rgba(s.color);
      const fg = over([c[0], c[1], c[2], c[3] * opacity(el)], bg);
      out.push({ kind: 'icon', where: where(el), text: [...el.classList].join(' '), fg: hex(fg), bg: hex(bg), ratio: ratio(fg, bg), required: 3 });
    }
    const before = getComputedStyle(el, '::before');
    if (!isIcon && before.content === '""' && before.display !== 'none' && parseFloat(before.width) > 0) {
      const c = rgba(before.backgroundColor);
      if (c[3] > 0) {
        const fg = over([c[0], c[1], c[2], c[3] * opacity(el)], bg);
        out.push({ kind: 'dot', where: where(el) + '::before', text: (el.textContent ?? '').trim().slice(0, 40), fg: hex(fg), bg: hex(bg), ratio: ratio(fg, bg), required: 3 });
      }
    }
  }
  return out;
}

/** On a page, or on the frame our chat lives in (code-server's webview). */
export async function measureContrast(page: Page | Frame): Promise<Measured[]> {
  // tsx (esbuild keepNames) may wrap the inner functions in __name(); give the page one.
  await page.evaluate('globalThis.__name ??= (f) => f');
  return page.evaluate(measureInPage);
}

/** Applies a theme the way VS Code does for a webview: variables on <html style>, a class on <body>. */
export async function applyTheme(page: Page, theme: { bodyClass: string; vars: Record<string, string> }): Promise<void> {
  await page.evaluate((t) => {
    for (const [k, v] of Object.entries(t.vars)) document.documentElement.style.setProperty(k, v);
    document.body.classList.add(...t.bodyClass.split(/\s+/).filter(Boolean));
  }, theme);
}
