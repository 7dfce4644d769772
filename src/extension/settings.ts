// Reads the rawp.* settings (package.json "contributes.configuration" documents each one).
import * as vscode from 'vscode';
import type { HistoryOptions } from '../session/history';
import type { ToolSettings } from '../tools/types';
import type { LogLevel } from './logger';
import { inContextWindowRange } from '../agents/openai/conversation';

function cfg(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('rawp');
}

/** rawp.openai.contextWindow: 0 (the default) or out of range means "learn it from the server" (decision 730). */
function contextWindowSetting(n: number | undefined): number | undefined {
  return inContextWindowRange(n) ? n : undefined;
}

export const settings = {
  defaultAgent: (): string => cfg().get<string>('defaultAgent', 'auto'),
  logLevel: (): LogLevel => cfg().get<LogLevel>('logLevel', 'info'),
  enterSends: (): boolean => cfg().get<boolean>('chat.enterSends', true),
  /** §4.5.1: largest file a master may upload or an agent may offer (default 20 MB). */
  filesMaxBytes: (): number => {
    const n = cfg().get<number>('files.maxBytes', 20 * 1024 * 1024);
    return Number.isSafeInteger(n) && n >= 1 ? n : 20 * 1024 * 1024;
  },
  transcriptBytes: (): number => cfg().get<number>('persistence.maxBytesPerSession', 4 * 1024 * 1024),
  history: (): HistoryOptions => ({
    policy: cfg().get<HistoryOptions['policy']>('history.policy', 'RING'),
    maxBytes: cfg().get<number>('history.bufferBytes', 8 * 1024 * 1024),
  }),
  /** How long a permission ask waits for an answer (the host's permission policy). */
  permissionTimeoutSec: (): number => cfg().get<number>('permissions.timeoutSeconds', 300),
  tools: (): Partial<ToolSettings> => ({
    allowOutsideWorkspace: cfg().get<boolean>('permissions.allowOutsideWorkspace', false),
    shell: cfg().get<string>('tools.shell', '/bin/sh'),
    bashTimeoutMs: cfg().get<number>('tools.bashTimeoutMs', 120_000),
  }),
  remote: () => ({
    host: cfg().get<string>('remote.host', '127.0.0.1'),
    port: cfg().get<number>('remote.port', 7870),
    allowedOrigins: cfg().get<string[]>('remote.allowedOrigins', []),
    allowInsecure: cfg().get<boolean>('remote.allowInsecure', false),
  }),
  /** `rawp.agents.<name>.path`, by name (decision 380); empty ones left out. */
  agentPaths: (): Record<string, string> => {
    const all = cfg().get<Record<string, unknown>>('agents', {});
    const out: Record<string, string> = {};
    for (const [name, v] of Object.entries(all ?? {})) {
      const p = typeof v === 'object' && v !== null ? (v as { path?: unknown }).path : undefined;
      if (typeof p === 'string' && p.trim()) out[name] = p.trim();
    }
    return out;
  },
  openai: () => ({ baseUrl: cfg().get<string>('openai.baseUrl', ''), model: cfg().get<string>('openai.model', ''), vision: cfg().get<boolean>('openai.vision', false), contextWindow: contextWindowSetting(cfg().get<number>('openai.contextWindow', 0)) }),
  /** rawp.search.includeIgnored (decision 363): the @ picker lists what ignore files hide. */
  includeIgnored: () => cfg().get<boolean>('search.includeIgnored', false),
  /** rawp.checkpoints.enabled (decision 635): a snapshot before each turn; read at each turn's start. */
  checkpointsEnabled: () => cfg().get<boolean>('checkpoints.enabled', true),
};
