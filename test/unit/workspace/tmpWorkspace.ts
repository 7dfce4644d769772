// Real temporary workspaces for the index and search tests.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export function makeTmp(prefix = 'rawp-ws-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeTmp(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Writes files given as { 'rel/path': 'content' }. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

export function gitInit(root: string): void {
  const run = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { stdio: 'ignore' });
  run('init', '-q');
  run('config', 'user.email', 't@example.invalid');
  run('config', 'user.name', 'test');
  run('config', 'core.ignorecase', 'false');
}

export function git(root: string, ...args: string[]): void {
  execFileSync('git', ['-C', root, ...args], { stdio: 'ignore' });
}

/**
 * Polls `cond` until it holds. No timing assertion: by default the mocha timeout is the only limit.
 * With `within`, it gives up after that many ms and fails with `what` (and `detail()`, the state it
 * last saw), so a wait that never ends says what it waited for instead of "Timeout exceeded".
 */
export async function until(cond: () => boolean | Promise<boolean>, stepMs = 20, within?: { ms: number; what: string; detail?: () => string | Promise<string> }): Promise<void> {
  const deadline = within ? Date.now() + within.ms : Infinity;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`gave up after ${within!.ms} ms waiting for ${within!.what}${within!.detail ? `; last seen: ${await within!.detail()}` : ''}`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
