// Claude Code: the long-lived adapter, the §18 one-shot fallback, and the pure translation that
// `rawp convert --from claude-code` shares with them.
export { ClaudeCodeAdapter, type ClaudeCodeOptions } from './adapter';
export { ClaudeCodeOneShotAdapter, type ClaudeCodeOneShotOptions } from './oneShot';
export { ClaudeTranslator, type ClaudeItem, type ClaudeInit, type PermissionAsk } from './translate';
export { CLAUDE_CODE_INFO, CLAUDE_CODE_ONESHOT_INFO, claudeCapabilities } from './capabilities';
export { resolveClaudeCommand } from './args';
export { convertClaudeCode } from './convert';
