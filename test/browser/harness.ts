// Real-Chromium harness for the webview: builds the bundle into a temp folder, serves it with the
// fixture page from a tiny 127.0.0.1 server under a strict CSP (no inline script or style, no
// eval, nothing remote), and opens pages driven by the fake transport.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { Frame, VendorFrame } from '../../src/protocol/frameTypes';
import { SESSION, outputsStream } from './streams';

const ROOT = resolve(__dirname, '../..');
export const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; font-src 'self'; img-src 'self' data:; connect-src 'self'";
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.map': 'application/json' };

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function buildWebview(outdir: string, minify = false): Promise<void> {
  const { webviewTarget } = (await import(join(ROOT, 'webview-ui/build.mjs'))) as { webviewTarget: (c: object, o: string) => esbuild.BuildOptions };
  await esbuild.build({ ...webviewTarget({ bundle: true, logLevel: 'warning', legalComments: 'none', minify, sourcemap: false }, outdir), absWorkingDir: ROOT });
}

/** Extra HTTP handling for a test (e.g. the /v1 API); return true when the request was answered. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface Harness {
  url: string;
  origin: string;
  server: Server;
  routes: RouteHandler[];
  browser: Browser;
  open(options?: { colorScheme?: 'light' | 'dark'; width?: number; height?: number; locale?: string }, path?: string): Promise<Page>;
  close(): Promise<void>;
}

export async function startHarness(options: { minify?: boolean; /** More Chromium switches (the benchmark's unthrottled frames). */ args?: string[] } = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'rawp-webview-'));
  const dist = join(dir, 'dist');
  await buildWebview(dist, options.minify);
  const files: Record<string, string> = {
    '/fixture.html': join(__dirname, 'fixture.html'),
    '/fakeTransport.js': join(__dirname, 'fakeTransport.js'),
    '/browser.html': join(__dirname, 'browser.html'),
  };
  const routes: RouteHandler[] = [];
  const server: Server = createServer((req, res) => {
    if (routes.some((r) => r(req, res))) return;
    const path = (req.url ?? '/').split('?')[0];
    const file = files[path] ?? (path.startsWith('/dist/') && !path.includes('..') ? join(dist, path.slice(6)) : undefined);
    try {
      if (!file) throw new Error('not found');
      const body = readFileSync(file);
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Security-Policy': CSP, 'Cache-Control': 'no-store' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  // launch() gives every run a fresh temporary profile (it refuses an explicit --user-data-dir).
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS, ...(options.args ?? [])] });
  const contexts: BrowserContext[] = [];
  const url = `http://127.0.0.1:${port}/fixture.html`;
  return {
    url,
    origin: `http://127.0.0.1:${port}`,
    server,
    routes,
    browser,
    async open(options = {}, path = url) {
      // The browser's language is the view's (decision 370): English unless a test asks for another.
      const context = await browser.newContext({ locale: options.locale ?? 'en-US', colorScheme: options.colorScheme ?? 'light', viewport: { width: options.width ?? 520, height: options.height ?? 900 } });
      contexts.push(context);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      (page as Page & { rawpErrors?: string[] }).rawpErrors = errors;
      await page.goto(path);
      await page.waitForSelector('main.chat');
      return page;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await new Promise<void>((ok) => server.close(() => ok()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type AnyFrame = Frame | VendorFrame | Record<string, unknown>;

/** Attaches the page to a session and feeds frames, then waits until they are rendered. */
export async function feed(page: Page, sessionId: string, frames: AnyFrame[], attach = false): Promise<void> {
  await page.evaluate(
    ({ sessionId, frames, attach }) => {
      const w = window as unknown as { rawpFake: { attach(s: string): void; feed(s: string, f: unknown[]): void } };
      if (attach) w.rawpFake.attach(sessionId);
      w.rawpFake.feed(sessionId, frames);
    },
    { sessionId, frames: JSON.parse(JSON.stringify(frames)) as unknown[], attach },
  );
  await rendered(page);
}

/**
 * Waits (bounded by `ms`) until the view has finished reacting to what it was given: two animation
 * frames in a row in which nothing in the document changed and focus did not move. The store flushes
 * once per frame, effects run after the paint, and the virtualizer mounts and measures rows over a
 * few more frames — on a loaded machine any of them can come a frame later than `settle` allows.
 * After the bound it returns and the test's own assertions say what is missing.
 */
export async function rendered(page: Page, ms = 5_000): Promise<void> {
  await page.evaluate(`(${QUIET_FRAMES})(${Number(ms)})`);
}

// Plain JavaScript text, not a TypeScript function: tsx would wrap the named inner functions in a
// helper (__name) the page does not have.
const QUIET_FRAMES = `(ms) => new Promise((done) => {
  let changed = true;
  const mark = () => { changed = true; };
  const observer = new MutationObserver(mark);
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  document.addEventListener('focusin', mark, true);
  const deadline = performance.now() + ms;
  let quiet = 0;
  const frame = () => requestAnimationFrame(() => setTimeout(() => {
    quiet = changed ? 0 : quiet + 1;
    changed = false;
    if (quiet >= 2 || performance.now() > deadline) {
      observer.disconnect();
      document.removeEventListener('focusin', mark, true);
      done();
    } else frame();
  }, 0));
  frame();
})`;

/** Two animation frames: the store's flush and the render after it (the benchmarks' fixed step; tests wait with `rendered`). */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((ok) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(ok, 0)))));
}

/** Hands the page host messages (as the extension host or the browser transport does), then waits until they are rendered. */
export async function hostSays(page: Page, messages: unknown[]): Promise<void> {
  await page.evaluate((ms) => {
    const fake = (window as unknown as { rawpFake: { host(m: unknown): void } }).rawpFake;
    for (const m of ms) fake.host(m);
  }, messages);
  await rendered(page);
}

/** Waits (bounded: Playwright's default timeout) until the webview has sent `n` frames of `type`, and returns them. */
export async function waitForSent(page: Page, type: string, n: number): Promise<Awaited<ReturnType<typeof sentFrames>>> {
  await page.waitForFunction(({ type, n }) => (window as unknown as { rawpFake: { sentFrames(t: string): unknown[] } }).rawpFake.sentFrames(type).length >= n, { type, n });
  return sentFrames(page, type);
}

/** Waits (bounded) until the webview has sent `n` host messages of these kinds, and returns those messages in order. */
export async function waitForMessages(page: Page, kinds: string | string[], n: number): Promise<Array<{ kind: string; payload: Record<string, unknown> }>> {
  const wanted = typeof kinds === 'string' ? [kinds] : kinds;
  await page.waitForFunction(({ wanted, n }) => (window as unknown as { rawpFake: { sent: Array<{ kind: string }> } }).rawpFake.sent.filter((m) => wanted.includes(m.kind)).length >= n, { wanted, n });
  return (await sentMessages(page)).filter((m) => wanted.includes(m.kind));
}

/** Frames the webview sent, optionally of one type. */
export async function sentFrames(page: Page, type?: string): Promise<Array<{ type: string; payload: Record<string, unknown>; turn_id?: string; message_id: string }>> {
  return page.evaluate((type) => (window as unknown as { rawpFake: { sentFrames(t?: string): never[] } }).rawpFake.sentFrames(type), type);
}

export async function sentMessages(page: Page): Promise<Array<{ kind: string; payload: Record<string, unknown> }>> {
  return page.evaluate(() => (window as unknown as { rawpFake: { sent: never[] } }).rawpFake.sent);
}

export async function violations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { rawpFake: { violations: string[] } }).rawpFake.violations);
}

/**
 * A page (of `size`) showing a session of tool outputs with its prompt box focused: where the
 * composer's tests (pickers, attachments, the combobox) start.
 */
export async function openAtComposer(h: Harness, size?: { width: number; height: number }): Promise<Page> {
  const page = await h.open(size);
  await feed(page, SESSION, outputsStream(), true);
  await page.locator('.composer .editor').click();
  return page;
}

export function pageErrors(page: Page): string[] {
  return (page as Page & { rawpErrors?: string[] }).rawpErrors ?? [];
}

export function readJsonl(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export const RESULTS_DIR = join(ROOT, 'test-results');
export const FIXTURES = join(ROOT, 'test/fixtures/frames');
