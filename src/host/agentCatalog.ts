// The agents this window can offer, from src/agents/selection: installed CLIs (Claude Code, Codex,
// ACP agents) found on PATH, an OpenAI-compatible endpoint when configured (its key from
// SecretStorage), and the built-in offline agent, which is always there. Detection runs once in the
// background after activation; until it is done only the built-in agent is listed, and a session
// being created waits for it. In Restricted Mode nothing runs and every entry says why.
import { BuiltinAgent } from '../agents/builtin';
import { builtinLanguage, builtinWords } from '../agents/builtin/words';
import { OPENAI_ENV_KEY } from '../agents/openai/adapter';
import { createAgent, detectAgents, executableStillThere, PREFERENCE, type AgentCandidate } from '../agents/selection';
import type { Logger } from '../session/ports';
import type { SharedToolState } from '../tools/toolkit';
import { unavailableOf, type AgentChoice } from './agentChoice';
import { discoverAgentDirs, type DiscoveryOptions } from './agentDiscovery';
import { agentLogin, apiKeyEnvFor, loginExecutableAgent, type ApiKeyProvider } from '../protocol/agentLogin';

export interface AgentSources {
  /** Tool state every built-in session shares (one ledger, one rule store, the VS Code FsBackend). */
  shared: () => SharedToolState;
  /** Why nothing may run (Restricted Mode), or undefined. */
  blocked: () => string | undefined;
  openai: () => Promise<{ baseUrl?: string; model?: string; apiKey?: string; vision?: boolean; contextWindow?: number }>;
  /** Provider API keys kept in SecretStorage, handed to agent processes as their usual variables. */
  apiKey: (provider: 'anthropic' | 'openai' | 'gemini') => PromiseLike<string | undefined>;
  /** `rawp.agents.<name>.path` settings, by name (decision 380). */
  agentPaths?: () => Record<string, string | undefined>;
  /** How the login shell and the install folders are searched (tests; default: the real ones). */
  discovery?: DiscoveryOptions;
  logger: Logger;
  /** The language the person reads (VS Code's display language): the built-in agent speaks it (decision 572). */
  language?: string;
}

const BUILTIN: AgentCandidate = { id: 'builtin', displayName: 'Built-in (offline)', adapter_type: 'sdk', status: 'available' };

export class AgentCatalog {
  private candidates: AgentCandidate[] = [BUILTIN];
  private detection?: Promise<void>;
  private openai: { baseUrl?: string; model?: string; apiKey?: string; vision?: boolean; contextWindow?: number } = {};
  /** What every agent process gets (PATH with the discovered folders). */
  private env: Record<string, string> = {};
  /** Provider keys from SecretStorage; each agent gets only its own provider's (decision 381). */
  private keys: Partial<Record<ApiKeyProvider, string>> = {};

  constructor(private readonly src: AgentSources) {}

  /** Detect installed agents (once; `force` detects again). Never rejects. */
  detect(force = false): Promise<void> {
    if (this.detection && !force) return this.detection;
    this.detection = (async () => {
      if (this.src.blocked()) return;
      try {
        const openai = await this.src.openai();
        this.openai = openai;
        const keys: Partial<Record<ApiKeyProvider, string>> = {};
        for (const provider of ['anthropic', 'openai', 'gemini'] as const) {
          const k = await this.src.apiKey(provider);
          if (k) keys[provider] = k;
        }
        this.keys = keys;
        this.env = {};
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
        ...(c.id === 'builtin' ? { description: builtinWords(builtinLanguage(this.src.language)).agentDescription } : c.reason ? { description: c.reason } : {}),
        available,
        ...(!available ? unavailableOf(blocked, c) : {}),
        rank,
        create: (o) => this.create(c, o?.resumeSessionId),
        stillThere: () => executableStillThere(c),
      };
    });
  }

  /** The terminal command that logs `agentId` in, with the PATH agents run with (decision 381). */
  loginCommand(agentId: string): { name: string; executable: string; args: string[]; display: string; env: Record<string, string> } | undefined {
    const login = agentLogin(agentId);
    if (!login) return undefined;
    const owner = this.candidates.find((c) => c.id === loginExecutableAgent(agentId));
    const executable = owner?.status === 'available' && owner.command ? owner.command : login.loginDisplay.split(' ')[0];
    const name = this.candidates.find((c) => c.id === agentId)?.displayName ?? agentId;
    return { name, executable, args: login.loginArgs, display: login.loginDisplay, env: { ...this.env } };
  }

  /** The variables an agent process gets: PATH, and only its own provider's API key. */
  private agentEnv(agentId: string): Record<string, string> {
    const key = apiKeyEnvFor(agentId);
    const value = key ? this.keys[key.provider] : undefined;
    return { ...this.env, ...(key && value ? { [key.env]: value } : {}) };
  }

  private create(c: AgentCandidate, resumeSessionId: string | undefined) {
    if (c.id === 'builtin') return new BuiltinAgent({ shared: this.src.shared(), language: this.src.language });
    const shared = this.src.shared();
    // The OpenAI-compatible agent's tools and external agents' file access (ACP fs/*) go through
    // the same backend and ledger (the one a rewind makes forget what it restored, issue 17).
    return createAgent(c, { shared, fs: { backend: shared.fs, events: shared.fsEvents }, openai: this.openai, env: this.agentEnv(c.id), ...(resumeSessionId ? { resumeSessionId } : {}) });
  }
}
