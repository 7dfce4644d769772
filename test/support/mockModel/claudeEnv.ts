// The environment Claude Code (and claude-agent-acp, which runs it) needs to talk to the mock
// model offline: no telemetry, no updater, no retries (docs/notes: the agent CLIs offline).
export function claudeEnv(baseUrl: string, home: string): Record<string, string> {
  const env: Record<string, string> = {
    HOME: home,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'dummy',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
  };
  // As root the CLI refuses some modes outside a sandbox; only tests set this.
  if (process.getuid?.() === 0) env.IS_SANDBOX = '1';
  return env;
}
