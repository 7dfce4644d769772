// Commands that ship with the extension (slash-commands §3 "bundled fallback"): added after all
// providers, only where the name is still free, with source "bundled".

export interface BundledTemplate {
  /** Command name; a trailing `.md` is dropped. */
  name: string;
  /** Markdown with optional frontmatter, like a command file. */
  content: string;
}

export const BUNDLED_COMMANDS: readonly BundledTemplate[] = [
  {
    name: 'review',
    content: `---
description: Review the current changes for bugs, risks and missing tests
argument-hint: "[focus]"
---
Review the uncommitted changes in this workspace (use git diff). Look for bugs, risky edge cases,
security problems and missing tests. Report findings ordered by severity, each with file and line.
Focus especially on: $ARGUMENTS
`,
  },
  {
    name: 'explain',
    content: `---
description: Explain how a file, symbol or feature works
argument-hint: "<what>"
---
Explain how $ARGUMENTS works in this codebase: its purpose, the main flow, the important types and
where it is used. Quote the relevant code briefly and cite file paths.
`,
  },
  {
    name: 'test',
    content: `---
description: Write or extend tests for a file or feature
argument-hint: "<target>"
---
Write focused tests for $ARGUMENTS using the project's existing test framework and conventions.
Cover normal cases, edge cases and failure paths, then run the tests and fix what fails.
`,
  },
];
