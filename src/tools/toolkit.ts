// Assembles the tools for one agent session: catalog, runner, ledger policy, permissions, todos.
// Shared pieces (the file-backend, FsEvents with the ledger, the permission rules, the todo store)
// may be passed in so several sessions share them — that is how two sessions' edits of one file
// meet the same versions.
import type { AgentHost } from '../session/agentAdapter';
import type { FsBackend } from '../workspace/fsBackend';
import { ToolCatalog, builtinProbe } from './catalog';
import { FsEvents } from './fsEvents';
import { attachObservationPolicy } from './ledger/policy';
import { PermissionGate } from './permissions/gate';
import { ALL_TOOLS } from './registry';
import { ToolRunner } from './runner';
import type { SubagentRunner } from './subagent';
import { TodoStore } from './todoStore';
import { DEFAULT_TOOL_SETTINGS, type Tool, type ToolSettings } from './types';

export interface SharedToolState {
  fs: FsBackend;
  fsEvents: FsEvents;
  permissions: PermissionGate;
  todos: TodoStore;
  settings: ToolSettings;
  /** The installed ledger; `dispose()` detaches it (bare provider behaviour). */
  ledger?: ReturnType<typeof attachObservationPolicy>;
}

export interface SharedToolOptions {
  fs: FsBackend;
  settings?: Partial<ToolSettings>;
  /** Install the read-before-write ledger (default true). */
  ledger?: boolean;
}

export function createSharedToolState(opts: SharedToolOptions): SharedToolState {
  const settings = { ...DEFAULT_TOOL_SETTINGS, ...opts.settings };
  const fsEvents = new FsEvents();
  const ledger = opts.ledger !== false ? attachObservationPolicy(fsEvents) : undefined;
  return { fs: opts.fs, fsEvents, permissions: new PermissionGate(), todos: new TodoStore(), settings, ledger };
}

export function createToolRunner(host: AgentHost, shared: SharedToolState, opts: { tools?: readonly Tool[]; subagents?: SubagentRunner } = {}): ToolRunner {
  const catalog = new ToolCatalog(opts.tools ?? ALL_TOOLS, builtinProbe(shared.settings, { hasSubagents: opts.subagents !== undefined }));
  return new ToolRunner({ host, catalog, ...shared, subagents: opts.subagents });
}
