// Text piped on stdin beside a prompt (`cat build.log | rawp run … "why did this fail?"`) is
// context, not part of the request: it goes after the prompt inside one pair of tags, the way
// context is usually set apart for a model, and an agent that follows a grammar (the built-in
// agent) reads its requests from the prompt alone — a log line "write x: y" must never become a
// write (the CLI trial of 2026-12-06).
export const PIPED_CONTEXT_OPEN = '\n\n<stdin>\n';
export const PIPED_CONTEXT_CLOSE = '\n</stdin>';

/** The prompt with the piped text after it, set apart. */
export function withPipedContext(prompt: string, piped: string): string {
  return `${prompt}${PIPED_CONTEXT_OPEN}${piped}${PIPED_CONTEXT_CLOSE}`;
}

/** The prompt's own words (before the piped context) and the piped context, if any. */
export function splitPipedContext(text: string): { prompt: string; piped?: string } {
  const at = text.indexOf(PIPED_CONTEXT_OPEN);
  if (at < 0) return { prompt: text };
  const rest = text.slice(at + PIPED_CONTEXT_OPEN.length);
  return { prompt: text.slice(0, at), piped: rest.endsWith(PIPED_CONTEXT_CLOSE) ? rest.slice(0, -PIPED_CONTEXT_CLOSE.length) : rest };
}
