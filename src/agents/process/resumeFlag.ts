// §18.3: the `resume_flag` template, e.g. "--resume {session_id}", turned into process arguments.

/**
 * Split the template on whitespace and substitute `{session_id}` in each word, so an id is always
 * exactly one argument (no shell, no quoting games). No id yet -> no arguments.
 */
export function expandResumeFlag(template: string | undefined, agentSessionId: string | undefined): string[] {
  if (!template || !agentSessionId) return [];
  return template
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.split('{session_id}').join(agentSessionId));
}
