// The agents this window can offer, from src/agents/selection: installed CLIs (Claude Code, Codex,
// ACP agents) found on PATH, an OpenAI-compatible endpoint when configured (its key from
// SecretStorage), and the built-in offline agent, which is always there. Detection runs once in the
// background after activation; until it is done only the built-in agent is listed, and a session
// being created waits for it. In Restricted Mode nothing runs and every entry says why.
import { BuiltinAgent } from '../agents/builtin';
import { OPENAI_ENV_KEY } from '../agents/openai/adapter';
import { createAgent, detectAgents, PREFERENCE, type AgentCandidate } from '../agents/selection';
import type { Logger } from '../session/ports';
import type { SharedToolState } from '../tools/toolkit';
import type { AgentChoice } from './agentChoice';
import { discoverAgentDirs, type DiscoveryOptions } from './agentDiscovery';

export interface AgentSources {
  /** Tool state every built-in session shares (one ledger, one rule store, the VS Code FsBackend). */
  shared: () => SharedToolState;
  /** Why nothing may run (Restricted Mode), or undefined. */
  blocked: () => string | undefined;
  openai: () => Promise<{ baseUrl?: string; model?: string; apiKey?: string }>;
  /** Provider API keys kept in SecretStorage, handed to agent processes as their usual variables. */
  apiKey: (provider: 'anthropic' | 'openai' | 'gemini') => PromiseLike<string | undefined>;
  /** `rawp.agents.<name>.path` settings, by name (decision 380). */
  agentPaths?: () => Record<string, string | undefined>;
  /** How the login shell and the install folders are searched (tests; default: the real ones). */
  discovery?: DiscoveryOptions;
  logger: Logger;
}

const BUILTIN: AgentCandidate = { id: 'builtin', displayName: 'Built-in (offline)', adapter_type: 'sdk', status: 'available' };
const BUILTIN_DESCRIPTION = 'Deterministic, no model: read, find, replace, write, run, todo, plan, delegate — with the real tools and permission prompts.';

export class AgentCatalog {
  private candidates: AgentCandidate[] = [BUILTIN];
  private detection?: Promise<void>;
  private openai: { baseUrl?: string; model?: string; apiKey?: string } = {};
  private env: Record<string, string> = {};

  constructor(private readonly src: AgentSources) {}

  /** Detect installed agents (once; `force` detects again). Never rejects. */
  detect(force = false): Promise<void> {
    if (this.detection && !force) return this.detection;
    this.detection = (async () => {
      if (this.src.blocked()) return;
      try {
        const openai = await this.src.openai();
        this.openai = openai;
        const keys = { ANTHROPIC_API_KEY: await this.src.apiKey('anthropic'), OPENAI_API_KEY: await this.src.apiKey('openai'), GEMINI_API_KEY: await this.src.apiKey('gemini') };
        this.env = Object.fromEntries(Object.entries(keys).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length > 0));
        const baseEnv = this.src.discovery?.env ?? process.env;
        const env = openai.apiKey ? { ...baseEnv, [OPENAI_ENV_KEY]: openai.apiKey } : baseEnv;
        // The login shell runs here, in the background after activation, never before it returns.
        const found = await discoverAgentDirs({ ...this.src.discovery, env: baseEnv });
        if (found.loginShell && !found.loginShell.ok) this.src.logger.info(`login shell PATH not used: ${found.loginShell.detail}`);
        if (found.fallbackDirs.length > 0) this.env.PATH = found.agentPath;
        this.candidates = await detectAgents({ env, openai: { baseUrl: openai.baseUrl, model: openai.model }, fallbackDirs: found.fallbackDirs, paths: this.src.agentPaths?.() ?? {} });
        const available = this.candidates.filter((c) => c.status === 'available').map((c) => c.id);
        this.src.logger.info(`agents available: ${available.join(', ')}`);
      } catch (e) {
        this.src.logger.warn('agent detection failed; only the built-in agent is offered', { error: String(e) });
      }
    })();
    return this.detection;
  }

  choices(): AgentChoice[] {
    const blocked = this.src.blocked();
    return this.candidates.map((c) => {
      const rank = c.id === 'builtin' ? -1 : PREFERENCE.length - Math.max(0, PREFERENCE.indexOf(c.id));
      const available = !blocked && c.status === 'available';
      return {
        id: c.id,
        name: c.version ? `${c.displayName} ${c.version}` : c.displayName,
        ...(c.id === 'builtin' ? { description: BUILTIN_DESCRIPTION } : c.reason ? { description: c.reason } : {}),
        available,
        ...(!available ? { unavailable_reason: blocked ?? c.reason ?? 'not available' } : {}),
        rank,
        create: (o) => this.create(c, o?.resumeSessionId),
      };
    });
  }

  private create(c: AgentCandidate, resumeSessionId: string | undefined) {
    if (c.id === 'builtin') return new BuiltinAgent({ shared: this.src.shared() });
    const shared = this.src.shared();
    // External agents' file access (ACP fs/*) goes through the same backend and ledger.
    return createAgent(c, { fs: { backend: shared.fs, events: shared.fsEvents }, openai: this.openai, env: this.env, ...(resumeSessionId ? { resumeSessionId } : {}) });
  }
}
