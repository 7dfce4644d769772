// English words of the commands the host itself publishes (src/commands/hostCommands.ts and the
// bundled commands of src/commands/bundled.ts) and of the host's notices (x-rawp.notice `words`).
// A command's `command.*` entry is its published description, word for word: the view shows the
// Korean only for a command whose description is exactly this (hostWords.test.ts holds them equal), so
// an agent's own command of the same name keeps its own words.
export const commands = {
  'command.compact': 'Compact the conversation context',
  'command.mode': 'Switch the agent mode (default, plan, review)',
  'command.clear': 'Start a new conversation',
  'command.model': 'Show or choose the model',
  'command.cost': 'Show token usage and cost of this session',
  'command.rename': 'Rename this session',
  'command.stop': 'Cancel the running turn',
  'command.help': 'List the available slash commands',
  'command.review': 'Review the current changes for bugs, risks and missing tests',
  'command.explain': 'Explain how a file, symbol or feature works',
  'command.test': 'Write or extend tests for a file or feature',
  'notice.queued': 'The agent is busy: your prompt is queued and goes out when the turn ends.',
  'notice.renamed': 'The session is now called “{0}”.',
  'notice.rename_blank': '/rename: the name has no visible characters; the session keeps its name.',
  'notice.no_turn': 'No turn is running.',
  'notice.help': 'Slash commands:',
  'notice.clear_elsewhere': '/clear: start a new session from the session list (this session keeps running for the other masters).',
  'notice.not_available': '/{0} is not available for this agent here.',
} as const;
