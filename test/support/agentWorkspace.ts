// A throwaway folder for a real agent CLI: `ws` (a git work tree, as the CLIs expect) and an empty
// `home` (no credentials, settings or history of the machine leak in), both under `dir`, and any
// further empty folders a CLI needs beside them (Codex's CODEX_HOME). Files can be committed as the
// first commit, for tests whose agents or checkpoints diff against HEAD.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export interface AgentWorkspace {
  dir: string;
  ws: string;
  home: string;
  remove(): void;
}

export interface AgentWorkspaceOptions {
  /** More empty folders under `dir`, by name (e.g. `codex-home`). */
  folders?: readonly string[];
  /** Files (path inside `ws` → content) written and committed as the work tree's first commit. */
  committed?: Readonly<Record<string, string>>;
}

export function agentWorkspace(prefix: string, opts: AgentWorkspaceOptions = {}): AgentWorkspace {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const ws = path.join(dir, 'ws');
  const home = path.join(dir, 'home');
  for (const folder of [ws, home, ...(opts.folders ?? []).map((name) => path.join(dir, name))]) mkdirSync(folder);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, stdio: 'ignore' });
  git('init', '-q');
  if (opts.committed) {
    for (const [rel, content] of Object.entries(opts.committed)) {
      mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
      writeFileSync(path.join(ws, rel), content);
    }
    git('add', '.');
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
  }
  return { dir, ws, home, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
