// `rawp convert --from claude-code`: a captured `claude -p --output-format stream-json --verbose`
// stdout (JSON lines) -> DPS frames, through the same translation the live adapter uses.
import { FrameWriter } from '../convert/frameWriter';
import { jsonLines, registerConverter, type ConvertOptions, type ConvertResult } from '../convert/registry';
import type { AgentEvent, CommandEntry } from '../../session/agentAdapter';
import { CLAUDE_CODE_INFO, claudeCapabilities } from './capabilities';
import { commandsFromNames } from './commands';
import { defaultCatalog } from './tools';
import { ClaudeTranslator, type ClaudeInit } from './translate';

export function convertClaudeCode(lines: Iterable<string>, options: ConvertOptions = {}): ConvertResult {
  const translator = new ClaudeTranslator({ workspacePath: options.workspacePath });
  const writer = new FrameWriter({
    info: CLAUDE_CODE_INFO,
    session_id: options.session_id,
    fallbackOpening: () => ({ capabilities: claudeCapabilities(translator.agentSessionId), tools: defaultCatalog(), commands }),
  });
  const warnings: ConvertResult['warnings'] = [];
  let commands: CommandEntry[] = [];
  let init: ClaudeInit | undefined;

  for (const { line, value } of jsonLines(lines, warnings)) {
    for (const item of translator.translate(value)) {
      switch (item.kind) {
        case 'event':
          writer.event(item.event);
          break;
        case 'commands':
          commands = item.commands;
          if (init) writer.publishCommands(commands);
          break;
        case 'init':
          init = item.init;
          if (commands.length === 0) commands = commandsFromNames(init.slash_commands);
          writer.open({ capabilities: claudeCapabilities(init.agent_session_id), tools: init.tools, commands });
          break;
        case 'permission': {
          // The capture holds the question but not the answer (that went to the CLI's stdin);
          // the tool's result line shows what the user decided.
          const a = item.ask;
          const ev: AgentEvent = {
            type: 'agent.interaction.request',
            payload: {
              interaction_id: a.request_id,
              interaction_type: 'PERMISSION',
              question_text: permissionQuestion(a.tool_name, a.description),
              timeout_sec: 0,
              options: PERMISSION_OPTIONS,
              context: { tool_name: a.tool_name, tool_input: a.input, affected_paths: a.affected_paths },
            },
            ...(a.metadata ? { metadata: a.metadata } : {}),
          };
          writer.event(ev);
          break;
        }
        case 'malformed':
          // A kept line (a `result`, decision 715) was read without the fields that did not fit.
          warnings.push({ line, message: `${item.type} line ${item.kept ? 'read without fields that do not fit' : 'skipped'}: ${item.detail}` });
          break;
        case 'result':
          // A turn that produced nothing but an error is still a turn (a prompt went in).
          if (item.model_turns > 0 || item.is_error) writer.startTurn();
          writer.endTurn(item.outcome);
          break;
        default:
          break;
      }
    }
  }
  if (writer.inTurn || translator.turnOpen) for (const e of translator.abortTurn(false)) writer.event(e);
  return { frames: writer.finish(), warnings };
}

export const PERMISSION_OPTIONS = [
  { value: 'allow', label: 'Allow', risk_level: 'moderate' as const },
  { value: 'deny', label: 'Deny', risk_level: 'safe' as const },
];

export function permissionQuestion(tool: string, description: string | undefined): string {
  return description ? `Allow ${tool}: ${description}?` : `Allow ${tool}?`;
}

registerConverter({
  id: 'claude-code',
  input: 'stdout of `claude -p --output-format stream-json --verbose [--include-partial-messages]`',
  convert: convertClaudeCode,
});
