// The opening every code-server end-to-end file shares: a copy of the sample workspace, code-server
// with the packaged VSIX, headless Chromium on the workbench, and everything stopped and removed
// after the file's tests. Each file says only what differs (its folder's name, its VSIX, its
// settings, what it puts in the workspace) and reads the parts through the returned object, whose
// fields are set by the time its tests run.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildVsix, launchChromium, openWorkbench, REPO, startCodeServer, type CodeServer, type StartOptions } from './codeServer';

/** Where every e2e file's screenshots go. */
const SHOTS = join(REPO, 'test-results', 'e2e');

export interface WorkbenchOptions {
  /** The prefix of the workspace's temporary folder (`rawp-e2e-…`). */
  name: string;
  /**
   * Fills the new temporary folder (default: a copy of media/sample-workspace); returns the
   * workspace's path when it is not that folder itself (e.g. a folder inside an outer repository).
   */
  workspace?: (dir: string) => string | void;
  /** code-server's options besides the workspace (default: the packaged VSIX alone). */
  start?: () => Omit<StartOptions, 'workspace'>;
  /** The screenshot taken after the last test, under SHOTS. */
  finalShot?: string;
}

export interface Workbench {
  page: Page;
  workspace: string;
  /** Saves a screenshot of the page as SHOTS/<name>.png (a failed shot fails nothing). */
  shot(name: string): Promise<void>;
  /** Rethrows `e` with the tail of code-server's output, which says why the workbench misbehaved. */
  fail(e: unknown): never;
  /** Runs `fn` after the file's tests, once code-server and Chromium have stopped (the file's own clean-up). */
  atEnd(fn: () => void | Promise<void>): void;
}

/** Registers the file's before/after hooks; call it at the top of a describe. */
export function useWorkbench(o: WorkbenchOptions): Workbench {
  const ends: Array<() => void | Promise<void>> = [];
  /** The temporary folder made for the workspace (removed after the tests). */
  let made = '';
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  const w: Workbench = {
    page: undefined as unknown as Page,
    workspace: '',
    shot: (name) => w.page.screenshot({ path: join(SHOTS, `${name}.png`) }).then(() => undefined, () => undefined),
    fail: (e) => {
      throw new Error(`${e instanceof Error ? e.message : String(e)}\n--- code-server output (tail) ---\n${cs?.output().slice(-4000) ?? ''}`);
    },
    atEnd: (fn) => void ends.push(fn),
  };

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    made = mkdtempSync(join(tmpdir(), `${o.name}-`));
    w.workspace = made;
    if (o.workspace) w.workspace = o.workspace(made) ?? made;
    else cpSync(join(REPO, 'media/sample-workspace'), made, { recursive: true });
    cs = await startCodeServer({ workspace: w.workspace, ...(o.start?.() ?? { vsixes: [buildVsix()] }) });
    browser = await launchChromium();
    w.page = await openWorkbench(browser, cs, w.workspace);
  });

  after(async () => {
    if (w.page && o.finalShot) await w.shot(o.finalShot);
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    if (made) rmSync(made, { recursive: true, force: true });
    for (const fn of ends) await Promise.resolve(fn()).catch(() => undefined);
  });

  return w;
}
