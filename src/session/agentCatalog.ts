// What the agent told the session about itself: its capabilities (from start, §13.1), its tool
// catalog with diagnostics (§5.4) and its commands (§8). The engine announces these and the tool
// policy (toolPolicy.ts) decides against them.
import type { AgentAdapter, AgentCapabilities, CatalogDiagnostic, CatalogTool } from './agentAdapter';
import type { AgentModeName } from '../protocol/common';
import type { PayloadOf } from '../protocol/frameTypes';
import type { ToolPolicyInput } from './toolPolicy';

export type StartedAgent = Awaited<ReturnType<AgentAdapter['start']>>;

export class AgentCatalog {
  /** Empty features until the agent started. */
  capabilities: AgentCapabilities = { features: {} };
  tools: CatalogTool[] = [];
  private diagnostics: CatalogDiagnostic[] = [];
  /** The whole payload: keys besides `commands` (ours: `unloaded`, decision 721) reach every connection too (decision 002). */
  private commandList: PayloadOf<'agent.commands.publish'> = { commands: [] };

  adopt(started: StartedAgent): void {
    this.capabilities = started.capabilities;
    this.tools = started.tools;
    this.diagnostics = started.diagnostics ?? [];
    // The start's list replaces the list; what a publish sent while starting added to it stays.
    this.commandList = { ...this.commandList, commands: started.commands };
  }

  setTools(payload: PayloadOf<'tool.catalog.publish'>): void {
    this.tools = payload.tools;
    this.diagnostics = payload.diagnostics ?? [];
  }

  setCommands(payload: PayloadOf<'agent.commands.publish'>): void {
    this.commandList = payload;
  }

  catalog(): PayloadOf<'tool.catalog.publish'> {
    return this.diagnostics.length > 0 ? { tools: this.tools, diagnostics: this.diagnostics } : { tools: this.tools };
  }

  commands(): PayloadOf<'agent.commands.publish'> {
    return this.commandList;
  }

  /** The tool policy's view for `mode` and a turn's allow/deny lists (§6.1.1). */
  policy(mode: AgentModeName, turn?: { allowed_tools?: string[]; denied_tools?: string[] }): ToolPolicyInput {
    const p: ToolPolicyInput = { tools: this.tools, diagnostics: this.diagnostics, mode };
    if (turn?.allowed_tools) p.allowed_tools = turn.allowed_tools;
    if (turn?.denied_tools) p.denied_tools = turn.denied_tools;
    return p;
  }
}
