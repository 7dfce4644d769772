// A throwaway folder for a real agent CLI: `ws` (a git work tree, as the CLIs expect) and an empty
// `home` (no credentials, settings or history of the machine leak in), both under `dir`, and any
// further empty folders a CLI needs beside them (Codex's CODEX_HOME).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
}

export function agentWorkspace(prefix: string, opts: AgentWorkspaceOptions = {}): AgentWorkspace {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const ws = path.join(dir, 'ws');
  const home = path.join(dir, 'home');
  for (const folder of [ws, home, ...(opts.folders ?? []).map((name) => path.join(dir, name))]) mkdirSync(folder);
  execFileSync('git', ['init', '-q'], { cwd: ws });
  return { dir, ws, home, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
