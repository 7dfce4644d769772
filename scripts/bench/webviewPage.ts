// What both figure sets of `npm run bench:webview` share (webview.ts: the fixture's 10,000 frames;
// webviewHeavy.ts: the heavy session through the real host): the page they open, the live-append
// timing (per batch, from the store's flush to layout after the render), the view's heap after GC,
// and the p95 they report.
import type { Page } from 'playwright-core';
import type { Harness } from '../../test/browser/harness';

/** The view's size in both runs: a narrow side bar, as the chat view usually is. */
export const VIEWPORT = { width: 480, height: 900 } as const;

export function openBenchPage(h: Harness): Promise<Page> {
  return h.open({ ...VIEWPORT });
}

export function p95(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)];
}

/** The view's JS heap after a forced GC (CDP), in MB. */
export async function viewHeapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  await cdp.detach();
  return heap.usedSize / 1024 / 1024;
}

/**
 * Live append: one batch per animation frame, handed to the view as `via` says — `feed`: frames to
 * the fixture's fake transport for `session`; `post`: host messages with window.postMessage (what
 * VS Code's webview host does). Returns, per store flush, ms until layout after the render.
 */
export function timeLiveBatches(page: Page, batches: unknown[], via: { kind: 'feed'; session: string } | { kind: 'post' }): Promise<number[]> {
  return page.evaluate(
    async ({ batches, via }) => {
      const w = window as unknown as { rawpFake: { feed(s: string, f: unknown): void }; rawpStore: { flushNow(): void } };
      const store = w.rawpStore;
      const original = store.flushNow.bind(store);
      const out: number[] = [];
      store.flushNow = () => {
        const t0 = performance.now();
        original();
        // Preact renders in a microtask queued during the flush; this one runs after it.
        queueMicrotask(() => {
          void document.body.offsetHeight;
          out.push(performance.now() - t0);
        });
      };
      for (const b of batches) {
        if (via.kind === 'feed') w.rawpFake.feed(via.session, b);
        else window.postMessage(b, '*');
        await new Promise((r) => requestAnimationFrame(() => r(undefined)));
      }
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(undefined))));
      store.flushNow = original;
      return out;
    },
    { batches: JSON.parse(JSON.stringify(batches)) as unknown[], via },
  );
}
