// Public surface of slash commands: discovery (providers, registry), expansion and the prompt
// pipeline, publishing, and the follow-up queue. The engine and the VS Code host use these.
export * from './types';
export * from './actions';
export { parseCommandArgs, substituteArgs } from './args';
export { renderTemplate } from './template';
export { expandSlashCommand, applyArguments, parseInvocation, findCommand } from './expand';
export { parseFrontmatter, FrontmatterError } from './frontmatter';
export { describeCommand, displaySource } from './description';
export { CommandRegistry, invalidReason } from './registry';
export { materialize } from './materialize';
export { BUNDLED_COMMANDS, type BundledTemplate } from './bundled';
export { HOST_COMMANDS, type HostCommand } from './hostCommands';
export { PromptPipeline, looksLikeCommand, type CustomCommand, type PromptTemplate, type PromptExtras } from './pipeline';
export { buildCommandsPublish } from './publish';
export { commandParameters } from './parameters';
export { FollowUpQueue, type QueuedPrompt, type QueueState, type SubmitOutcome } from './followUpQueue';
export { PromptRouter, type Routed } from './router';
export { CommandService, defaultProviders, type CommandSnapshot, type CommandListing, type RefreshReason } from './service';
export { nativeProvider } from './providers/native';
export { claudeProvider } from './providers/claude';
export { codexProvider } from './providers/codex';
export { claudePluginsProvider } from './providers/claudePlugins';
export { AgentReportedProvider, type AgentCommand } from './providers/agentReported';
