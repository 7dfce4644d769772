// Which agents can run here, and which one a session gets.
//
// detectAgents: looks for each known CLI (extra bin dirs such as the extension's node_modules/.bin
// first, then PATH), reads its version from the npm package it came from (or asks `--version`),
// and reports every agent — unavailable ones with `status: "unavailable"` and a reason a user can
// act on. chooseAgent: the per-session choice, else the default setting, else the first available
// external agent, else the built-in offline agent, which is always there.
// createAgent: the adapter for a chosen agent.
import { execFile } from 'node:child_process';
import { isExecutableFile, readTextIfPresent, realPathOrUndefined } from '../workspace/localFiles';
import * as path from 'node:path';
import type { AgentAdapter } from '../session/agentAdapter';
import { AcpAdapter } from './acp/adapter';
import { ACP_PRESETS, parseAcpSpec, type AcpCommand } from './acp/presets';
import { BuiltinAgent } from './builtin';
import { ClaudeCodeAdapter } from './claudeCode';
import { CodexAdapter } from './codex/adapter';
import { OPENAI_ENV_KEY, OpenAIAdapter } from './openai/adapter';
import { withoutOurSecrets } from './process/env';
import type { FsBackend } from '../workspace/fsBackend';
import { phrasedReason, type AgentReasonId } from '../protocol/hostPhrases';
import type { NoticeWords } from '../protocol/rawpExtension';
import type { FsEvents } from '../tools/fsEvents';
import type { SharedToolState } from '../tools/toolkit';

export type AgentStatus = 'available' | 'unavailable';

export interface AgentCandidate {
  /** 'builtin', 'claude-code', 'codex', 'openai', 'acp:gemini', 'acp:<command line>' */
  id: string;
  displayName: string;
  adapter_type: 'process' | 'sdk';
  status: AgentStatus;
  /** Why it is unavailable (or a caveat when available). */
  reason?: string;
  /** `reason` as the host's phrases, for a reader in another language (decision 609). */
  reasonWords?: NoticeWords[];
  version?: string;
  /** The resolved executable and its fixed arguments (process agents). */
  command?: string;
  args?: string[];
  single_turn_process?: boolean;
  resume_flag?: string;
}

interface KnownCli {
  id: string;
  displayName: string;
  command: string;
  args: string[];
  npmPackage: string;
  /** Environment variable that names the executable (a fallback under the setting, decision 380). */
  pathVar?: string;
  /** The `<name>` of its `rawp.agents.<name>.path` setting. */
  settingName: string;
  versionArgs?: string[];
  single_turn_process?: boolean;
  resume_flag?: string;
}

const CLIS: KnownCli[] = [
  { id: 'claude-code', displayName: 'Claude Code', command: 'claude', args: [], npmPackage: '@anthropic-ai/claude-code', pathVar: 'RAWP_CLAUDE_PATH', settingName: 'claude', versionArgs: ['--version'] },
  { id: 'codex', displayName: 'Codex', command: 'codex', args: [], npmPackage: '@openai/codex', pathVar: 'RAWP_CODEX_PATH', settingName: 'codex', versionArgs: ['--version'], single_turn_process: true, resume_flag: 'resume {session_id}' },
  ...Object.entries(ACP_PRESETS).map(([name, p]) => ({ id: p.id, displayName: p.displayName, command: p.command, args: p.args, npmPackage: p.npmPackage ?? p.command, versionArgs: p.versionArgs, settingName: name })),
];

/** The agents that have a `rawp.agents.<name>.path` setting: `<name>` -> agent id. */
export const AGENT_PATH_SETTINGS: ReadonlyArray<{ name: string; id: string; command: string }> = CLIS.map((c) => ({ name: c.settingName, id: c.id, command: c.command }));

/** The order in which an available agent is picked when nothing was asked for. */
export const PREFERENCE = ['claude-code', 'codex', 'acp:gemini', 'acp:claude-agent-acp', 'acp:claude-code-acp', 'acp:codex-acp', 'openai'];

export interface DetectOptions {
  env?: NodeJS.ProcessEnv;
  /** Searched before PATH (e.g. the extension's own node_modules/.bin). */
  binDirs?: string[];
  /** Searched after PATH: the login shell's PATH and the common install places (src/host/agentDiscovery). */
  fallbackDirs?: string[];
  /** Executables the user named, by setting name (`rawp.agents.<name>.path`); they win over everything. */
  paths?: Record<string, string | undefined>;
  /** The OpenAI-compatible endpoint, when configured. The key comes from the environment. */
  openai?: { baseUrl?: string; model?: string };
  /** Extra ACP agents configured by command line ("my-agent --acp"). */
  acpCommands?: string[];
  /** Ask `--version` when no package.json tells the version (default 5 s). */
  versionTimeoutMs?: number;
}

export async function detectAgents(opts: DetectOptions = {}): Promise<AgentCandidate[]> {
  const env = opts.env ?? process.env;
  const found = await Promise.all([
    ...CLIS.map((cli) => detectCli(cli, opts, env)),
    ...(opts.acpCommands ?? []).map((line) => detectAcpCommand(line, opts, env)),
  ]);
  return [
    { id: 'builtin', displayName: 'Built-in (offline)', adapter_type: 'sdk', status: 'available' },
    ...found,
    openaiCandidate(opts.openai, env),
  ];
}

async function detectCli(cli: KnownCli, opts: DetectOptions, env: NodeJS.ProcessEnv): Promise<AgentCandidate> {
  const base: AgentCandidate = {
    id: cli.id,
    displayName: cli.displayName,
    adapter_type: 'process',
    status: 'unavailable',
    ...(cli.single_turn_process ? { single_turn_process: true, resume_flag: cli.resume_flag } : {}),
  };
  // The setting wins; the older environment variable still works under it (decision 380).
  const setting = opts.paths?.[cli.settingName]?.trim();
  const fromEnv = cli.pathVar ? env[cli.pathVar] : undefined;
  const explicit = setting || fromEnv;
  const exe = explicit ? (isExecutableFile(explicit) ? path.resolve(explicit) : undefined) : findExecutable(cli.command, opts.binDirs ?? [], env, opts.fallbackDirs ?? []);
  if (!exe) {
    if (explicit) return { ...base, ...reasonOf(setting ? ['agent_reason.setting_not_executable', cli.settingName, setting] : ['agent_reason.env_not_executable', cli.pathVar ?? '', fromEnv ?? '']) };
    // Only the editor has the setting (it passes `paths`); `rawp serve` names the environment
    // variable instead, where the agent has one (decision 607).
    const install: [AgentReasonId, ...string[]] =
      opts.paths !== undefined ? ['agent_reason.install_or_setting', cli.npmPackage, cli.settingName] : cli.pathVar ? ['agent_reason.install_or_env', cli.npmPackage, cli.pathVar] : ['agent_reason.install', cli.npmPackage];
    return { ...base, ...reasonOf([opts.fallbackDirs?.length ? 'agent_reason.not_anywhere' : 'agent_reason.not_on_path', cli.command], install) };
  }
  const version = packageVersion(exe, cli.npmPackage) ?? (cli.versionArgs ? await askVersion(exe, cli.versionArgs, env, opts.versionTimeoutMs ?? 5000) : undefined);
  return { ...base, status: 'available', command: exe, args: cli.args, ...(version ? { version } : {}) };
}

async function detectAcpCommand(line: string, opts: DetectOptions, env: NodeJS.ProcessEnv): Promise<AgentCandidate> {
  let spec: AcpCommand;
  try {
    spec = parseAcpSpec(line);
  } catch (e) {
    return { id: `acp:${line}`, displayName: `ACP agent (${line})`, adapter_type: 'process', status: 'unavailable', reason: (e as Error).message };
  }
  const exe = findExecutable(spec.command, opts.binDirs ?? [], env, opts.fallbackDirs ?? []);
  if (!exe) return { id: spec.id, displayName: spec.displayName, adapter_type: 'process', status: 'unavailable', ...reasonOf(['agent_reason.not_on_path', spec.command]) };
  return { id: spec.id, displayName: spec.displayName, adapter_type: 'process', status: 'available', command: exe, args: spec.args };
}

/**
 * Whether a process agent's executable is still where detection found it (one stat): a CLI removed
 * or moved since is found again by a new detection, not by a spawn that fails (decision 644).
 * Agents without a file of their own (built-in, an HTTP endpoint) always are.
 */
export function executableStillThere(c: Pick<AgentCandidate, 'command'>): boolean {
  return c.command === undefined || isExecutableFile(c.command);
}

/** A candidate's `reason` in English and as phrases (decision 609). */
function reasonOf(...clauses: [AgentReasonId, ...string[]][]): { reason: string; reasonWords: NoticeWords[] } {
  const { reason, words } = phrasedReason(...clauses);
  return { reason, reasonWords: words };
}

function isLocal(url: string): boolean {
  return /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])([:/]|$)/i.test(url);
}

function openaiCandidate(cfg: DetectOptions['openai'], env: NodeJS.ProcessEnv): AgentCandidate {
  const base: AgentCandidate = { id: 'openai', displayName: 'OpenAI-compatible', adapter_type: 'sdk', status: 'unavailable' };
  if (!cfg?.baseUrl || !cfg.model) return { ...base, ...reasonOf(['agent_reason.no_endpoint']) };
  const name = `OpenAI-compatible (${cfg.model})`;
  if (!env[OPENAI_ENV_KEY] && !isLocal(cfg.baseUrl)) return { ...base, displayName: name, ...reasonOf(['agent_reason.no_key', OPENAI_ENV_KEY, cfg.baseUrl]) };
  return { ...base, displayName: name, status: 'available' };
}

/** An executable named `name`: a path as given, else the first hit in `dirs`, PATH, then `after`. */
export function findExecutable(name: string, dirs: readonly string[], env: NodeJS.ProcessEnv = process.env, after: readonly string[] = []): string | undefined {
  if (name.includes('/') || name.includes(path.sep)) return isExecutableFile(name) ? path.resolve(name) : undefined;
  const pathDirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const d of [...dirs, ...pathDirs, ...after]) {
    const candidate = path.join(d, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** The version of the npm package the executable belongs to (no process started). */
export function packageVersion(exe: string, npmPackage: string): string | undefined {
  const real = realPathOrUndefined(exe);
  if (real === undefined) return undefined;
  let dir = path.dirname(real);
  for (let i = 0; i < 6; i++) {
    const pj = path.join(dir, 'package.json');
    try {
      const text = readTextIfPresent(pj);
      const pkg = text === undefined ? undefined : (JSON.parse(text) as { name?: string; version?: string });
      if (pkg?.name === npmPackage && typeof pkg.version === 'string') return pkg.version;
    } catch {
      /* unreadable package.json: keep looking up */
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** `exe --version`, with the environment an agent session gets: our own secrets dropped (decisions 542, 550). */
function askVersion(exe: string, args: string[], env: NodeJS.ProcessEnv, timeout: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = execFile(exe, args, { env: withoutOurSecrets(env), timeout, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 }, (err, stdout) => {
      const m = /\d+\.\d+\.\d+(?:[-+][\w.]+)?/.exec(String(stdout));
      resolve(err && !m ? undefined : m?.[0]);
    });
    child.stdin?.end();
  });
}

export type Choice = { ok: true; agent: AgentCandidate; notes: string[] } | { ok: false; error: string };

/**
 * The agent for a session: the per-session `requested` one (never silently replaced: an
 * unavailable choice is an error), else the default setting, else the first available agent of
 * PREFERENCE, else the built-in agent.
 */
export function chooseAgent(candidates: readonly AgentCandidate[], opts: { requested?: string; defaultId?: string } = {}): Choice {
  const byId = (id: string) => candidates.find((c) => c.id === id || (id.startsWith('acp:') && c.id === `acp:${id.slice(4).trim()}`));
  if (opts.requested) {
    const c = byId(opts.requested);
    if (!c) return { ok: false, error: `unknown agent "${opts.requested}" (known: ${candidates.map((x) => x.id).join(', ')})` };
    if (c.status !== 'available') return { ok: false, error: `${c.displayName} is unavailable: ${c.reason ?? 'no reason given'}` };
    return { ok: true, agent: c, notes: [] };
  }
  const notes: string[] = [];
  if (opts.defaultId) {
    const c = byId(opts.defaultId);
    if (c?.status === 'available') return { ok: true, agent: c, notes };
    notes.push(c ? `the default agent ${c.displayName} is unavailable: ${c.reason ?? 'no reason given'}` : `the default agent "${opts.defaultId}" is unknown`);
  }
  for (const id of PREFERENCE) {
    const c = byId(id);
    if (c?.status === 'available') return { ok: true, agent: c, notes };
  }
  const builtin = byId('builtin')!;
  notes.push('no other agent is available: using the built-in offline agent');
  return { ok: true, agent: builtin, notes };
}

export interface CreateAgentDeps {
  /**
   * Tool state the host shares among its sessions (one read-before-write ledger the host can reach,
   * so a checkpoint rewind makes every session forget the files it restored, issue 17 item 4). The
   * built-in and OpenAI-compatible agents run their tools on it; ACP agents' fs/* go through its
   * backend and ledger when `fs` is absent. Default: each agent builds its own.
   */
  shared?: SharedToolState;
  /** Files for ACP agents' fs/* requests, with the read-before-write policy installed (default: the workspace with a ledger of its own). */
  fs?: { backend: FsBackend; events: FsEvents };
  /** Extra environment for process agents (e.g. a provider's base URL). */
  env?: Record<string, string | undefined>;
  openai?: { baseUrl?: string; model?: string; apiKey?: string; vision?: boolean; contextWindow?: number };
  /** Restore this agent session (the agent's own id, §18.3). */
  resumeSessionId?: string;
  /** The language the person reads: the built-in agent speaks it (decision 572). */
  language?: string;
}

/** The adapter for an available candidate. */
export function createAgent(c: AgentCandidate, deps: CreateAgentDeps): AgentAdapter {
  if (c.status !== 'available') throw new Error(`${c.displayName} is unavailable: ${c.reason ?? 'no reason given'}`);
  switch (c.id) {
    case 'builtin':
      return new BuiltinAgent({ ...(deps.shared ? { shared: deps.shared } : deps.fs ? { fs: deps.fs.backend } : {}), language: deps.language });
    case 'claude-code':
      return new ClaudeCodeAdapter({ command: c.command, env: deps.env, resumeSessionId: deps.resumeSessionId });
    case 'codex':
      return new CodexAdapter({ command: c.command, env: deps.env, resumeThreadId: deps.resumeSessionId });
    case 'openai': {
      const o = deps.openai ?? {};
      if (!o.baseUrl || !o.model) throw new Error('the OpenAI-compatible agent needs a base URL and a model');
      return new OpenAIAdapter({ baseUrl: o.baseUrl, model: o.model, apiKey: o.apiKey ?? process.env[OPENAI_ENV_KEY], ...(o.vision ? { vision: true } : {}), ...(o.contextWindow ? { contextWindow: o.contextWindow } : {}), ...(deps.shared ? { shared: deps.shared } : {}) });
    }
    default:
      if (c.id.startsWith('acp:')) {
        return new AcpAdapter({ id: c.id, displayName: c.displayName, command: c.command ?? parseAcpSpec(c.id).command, args: c.args ?? [], env: deps.env, fs: deps.fs ?? (deps.shared ? { backend: deps.shared.fs, events: deps.shared.fsEvents } : undefined), loadSessionId: deps.resumeSessionId });
      }
      throw new Error(`no adapter for agent "${c.id}"`);
  }
}
