// English words of the not-logged-in card (decision 381) and the first-run hint (decision 383).
export const onboarding = {
  'login.title': '{0} is not logged in.',
  'login.terminalStep': 'Log in once in a terminal:',
  'login.thenRetry': 'Then send your message again.',
  'login.keyStep': 'Or use a {0} API key: it is kept in VS Code’s secret storage and given only to {1}.',
  'login.terminalButton': 'Log in in a terminal',
  'login.keyButton': 'Set {0} API key',
  'login.agentSaid': 'What the agent said',
  'login.followUp.acp:gemini': 'then choose “Login with Google” (or type /auth)',
  'firstrun.agent': 'You are talking to {0}.',
  'firstrun.switch': 'To use another agent, pick it in the Agent menu above or run “RAWP: Pick Agent…”.',
  'firstrun.builtin': 'The built-in agent works offline without a model (type help). Install Claude Code, Codex or Gemini CLI for a real one; they are found on PATH, in your login shell and the usual install folders, or set rawp.agents.<name>.path.',
  'firstrun.switch.browser': 'To use another agent, pick it in the Agent menu above.',
  'firstrun.builtin.browser': 'The built-in agent works offline without a model (type help). For a real one, install Claude Code, Codex or Gemini CLI on the computer that runs rawp serve, then pick it in the Agent menu or start rawp serve with --agent.',
  'firstrun.tips': 'Type @ to reference a file, / for commands.',
  'firstrun.missing': 'Agents that cannot run here ({0})',
} as const;
