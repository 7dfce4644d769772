// A headless run's --allowed-tools / --denied-tools / --allow checked against the agent's tool catalog
// (§5.4.1) before the prompt goes out. A deny list is a safety setting: `--denied-tools bash` named
// no tool (the tool is `Bash`), so Bash ran — silently. Names the catalog cannot judge are left to
// the agent: Claude Code's patterns (`Bash(git:*)`), MCP tools (`mcp__…`, published later), and any
// name when the agent has published no catalog.

export const UNKNOWN_TOOL = 'UNKNOWN_TOOL';

/** Why the lists cannot be used as given, or undefined when they can. */
export function unknownToolNames(lists: { allowed_tools?: readonly string[]; denied_tools?: readonly string[]; allow?: readonly string[] }, catalog: readonly string[]): string | undefined {
  if (catalog.length === 0) return undefined;
  const known = new Set(catalog);
  const problems: string[] = [];
  // --allow's tool names too: `--allow write` allowed nothing and the write was then denied, exit 0.
  for (const [option, names] of [['--allowed-tools', lists.allowed_tools], ['--denied-tools', lists.denied_tools], ['--allow', lists.allow]] as const) {
    for (const name of names ?? []) {
      if (known.has(name) || /[(*]/.test(name) || name.startsWith('mcp__')) continue;
      const cased = catalog.find((t) => t.toLowerCase() === name.toLowerCase());
      problems.push(`${option} names "${name}", which is no tool of this agent${cased ? ` (did you mean ${cased}? names are case-sensitive)` : ''}`);
    }
  }
  if (problems.length === 0) return undefined;
  return `${problems.join('; ')}. Its tools: ${[...catalog].sort().join(', ')}. Nothing was sent to the agent.`;
}
