// node:util's parseArgs errors in our words. Its own sentences name the option with a placeholder
// ("Option '--max-turns <value>' argument missing"), and a value that starts with "-" reads as
// "argument is ambiguous … use '--max-turns=-XYZ'": true, but not what a user typing
// `--max-turns -1` needs to hear. We say which option, what it wants and what it got.
// A message we do not recognize is passed on as it is (Node's words may change; no error is lost).

interface ParseArgsError {
  code?: string;
  message: string;
}

/** Options whose value is a secret (`--token T`, a key): never echoed back. */
const SECRET_OPTION = /token|key|secret|password/i;

/** The option a parseArgs message names ("-m, --max-turns <value>" -> "--max-turns"). */
function optionIn(message: string): string | undefined {
  return /Option '(?:-\w, )?(--[^\s']+)/.exec(message)?.[1];
}

/** One line saying what is wrong with the arguments (`args`, as parsed), for `rawp VERB: …`. */
export function argumentErrorWords(e: unknown, args: readonly string[] = []): string {
  const err: ParseArgsError = e instanceof Error ? (e as Error & { code?: string }) : { message: String(e) };
  const message = err.message;
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const name = /Unknown option '([^']+)'/.exec(message)?.[1];
      if (name === undefined) break;
      // Node adds the "--" hint only for verbs that take words besides options (run's PROMPT).
      const takesWords = /positional argument/.test(message);
      return takesWords ? `unknown option "${name}" (words that start with "-" go after "--": … -- "${name}")` : `unknown option "${name}"`;
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const word = /Unexpected argument '([^']*)'/.exec(message)?.[1];
      if (word === undefined) break;
      return `unexpected argument "${word}": this verb takes options only`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const name = optionIn(message);
      if (name === undefined) break;
      if (/argument missing/.test(message)) return `${name} needs a value`;
      if (/does not take an argument/.test(message)) return `${name} takes no value`;
      if (/ambiguous/.test(message)) {
        // The word after the option starts with "-": Node will not take it as the value unsaid.
        const at = args.indexOf(name);
        const next = at >= 0 ? args[at + 1] : undefined;
        if (next === undefined) return `${name} needs a value`;
        // A token's value is not repeated where logs keep it (CI output, a shared terminal).
        if (SECRET_OPTION.test(name)) return `${name} needs a value, and the word after it reads as an option: write ${name}=VALUE if it is the value`;
        return `${name} needs a value, and "${next}" after it reads as an option: write ${name}=${next} if it is the value`;
      }
      break;
    }
  }
  return message;
}
