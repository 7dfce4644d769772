// Public surface of slash commands: discovery (providers, registry), expansion and the prompt
// pipeline, publishing, and the follow-up queue. The engine and the VS Code host use these.
//
// Wiring, in short:
//   const svc = new CommandService({ home: os.homedir(), workspaceFolders });
//   svc.onDidRefresh((s) => emit('agent.commands.publish', s.publish));   // after every refresh
//   await svc.start();                                                    // first refresh + watcher
//   workspace folders change      -> svc.setWorkspaceFolders(folders)
//   adapter.start() / ACP update  -> svc.setAgentCommands(agent.info, commands)
//   const queue = new FollowUpQueue({ send: (p) => sendPrompt(p) });     // feed it every frame: queue.observe(f)
//   const { action } = await new PromptRouter(svc.pipeline, queue).submit(text, { file_references });
//   action.kind: 'prompt' (sent or queued) | 'control' (send that frame) | 'local' | 'handled' | 'error'
//   "all commands" view           -> svc.allCommands()
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
export { unloadedFiles, shownPath, UNLOADED_WORDS, UNLOADED_LISTED_MAX, type UnloadedFiles } from './unloaded';
export { commandParameters } from './parameters';
export { FollowUpQueue, type QueuedPrompt, type QueueState, type SubmitOutcome } from './followUpQueue';
export { PromptRouter, type Routed } from './router';
export { CommandService, defaultProviders, type CommandSnapshot, type CommandListing, type RefreshReason } from './service';
export { nativeProvider } from './providers/native';
export { claudeProvider } from './providers/claude';
export { codexProvider } from './providers/codex';
export { claudePluginsProvider } from './providers/claudePlugins';
export { AgentReportedProvider, type AgentCommand } from './providers/agentReported';
