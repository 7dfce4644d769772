// `node dist/cli.js run …` as a real child process (the built bundle, as a user runs it), with
// its stdout, stderr and exit code. The bundle is built once per test process.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Frame } from '../../src/protocol/frameTypes';

export const ROOT = resolve(__dirname, '../..');
export const CLI = join(ROOT, 'dist', 'cli.js');
let built = false;

export function buildCliOnce(): void {
  if (built) return;
  const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build failed, so dist/cli.js cannot be tested:\n${(build.stderr || build.stdout).slice(-2000)}`);
  built = true;
}

export interface RunResult {
  code: number | null;
  out: string;
  err: string;
}

/** A scratch folder for one `rawp run`: a workspace `ws` holding `a.txt`, and a throwaway HOME so
 * no saved rules or slash commands of the machine leak in. */
export interface RunScratch {
  dir: string;
  ws: string;
  env: Record<string, string>;
  remove(): void;
}

export function runScratch(prefix: string, aTxt: string): RunScratch {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const ws = join(dir, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'a.txt'), aTxt);
  return { dir, ws, env: { HOME: join(dir, 'home') }, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `rawp run ARGS`; `stdin` is written and closed (undefined: closed empty). Bounded by `timeoutMs`. */
export function rawpRun(args: string[], o: { env?: Record<string, string>; stdin?: string; timeoutMs?: number; onOut?: (out: string, child: ChildProcess) => void } = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, 'run', ...args], { cwd: ROOT, env: { ...process.env, ...o.env }, detached: true });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone already */
      }
      reject(new Error(`rawp run did not end within ${o.timeoutMs ?? 60000} ms\nstdout: ${out.slice(-2000)}\nstderr: ${err.slice(-2000)}`));
    }, o.timeoutMs ?? 60000);
    child.stdout.on('data', (d) => {
      out += d;
      o.onOut?.(out, child);
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, out, err });
    });
    child.stdin.end(o.stdin ?? '');
  });
}

/** `node dist/cli.js ARGS` (any verb) from `cwd`, `stdin` written and closed. */
export function rawpCli(args: string[], o: { stdin?: string; cwd?: string } = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: o.cwd ?? ROOT });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, out, err }));
    child.stdin.end(o.stdin ?? '');
  });
}

/** The frames of a `--output-format stream-json` stdout. */
export function frames(out: string): Frame[] {
  return out
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Frame);
}
