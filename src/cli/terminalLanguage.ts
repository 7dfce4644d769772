// The language a terminal verb speaks the host's words in (its notices, /help's list): the
// environment's locale, as the built-in agent reads it (LC_ALL, LC_MESSAGES, LANG; decision 572).
// The CLI's own usage and error lines stay English, like every command-line tool's options.
import { builtinLanguage, environmentLanguage } from '../agents/builtin/words';
import type { HostLanguage } from '../protocol/hostPhrases';

export function terminalLanguage(env: Record<string, string | undefined>): HostLanguage {
  return builtinLanguage(environmentLanguage(env));
}
